/**
 * The client logs in with an auth method when no token is given (issue 32, item 1), against the
 * local controller's `:authenticate` in every release: once per client, the token in memory only,
 * one more login after a 401 for an expired token, and one message per refusal naming the setting.
 */
import { defaultFixtures } from "../../controller";
import { BoundaryClient, ClientSettingsError, LoginRefusedError, UnauthenticatedError } from "../../provider/client";
import { RELEASE_KEYS } from "../../wire/releases";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";

const AUTHENTICATE = "POST /v1/auth-methods/{id}:authenticate";
const login = (over: Record<string, string> = {}) => ({
  authMethodId: "ampw_1234567890",
  authMethodLoginName: "admin",
  authMethodPassword: "password",
  ...over,
});

/** What a call failed with. */
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

describe.each(RELEASE_KEYS)("--emulate %s", (mode) => {
  let c: TestController;
  beforeAll(async () => {
    c = await startTestController({ emulation: mode });
  });
  afterAll(() => c.shutdown());

  test("logs in once on its first call, then lists and reads with the issued token", async () => {
    const client = new BoundaryClient({ addr: c.apiUrl, ...login() }, {});
    try {
      const { calls } = await countCalls(c.opsUrl, async () => {
        await client.listTargets({ scopeId: PROJECT });
        await client.listTargets({ scopeId: PROJECT });
      });
      expect(calls[AUTHENTICATE]).toBe(1);
      expect(calls["GET /v1/targets"]).toBe(2);
    } finally {
      await client.close();
    }
  });

  test("a wrong password is one message naming the login settings, never the password", async () => {
    const client = new BoundaryClient({ addr: c.apiUrl, ...login({ authMethodPassword: "hunter2-wrong" }) }, {});
    try {
      const err = await failure(client.listTargets({ scopeId: PROJECT }));
      expect(err).toBeInstanceOf(LoginRefusedError);
      expect(err.message).toContain("boundary:authMethodLoginName and boundary:authMethodPassword");
      expect(err.message).not.toContain("hunter2-wrong");
      // the refusal stands for the process: no second login is tried for the same settings
      const { calls } = await countCalls(c.opsUrl, () => failure(client.listTargets({ scopeId: PROJECT })));
      expect(calls).toEqual({});
    } finally {
      await client.close();
    }
  });

  test("an auth method the controller does not have names boundary:authMethodId", async () => {
    const client = new BoundaryClient({ addr: c.apiUrl, ...login({ authMethodId: "ampw_0000000000" }) }, {});
    try {
      const err = await failure(client.listTargets({ scopeId: PROJECT }));
      expect(err).toBeInstanceOf(LoginRefusedError);
      expect(err.message).toMatch(/has no auth method "ampw_0000000000": check boundary:authMethodId/);
    } finally {
      await client.close();
    }
  });
});

describe("LDAP auth methods (amldap_, Boundary 0.13+)", () => {
  const fixtures = {
    ...defaultFixtures(),
    auth_methods: [{ id: "amldap_1234567890", scope_id: "global" as const, accounts: [{ login_name: "ci", password: "s3cret", grant: "admin" as const }] }],
  };
  test.each(["0.13", "0.21"] as const)("--emulate %s logs in", async (mode) => {
    const c = await startTestController({ emulation: mode, fixtures });
    const client = new BoundaryClient(
      { addr: c.apiUrl, ...login({ authMethodId: "amldap_1234567890", authMethodLoginName: "ci", authMethodPassword: "s3cret" }) },
      {},
    );
    try {
      expect(await client.listTargets({ scopeId: PROJECT })).toEqual([]);
    } finally {
      await client.close();
      await c.shutdown();
    }
  });
  test("--emulate 0.12 does not know the type: the message says LDAP came in 0.13", async () => {
    const c = await startTestController({ emulation: "0.12", fixtures });
    const client = new BoundaryClient(
      { addr: c.apiUrl, ...login({ authMethodId: "amldap_1234567890", authMethodLoginName: "ci", authMethodPassword: "s3cret" }) },
      {},
    );
    try {
      const err = await failure(client.listTargets({ scopeId: PROJECT }));
      expect(err).toBeInstanceOf(LoginRefusedError);
      expect(err.message).toContain("LDAP auth methods came in Boundary 0.13");
    } finally {
      await client.close();
      await c.shutdown();
    }
  });
});

