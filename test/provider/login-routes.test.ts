/**
 * Both routes log in from the stack config (issue 32, item 1): a `pulumi up` that outlives its token
 * logs in once more and replays the refused call, the state and the provider's output never hold
 * the password or a token, and a wrong password fails the step with one message naming the setting.
 */
import { defaultFixtures } from "../../controller";
import { Stack } from "../../harness/stack";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";
import { ROUTES, routeTo, type TestRoute } from "../helpers/routes";

const AUTHENTICATE = "POST /v1/auth-methods/{id}:authenticate";
const PASSWORD = "pw-Zq9-correct-horse";
const fixtures = {
  ...defaultFixtures(),
  auth_methods: [{ id: "ampw_1234567890", scope_id: "global" as const, accounts: [{ login_name: "pulumi-ci", password: PASSWORD, grant: "admin" as const }] }],
};
const TOKEN_LIFE_MS = 1500;
const ISSUED_TOKEN = /at_[0-9A-Za-z]{10}_s1[1-9A-HJ-NP-Za-km-z]{20,}/;

describe.each(ROUTES)("through the %s route", (kind) => {
  let c: TestController;
  let route: TestRoute | undefined;
  beforeAll(async () => {
    c = await startTestController({ fixtures, authTokenTtlMs: TOKEN_LIFE_MS });
  });
  afterAll(async () => {
    await route?.stop();
    await c.shutdown();
  });

  test("an up that outlives its token logs in once more and replays the refused call; nothing secret in state or output", async () => {
    route = await routeTo(kind, c.apiUrl, { login: { authMethodId: "ampw_1234567890", loginName: "pulumi-ci", password: PASSWORD } });
    const stack = new Stack(route, "web");
    const args = { scopeId: PROJECT, name: `login-${kind}`, description: "v1", defaultPort: 22 };
    const first = await countCalls(c.opsUrl, () => stack.up(args));
    expect(first.calls[AUTHENTICATE]).toBe(1);
    // the token's life passes between two steps of the same run
    await new Promise((r) => setTimeout(r, TOKEN_LIFE_MS + 200));
    const second = await countCalls(c.opsUrl, () => stack.up({ ...args, description: "v2" }));
    expect(second.result).toBe("update");
    expect(second.calls[AUTHENTICATE]).toBe(1);
    // the PATCH refused with 401, then sent once more and applied once
    expect(second.calls["PATCH /v1/targets/{id}"]).toBe(2);
    expect(c.store.getTarget(stack.id!)).toMatchObject({ description: "v2", version: 2 });
    const seen = JSON.stringify([stack.inputs, stack.outputs]) + route.host.output();
    expect(seen).not.toContain(PASSWORD);
    expect(seen).not.toMatch(ISSUED_TOKEN);
    await stack.destroy();
    await route.stop();
    route = undefined;
  }, 60_000);

  test("a wrong password fails the step with one message naming the login settings, never the password", async () => {
    route = await routeTo(kind, c.apiUrl, { login: { authMethodId: "ampw_1234567890", loginName: "pulumi-ci", password: "not-the-password" } });
    const stack = new Stack(route, "web");
    const err = await stack.up({ scopeId: PROJECT, name: `refused-${kind}`, defaultPort: 22 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain('refused the login of "pulumi-ci" with auth method "ampw_1234567890"');
    expect(err?.message).toContain("check boundary:authMethodLoginName and boundary:authMethodPassword");
    expect(err?.message).not.toContain("not-the-password");
    expect(route.host.output()).not.toContain("not-the-password");
    await route.stop();
    route = undefined;
  }, 60_000);
});
