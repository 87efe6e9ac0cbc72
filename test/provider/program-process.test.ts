/**
 * The program process that runs the dynamic route's declarations (`harness/program.ts`): kept for
 * the file, one batch at a time under mocks set afresh. A batch that fails is named and does not
 * stop the next; batches asked at once come back each to its own caller; a preview batch carries
 * the engine's unknown sentinel.
 */
import { UNKNOWN } from "../../harness/engine";
import { registeredInputs, registeredResources } from "../../harness/program";
import { packedProgram } from "../../harness/provider-host";
import { PROJECT } from "../helpers/controller";

test("a declaration the SDK refuses fails its batch, naming why; the next batch is served", async () => {
  await expect(registeredInputs(packedProgram(), [{ name: "orphan", args: { scopeId: PROJECT }, opts: { parent: "not-a-resource" } }])).rejects.toThrow(
    "the program's declarations failed: Error: Resource parent is not a valid Resource: not-a-resource",
  );
  const [web] = await registeredInputs(packedProgram(), [{ name: "web", args: { scopeId: PROJECT, name: "web" } }]);
  expect(web).toMatchObject({ scopeId: PROJECT, name: "web", __provider: expect.any(String) });
});

test("batches asked at once each get their own Targets, with the same names in both", async () => {
  const [a, b] = await Promise.all([
    registeredInputs(packedProgram(), [{ name: "web", args: { scopeId: PROJECT, description: "first" } }]),
    registeredInputs(packedProgram(), [
      { name: "web", args: { scopeId: PROJECT, description: "second" } },
      { name: "db", args: { scopeId: PROJECT } },
    ]),
  ]);
  expect(a.map((i) => [i.__logicalName, i.description])).toEqual([["web", "first"]]);
  expect(b.map((i) => [i.__logicalName, i.description])).toEqual([
    ["web", "second"],
    ["db", undefined],
  ]);
});

test("a preview batch after a plain one: what is not known yet reaches the engine as its sentinel", async () => {
  await registeredInputs(packedProgram(), [{ name: "web", args: { scopeId: PROJECT } }]);
  const [r] = await registeredResources(packedProgram(), [{ name: "web", args: { scopeId: "late" } }], "late");
  expect(r).toMatchObject({ name: "web", inputs: { scopeId: UNKNOWN } });
});
