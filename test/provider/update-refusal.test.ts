/**
 * An Update that holds a change only a replacement can make (`scopeId`, `type`) is refused on the
 * dynamic route too (the core both routes share), before any call, naming the field and what to do;
 * the plugin route's refusal is pinned in test/plugin/pulumi-do.test.ts.
 */
import { DynamicTargetProvider } from "../../provider/resource/dynamic";
import { UnsupportedInputError } from "../../provider/errors";
import { ADMIN_TOKEN, OTHER_PROJECT, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";

let c: TestController;
beforeAll(async () => {
  c = await startTestController();
});
afterAll(() => c?.shutdown());

test("the dynamic route's update refuses a scopeId change, makes no call, and the preview refuses it too", async () => {
  const provider = new DynamicTargetProvider({ addr: c.apiUrl, token: ADMIN_TOKEN });
  const inputs = { scopeId: PROJECT, name: "stays-put" };
  const made = await provider.create(inputs);
  const moved = { ...inputs, scopeId: OTHER_PROJECT };
  const { result, calls } = await countCalls(c.opsUrl, () => provider.update(made.id, made.outs, moved).catch((err: unknown) => err));
  expect(result).toBeInstanceOf(UnsupportedInputError);
  expect((result as Error).message).toMatch(/^target "ttcp_\w+": scopeId cannot change in place .*nothing was changed\. Run `pulumi up`/);
  expect(calls).toEqual({});
  expect(() => provider.core.previewUpdate(made.outs, moved)).toThrow(/scopeId cannot change in place/);
  expect((await c.call("GET", `/v1/targets/${made.id}`)).body).toMatchObject({ scope_id: PROJECT, version: 1 });
  // a change that can be made in place still is
  expect((await provider.update(made.id, made.outs, { ...inputs, description: "d" })).outs).toMatchObject({ description: "d", version: 2 });
  await provider.delete(made.id, made.outs);
});
