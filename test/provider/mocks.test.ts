/**
 * A Pulumi program under the SDK's mocks, whose mocks run the real serialized provider (loaded from
 * `__provider` as the host loads it) against the real controller: create, change hosts, remove,
 * destroy. This is also the demo's offline mode.
 */
import * as path from "node:path";
import * as boundary from "pulumi-boundary";
import { OfflineEngine } from "../../examples/offline/engine";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";

let c: TestController;
let engine: OfflineEngine;
beforeAll(async () => {
  c = await startTestController();
  engine = new OfflineEngine({
    programDir: path.join(__dirname, "..", "..", "examples", "basic"),
    project: "mocks-test",
    stack: "dev",
    config: { "boundary:addr": c.apiUrl, "boundary:token": ADMIN_TOKEN },
  });
});
afterAll(() => c.shutdown());

const program =
  (webHostSets: string[], withDb = true) =>
  () => {
    const web = new boundary.Target("web", { scopeId: PROJECT, name: "web", hostSetIds: webHostSets, defaultPort: 22 });
    const out: Record<string, unknown> = { webId: web.id, webVersion: web.version, webHostSets: web.hostSetIds };
    if (withDb) {
      const db = new boundary.Target("db", { scopeId: PROJECT, name: "db", applicationCredentialLibraryIds: ["clvlt_1234567890"] });
      out.dbId = db.id;
    }
    return out;
  };
/** Values made by the natively loaded provider come from another realm than jest's: compare as JSON. */
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));
/** Steps sorted by name: the engine registers resources concurrently. */
const sorted = (steps: { name: string; op: string }[]) => [...steps].sort((a, b) => a.name.localeCompare(b.name));
const targets = () => c.store.listTargets(PROJECT, false).map((t) => ({ name: t.name, hosts: [...t.host_set_ids], version: t.version }));

test("create, then change hosts, then remove one, then destroy", async () => {
  const first = await engine.up(program(["hsst_1234567890"]));
  expect(sorted(first.steps)).toEqual([
    { name: "db", op: "create" },
    { name: "web", op: "create" },
  ]);
  expect(plain(first.outputs)).toMatchObject({ webVersion: 1, webHostSets: ["hsst_1234567890"] });
  expect(first.outputs.webId).toMatch(/^ttcp_/);
  expect(targets().sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    { name: "db", hosts: [], version: 1 },
    { name: "web", hosts: ["hsst_1234567890"], version: 1 },
  ]);

  const { result: same, calls: sameCalls } = await countCalls(c.opsUrl, () => engine.up(program(["hsst_1234567890"])));
  expect(same.steps.map((s) => s.op)).toEqual(["same", "same"]);
  expect(sameCalls).toEqual({});

  const { result: changed, calls: changeCalls } = await countCalls(c.opsUrl, () => engine.up(program(["hsst_1234567891", "hsst_1234567890"])));
  expect(sorted(changed.steps)).toMatchObject([
    { name: "db", op: "same" },
    { name: "web", op: "update" },
  ]);
  expect(changeCalls).toEqual({ "POST /v1/targets/{id}:set-host-sets": 1 });
  expect(plain(changed.outputs)).toMatchObject({ webId: first.outputs.webId, webVersion: 2, webHostSets: ["hsst_1234567890", "hsst_1234567891"] });

  const removed = await engine.up(program(["hsst_1234567891", "hsst_1234567890"], false));
  expect(sorted(removed.steps)).toEqual([
    { name: "db", op: "delete" },
    { name: "web", op: "same" },
  ]);
  expect(targets().map((t) => t.name)).toEqual(["web"]);

  expect(await engine.destroy()).toEqual([{ name: "web", op: "delete" }]);
  expect(c.store.size).toBe(0);
});

test("state never holds the token", async () => {
  await engine.up(program(["hsst_1234567890"]));
  for (const r of engine.state.values()) {
    expect(JSON.stringify(r)).not.toContain(ADMIN_TOKEN);
    expect(Buffer.byteLength(r.providerText)).toBeLessThanOrEqual(4096);
  }
  await engine.destroy();
});

test("functions: authorizeSession marks the token and credentials secret; getTargets looks targets up", async () => {
  process.env.BOUNDARY_ADDR = c.apiUrl;
  process.env.BOUNDARY_TOKEN = ADMIN_TOKEN;
  try {
    const { outputs } = await engine.up(() => {
      const db = new boundary.Target("db", {
        scopeId: PROJECT,
        name: "db",
        hostSetIds: ["hsst_1234567890"],
        applicationCredentialLibraryIds: ["clvlt_1234567890"],
        defaultPort: 5432,
      });
      const session = boundary.authorizeSession({ targetId: db.id });
      const found = boundary.getTargets({ scopeId: PROJECT, filter: '"/item/name" == "db"' });
      return {
        endpoint: session.endpoint,
        hostId: session.hostId,
        token: session.authorizationToken,
        credentials: session.credentials,
        found: found.apply((ts) => ts.map((t) => ({ id: t.id, name: t.name, defaultPort: t.defaultPort }))),
        dbId: db.id,
      };
    });
    expect(plain(outputs)).toMatchObject({ endpoint: "tcp://127.0.0.1:5432", hostId: "hst_1234567890", token: "[secret]", credentials: "[secret]" });
    expect(plain(outputs.found)).toEqual([{ id: outputs.dbId, name: "db", defaultPort: 5432 }]);
    expect(c.sessions.sessions.size).toBe(1);
  } finally {
    delete process.env.BOUNDARY_ADDR;
    delete process.env.BOUNDARY_TOKEN;
    await engine.destroy();
  }
});

test("functions log in once per process: several getTargets and authorizeSession evaluations share one login and its token", async () => {
  const login = new OfflineEngine({
    programDir: path.join(__dirname, "..", "..", "examples", "basic"),
    project: "mocks-test",
    stack: "login",
    config: { "boundary:addr": c.apiUrl },
  });
  // functions read their settings from the environment here, as in the test above
  const env = {
    BOUNDARY_ADDR: c.apiUrl,
    BOUNDARY_AUTH_METHOD_ID: "ampw_1234567890",
    BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME: "admin",
    BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD: "password",
  };
  Object.assign(process.env, env);
  const db = await c.create({ name: "login-db", host_set_ids: ["hsst_1234567890"], attributes: { default_port: 5432 } });
  const program = () => {
    const lookups = [1, 2, 3].map(() => boundary.getTargets({ scopeId: PROJECT, filter: '"/item/name" == "login-db"' }));
    const session = boundary.authorizeSession({ targetId: db.id });
    return { found: lookups.map((l) => l.apply((ts) => ts.length)), endpoint: session.endpoint };
  };
  try {
    const first = await countCalls(c.opsUrl, () => login.up(program));
    expect(plain(first.result.outputs)).toMatchObject({ found: [1, 1, 1], endpoint: "tcp://127.0.0.1:5432" });
    // a second run in the same process logs in no more
    const second = await countCalls(c.opsUrl, () => login.up(program));
    expect(first.calls["POST /v1/auth-methods/{id}:authenticate"]).toBe(1);
    expect(second.calls["POST /v1/auth-methods/{id}:authenticate"]).toBeUndefined();
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
    await login.destroy();
  }
});