describe("settings, judged before any call", () => {
  test.each<[string, Record<string, string>, RegExp]>([
    [
      "an OIDC auth method",
      { authMethodId: "amoidc_1234567890" },
      /boundary:authMethodId: "amoidc_1234567890" is an OIDC auth method, which logs in through a browser/,
    ],
    ["no auth method id at all", { authMethodId: "" }, /boundary:authMethodId \(or BOUNDARY_AUTH_METHOD_ID\) is not/],
    ["a malformed id", { authMethodId: "ampw_12" }, /is not an auth method id/],
  ])("%s is one ClientSettingsError", (_what, over, message) => {
    const make = () => new BoundaryClient({ addr: "http://127.0.0.1:1", ...login(over) }, {});
    expect(make).toThrow(ClientSettingsError);
    expect(make).toThrow(message);
  });

  test("Boundary's CLI's environment names: BOUNDARY_AUTH_METHOD_ID, BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME, …_PASSWORD", () => {
    const client = new BoundaryClient(
      { addr: "http://127.0.0.1:1" },
      { BOUNDARY_AUTH_METHOD_ID: "ampw_1234567890", BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME: "admin", BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD: "pw" },
    );
    expect(client.settings.login).toMatchObject({
      authMethodId: "ampw_1234567890",
      loginName: "admin",
      from: { password: "BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD" },
    });
  });

  test("a token wins over a login, as in terraform-provider-boundary", async () => {
    const c = await startTestController();
    const client = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN, ...login({ authMethodPassword: "wrong" }) }, {});
    try {
      expect(client.settings.login).toBeUndefined();
      expect(client.settings.loginIgnored).toBe(true);
      const { calls } = await countCalls(c.opsUrl, () => client.listTargets({ scopeId: PROJECT }));
      expect(calls[AUTHENTICATE]).toBeUndefined();
    } finally {
      await client.close();
      await c.shutdown();
    }
  });
});

describe("an expired token (the controller's authTokenTtlMs made short)", () => {
  test("one more login, the call sent once more; concurrent calls share it", async () => {
    const c = await startTestController({ authTokenTtlMs: 400 });
    const client = new BoundaryClient({ addr: c.apiUrl, ...login() }, {});
    try {
      await client.listTargets({ scopeId: PROJECT });
      await new Promise((r) => setTimeout(r, 500));
      const { calls } = await countCalls(c.opsUrl, () => Promise.all([1, 2, 3].map(() => client.listTargets({ scopeId: PROJECT }))));
      expect(calls[AUTHENTICATE]).toBe(1);
      expect(calls["GET /v1/targets"]).toBe(6);
    } finally {
      await client.close();
      await c.shutdown();
    }
  });

  test("a token refused even after a new login is one UnauthenticatedError that says so", async () => {
    // a token that expires at once: the second login's token is refused too
    const c = await startTestController({ authTokenTtlMs: 0 });
    const client = new BoundaryClient({ addr: c.apiUrl, ...login() }, {});
    try {
      const { result, calls } = await countCalls(c.opsUrl, () => failure(client.listTargets({ scopeId: PROJECT })));
      expect(result).toBeInstanceOf(UnauthenticatedError);
      expect(result.message).toContain("even after logging in again");
      expect(result.message).not.toMatch(/at_[0-9A-Za-z]{10}_s1/);
      expect(calls[AUTHENTICATE]).toBe(2);
    } finally {
      await client.close();
      await c.shutdown();
    }
  });
});
