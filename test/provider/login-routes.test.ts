/**
 * Both routes log in from the stack config (issue 32, item 1): one `pulumi up` that outlives its token
 * logs in once more and replays the refused call, the state and the provider's output never hold
 * the password or a token, and a wrong password fails the step with one message naming the setting.
 */
import { defaultFixtures } from "../../controller";
import { Stack } from "../../harness/stack";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { startFaultProxy } from "../helpers/fault-proxy";
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
    c = await startTestController({ emulation: "0.21", fixtures, authTokenTtlMs: TOKEN_LIFE_MS });
  });
  afterAll(async () => {
    await route?.stop();
    await c.shutdown();
  });

  test("an up that outlives its token logs in once more and replays the refused call; nothing secret in state or output", async () => {
    // a slowed create answer makes the token's life pass between two calls of the same step, inside one run
    const proxy = await startFaultProxy(c.apiUrl);
    proxy.intercept((req) => (req.method === "POST" && req.url === "/v1/targets" ? { status: 0, delayMs: TOKEN_LIFE_MS + 300 } : undefined));
    try {
      route = await routeTo(kind, proxy.url, { login: { authMethodId: "ampw_1234567890", loginName: "pulumi-ci", password: PASSWORD } });
      const stack = new Stack(route, "web");
      const args = { scopeId: PROJECT, name: `login-${kind}`, defaultPort: 22, hostSetIds: ["hsst_1234567890"] };
      const run = await countCalls(c.opsUrl, () => stack.up(args));
      expect(run.result).toBe("create");
      // the create ignores the host sets (as every real release does), so they are added after it: that call is refused with 401, then a
      // second login, and the call once more, applied once
      expect(run.calls[AUTHENTICATE]).toBe(2);
      expect(run.calls["POST /v1/targets"]).toBe(1);
      expect(proxy.seen.filter((r) => /:(add|set)-host-(sets|sources)$/.test(r.path)).map((r) => r.status)).toEqual([401, 200]);
      const seen = JSON.stringify([stack.inputs, stack.outputs]) + route.host.output();
      expect(seen).not.toContain(PASSWORD);
      expect(seen).not.toMatch(ISSUED_TOKEN);
      await stack.destroy();
      await route.stop();
      route = undefined;
    } finally {
      await proxy.close();
    }
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
