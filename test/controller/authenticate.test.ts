/**
 * `POST /v1/auth-methods/{id}:authenticate` as `boundary dev` serves it, in every release's shapes
 * (issue 32, item 2): the table's `authenticate` column decides what each release reads and answers.
 */
import { defaultFixtures } from "../../controller";
import { loadDevConfig } from "../../controller/config/dev-config";
import { RELEASE_KEYS, release } from "../../wire/releases";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";

const AM = "ampw_1234567890";
const LDAP = "amldap_1234567890";
const login = (login_name: string, password: string) => ({ command: "login", attributes: { login_name, password } });

const fixtures = () => ({
  ...defaultFixtures(),
  auth_methods: [
    ...defaultFixtures().auth_methods,
    { id: LDAP, scope_id: "global" as const, accounts: [{ login_name: "ci", password: "ldap-secret", grant: "admin" as const }] },
  ],
});

describe.each(RELEASE_KEYS)("--emulate %s", (mode) => {
  const facts = release(mode).authenticate;
  let c: TestController;
  beforeAll(async () => {
    c = await startTestController({ emulation: mode, fixtures: fixtures() });
  });
  afterAll(() => c.shutdown());

  test("admin/password logs in without a token; the token it answers lists and creates Targets", async () => {
    const res = await c.call("POST", `/v1/auth-methods/${AM}:authenticate`, login("admin", "password"), null);
    expect(res.status).toBe(200);
    expect(res.body.command).toBe("login");
    expect(res.body).not.toHaveProperty("type");
    const t = res.body.attributes;
    expect(t).toMatchObject({ scope_id: "global", auth_method_id: AM, token: expect.stringMatching(/^at_[0-9A-Za-z]{10}_s1\w+$/) });
    expect(t.token.startsWith(`${t.id}_`)).toBe(true);
    expect(Date.parse(t.expiration_time) - Date.parse(t.created_time)).toBe(7 * 24 * 3600 * 1000);
    expect((await c.call("GET", `/v1/targets?scope_id=${PROJECT}`, undefined, t.token)).status).toBe(200);
    const created = await c.call(
      "POST",
      "/v1/targets",
      { scope_id: PROJECT, name: `by-login-${mode}`, type: "tcp", attributes: { default_port: 22 } },
      t.token,
    );
    expect(created.status).toBe(200);
  });

  test("user/password holds the read-only grant: it lists, and a create is 403", async () => {
    const res = await c.call("POST", `/v1/auth-methods/${AM}:authenticate`, login("user", "password"), null);
    const token = res.body.attributes.token;
    expect((await c.call("GET", `/v1/targets?scope_id=${PROJECT}`, undefined, token)).status).toBe(200);
    // a create every release takes from admin (as above), so the refusal is the grant's, not the body's
    const refused = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: `nope-${mode}`, type: "tcp", attributes: { default_port: 22 } }, token);
    expect(refused.status).toBe(403);
    expect(refused.body.kind).toBe("PermissionDenied");
    const names = (await c.call("GET", `/v1/targets?scope_id=${PROJECT}`, undefined, token)).body.items.map((t: { name: string }) => t.name);
    expect(names).not.toContain(`nope-${mode}`);
  });

  test("a wrong password is 401 Unable to authenticate; an auth method not seeded is 404", async () => {
    const wrong = await c.call("POST", `/v1/auth-methods/${AM}:authenticate`, login("admin", "wrong"), null);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ kind: "Unauthenticated", message: "Unable to authenticate." });
    expect(wrong.text).not.toContain("wrong");
    const unknown = await c.call("POST", `/v1/auth-methods/ampw_0000000000:authenticate`, login("admin", "password"), null);
    expect(unknown.status).toBe(404);
    expect(unknown.body.kind).toBe("NotFound");
  });

  test("missing attributes are named in one 400; an unknown command too", async () => {
    const res = await c.call("POST", `/v1/auth-methods/${AM}:authenticate`, { command: "start", attributes: { login_name: "admin" } }, null);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Invalid fields provided in request.");
    expect(res.body.details.request_fields.map((f: { name: string }) => f.name)).toEqual(["attributes.password", "command"]);
  });

  test(`v0.4's deprecated credentials body is ${facts.credentials ? "read" : "discarded (a reserved name)"}`, async () => {
    const res = await c.call(
      "POST",
      `/v1/auth-methods/${AM}:authenticate`,
      { token_type: "token", credentials: { login_name: "admin", password: "password" } },
      null,
    );
    if (facts.credentials) {
      expect(res.status).toBe(200);
      expect(res.body.command).toBe("login");
    } else {
      expect(res.status).toBe(400);
      expect(res.body.details.request_fields).toEqual([{ name: "attributes", description: "This is a required field." }]);
    }
  });

  test(`the token type ${facts.type ? "is answered as type (0.8+)" : "is not answered (before 0.8)"}`, async () => {
    const res = await c.call("POST", `/v1/auth-methods/${AM}:authenticate`, { ...login("admin", "password"), token_type: "token" }, null);
    expect(res.status).toBe(200);
    if (facts.type) expect(res.body.type).toBe("token");
    else expect(res.body).not.toHaveProperty("type");
  });

  test(`an LDAP auth method ${facts.methods.includes("amldap") ? "logs in (0.13+)" : "is an unknown type (before 0.13)"}`, async () => {
    const res = await c.call("POST", `/v1/auth-methods/${LDAP}:authenticate`, login("ci", "ldap-secret"), null);
    if (facts.methods.includes("amldap")) {
      expect(res.status).toBe(200);
      expect(res.body.attributes.account_id).toMatch(/^acctldap_/);
    } else {
      expect(res.status).toBe(400);
      expect(res.body.details.request_fields).toEqual([{ name: "auth_method_id", description: "Unknown auth method type." }]);
    }
  });

  test("a scope's authorized_collection_actions say what the caller may do with its Targets", async () => {
    const admin = await c.call("GET", `/v1/scopes/${PROJECT}`);
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({
      id: PROJECT,
      type: "project",
      scope_id: "o_1234567890",
      authorized_collection_actions: { targets: ["create", "list"] },
    });
    const user = (await c.call("POST", `/v1/auth-methods/${AM}:authenticate`, login("user", "password"), null)).body.attributes.token;
    expect((await c.call("GET", `/v1/scopes/${PROJECT}`, undefined, user)).body.authorized_collection_actions).toEqual({ targets: ["list"] });
    expect((await c.call("GET", "/v1/scopes/p_0000000000")).status).toBe(404);
    expect((await c.call("GET", `/v1/scopes/${PROJECT}`, undefined, null)).status).toBe(401);
  });
});

