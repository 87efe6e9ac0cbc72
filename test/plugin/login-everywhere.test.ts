/**
 * `pulumi do` and the importer log in with the provider's settings (issue 32, item 1): the plugin's
 * Configure with the login keys as `pulumi do` sends them (every other key null), and
 * `pulumi-boundary import --scope` with Boundary's CLI's environment names.
 */
import { isWrappedSecret, secret } from "../../harness/engine";
import { packedProgram, startPlugin } from "../../harness/provider-host";
import { discoverScope } from "../../provider/estate/scope";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";
import { pulumiDo } from "../helpers/pulumi-do";
import { runCli } from "../helpers/cli";

const AUTHENTICATE = "POST /v1/auth-methods/{id}:authenticate";

let c: TestController;
beforeAll(async () => {
  c = await startTestController({ emulation: "0.21" });
  await c.create({ name: "one" });
  await c.create({ name: "two" });
});
afterAll(() => c.shutdown());

test("pulumi do … list logs in with boundary:authMethodId, …LoginName and …Password (a secret), once", async () => {
  const p = await startPlugin(packedProgram(), { env: { BOUNDARY_ADDR: "", BOUNDARY_TOKEN: "" } });
  try {
    const d = pulumiDo(p);
    await d.engine.configure(
      {
        addr: c.apiUrl,
        token: null,
        apiGeneration: null,
        authMethodId: "ampw_1234567890",
        authMethodLoginName: "admin",
        authMethodPassword: secret("password"),
      },
      { "boundary:config:addr": c.apiUrl, "boundary:config:token": "null", "boundary:config:apiGeneration": "null" },
    );
    const { result, calls } = await countCalls(c.opsUrl, () => d.list({ scopeId: PROJECT }));
    expect(result.results.length).toBe(2);
    expect(calls[AUTHENTICATE]).toBe(1);
    expect(p.output()).not.toContain('password"');
  } finally {
    await p.stop();
  }
}, 60_000);

test("the importer lists a scope after logging in with BOUNDARY_AUTH_METHOD_ID and the login's variables", async () => {
  const env = {
    BOUNDARY_ADDR: c.apiUrl,
    BOUNDARY_AUTH_METHOD_ID: "ampw_1234567890",
    BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME: "user",
    BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD: "password",
  };
  const { result, calls } = await countCalls(c.opsUrl, () => discoverScope({ scopeId: PROJECT, recursive: false, read: false }, {}, env));
  expect(result.targets.map((t) => t.nameParts.at(-1)).sort()).toEqual(["one", "two"]);
  expect(calls[AUTHENTICATE]).toBe(1);
});

test("pulumi-boundary import with a wrong password: one line naming the settings, exit 1", async () => {
  const res = await runCli(["import", "--scope", PROJECT], {
    BOUNDARY_ADDR: c.apiUrl,
    BOUNDARY_AUTH_METHOD_ID: "ampw_1234567890",
    BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME: "admin",
    BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD: "not-it",
  });
  expect(res.code).toBe(1);
  expect(res.stderr.trim().split("\n")).toEqual([
    expect.stringContaining("check BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME and BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD"),
  ]);
  expect(res.stderr).not.toContain("not-it");
});

test("the plugin's CheckConfig judges the login's keys and keeps the password a secret", async () => {
  const p = await startPlugin(packedProgram());
  try {
    const e = pulumiDo(p).engine;
    const sound = await e.checkConfig({ addr: c.apiUrl, authMethodId: "ampw_1234567890", authMethodLoginName: "admin", authMethodPassword: "password" });
    expect(sound.failures).toEqual([]);
    expect(isWrappedSecret(sound.inputs.authMethodPassword)).toBe(true);
    expect((await e.checkConfig({ authMethodId: "amoidc_1234567890" })).failures).toEqual(["authMethodId"]);
  } finally {
    await p.stop();
  }
}, 60_000);
