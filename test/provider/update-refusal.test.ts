/**
 * An Update that holds a change only a replacement can make (`scopeId`, `type`) is refused on the
 * dynamic route too (the core both routes share), before any call, naming the field and what to do;
 * the plugin route's refusal is pinned in test/plugin/pulumi-do.test.ts.
 */
import { UnsupportedInputError } from "../../provider/errors";
import { OTHER_PROJECT, PROJECT } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";
import { useProvider } from "../helpers/provider";

const p = useProvider();

test("the dynamic route's update refuses a scopeId change, makes no call, and the preview refuses it too", async () => {
  const inputs = { scopeId: PROJECT, name: "stays-put" };
  const made = await p.provider.create(inputs);
  const moved = { ...inputs, scopeId: OTHER_PROJECT };
  const { result, calls } = await countCalls(p.c.opsUrl, () => p.provider.update(made.id, made.outs, moved).catch((err: unknown) => err));
  expect(result).toBeInstanceOf(UnsupportedInputError);
  expect((result as Error).message).toMatch(/^target "ttcp_\w+": scopeId cannot change in place .*nothing was changed\. Run `pulumi up`/);
  expect(calls).toEqual({});
  expect(() => p.provider.core.previewUpdate(made.outs, moved)).toThrow(/scopeId cannot change in place/);
  expect((await p.c.call("GET", `/v1/targets/${made.id}`)).body).toMatchObject({ scope_id: PROJECT, version: 1 });
  // a change that can be made in place still is
  expect((await p.provider.update(made.id, made.outs, { ...inputs, description: "d" })).outs).toMatchObject({ description: "d", version: 2 });
  await p.provider.delete(made.id, made.outs);
});