describe("a token's life (authTokenTtlMs)", () => {
  test("an issued token is refused once it has expired, like an unknown one", async () => {
    const c = await startTestController({ authTokenTtlMs: 300 });
    try {
      const token = (await c.call("POST", `/v1/auth-methods/${AM}:authenticate`, login("admin", "password"), null)).body.attributes.token;
      expect((await c.call("GET", `/v1/scopes/${PROJECT}`, undefined, token)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 400));
      const late = await c.call("GET", `/v1/scopes/${PROJECT}`, undefined, token);
      expect(late.status).toBe(401);
      expect(late.body).toEqual({ kind: "Unauthenticated", message: "Unauthenticated, or invalid token." });
    } finally {
      await c.shutdown();
    }
  });
});

/**
 * Boundary's CLI cannot be run here, so this sends exactly what its Go source sends (v0.21.3):
 * `boundary authenticate password -auth-method-id ampw_1234567890 -login-name admin -password env://PW
 * -keyring-type none -format json` makes its client with no token (base.WithNoTokenValue) and calls
 * authmethods.Authenticate(ctx, id, "login", {"login_name", "password"}): a POST of the Go-encoded map
 * (keys sorted) to `auth-methods/<id>:authenticate`; it reads `attributes` as an auth token and prints
 * it. `boundary targets list -recursive -scope-id global` then sends the token as a bearer.
 */
describe("Boundary's own CLI, as its source sends (authenticate password, then targets list)", () => {
  test.each(["0.21", "0.4"] as const)("--emulate %s", async (mode) => {
    const c = await startTestController({ emulation: mode });
    try {
      const res = await fetch(`${c.apiUrl}/v1/auth-methods/ampw_1234567890:authenticate`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "Go-http-client/1.1" },
        body: '{"attributes":{"login_name":"admin","password":"password"},"command":"login"}',
      });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { attributes: { token: string; id: string; user_id: string; auth_method_id: string } };
      // what `-format json` prints: the AuthToken decoded from attributes (id, token, user_id, auth_method_id …)
      expect(answer.attributes).toMatchObject({ auth_method_id: "ampw_1234567890", id: expect.stringMatching(/^at_/), user_id: expect.stringMatching(/^u_/) });
      const list = await fetch(`${c.apiUrl}/v1/targets?recursive=true&scope_id=global`, { headers: { authorization: `Bearer ${answer.attributes.token}` } });
      expect(list.status).toBe(200);
    } finally {
      await c.shutdown();
    }
  });
});

describe("the configuration file's controller block", () => {
  test("auth_token_time_to_live sets the life of the tokens a login issues, as in Boundary's", () => {
    const read = () => 'controller {\n  auth_token_time_to_live = "90s"\n}\n';
    expect(loadDevConfig(["--config", "controller.hcl"], read).authTokenTtlMs).toBe(90_000);
    const bad = () => 'controller {\n  auth_token_time_to_live = "soon"\n}\n';
    expect(() => loadDevConfig(["--config", "controller.hcl"], bad)).toThrow(/controller\.auth_token_time_to_live/);
  });
});
