/** authorize-session by id and by name, hosts, workers, credentials and the token, in every mode (the token's content: session-token.test.ts). */
import { defaultFixtures, type Emulation } from "../../controller";
import { until } from "../helpers/wait";
import { base58Decode } from "../../controller/base58";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";

/** v0.4.0's handler: workers are checked before hosts, and none left is its own 400. */
const V04_SESSIONS = {
  noHosts: "No hosts found from available target host sets.",
  workersFirst: true,
  filtered: { status: 400, body: { kind: "FailedPrecondition", message: "No workers are available to handle this session, or all have been filtered." } },
  noWorkers: { status: 400, body: { kind: "FailedPrecondition", message: "No workers are available to handle this session, or all have been filtered." } },
};

/**
 * How each mode answers where they differ: a credential's origin was renamed in 0.9, the worker
 * filter in 0.12; from 0.19 the server repository picks workers after the host, and its error is
 * a 500 (internal/server/repository_worker.go, handlers/errors.go).
 */
const MODES = {
  spec: { origin: "credential_library", filter: "worker_filter", ...V04_SESSIONS },
  "0.4": { origin: "credential_library", filter: "worker_filter", ...V04_SESSIONS },
  "0.21": {
    origin: "credential_source",
    filter: "egress_worker_filter",
    noHosts: "No host sources or address found for given target.",
    workersFirst: false,
    filtered: {
      status: 500,
      body: {
        kind: "Internal",
        message:
          "server.(Repository).SelectSessionWorkers: server.filterWorkers: No workers are available to handle this session, or all have been filtered.: state violation: error #133",
      },
    },
    noWorkers: {
      status: 500,
      body: { kind: "Internal", message: "server.(Repository).SelectSessionWorkers: No workers are available to handle this session.: state violation: error #133" },
    },
  },
} as const satisfies Record<Emulation, unknown>;

describe.each(Object.keys(MODES) as Emulation[])("--emulate %s", (mode) => {
  const m = MODES[mode];
  let c: TestController;
  beforeAll(async () => {
    c = await startTestController({ emulation: mode, rateLimits: "disabled" });
  });
  afterAll(() => c.shutdown());

  const authorize = (path: string, body: unknown = {}) => c.call("POST", `/v1/targets/${path}:authorize-session`, body);

  test("by id: endpoint with default_port, credentials raw+decoded, and a remembered session", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"], application_credential_library_ids: ["clvlt_1234567890"], attributes: { default_port: 5432 }, session_max_seconds: 60, session_connection_limit: 3 });
    const res = await authorize(t.id);
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({
      target_id: t.id,
      scope: { id: PROJECT, type: "project" },
      user_id: "u_1234567890",
      host_set_id: "hsst_1234567890",
      host_id: "hst_1234567890",
      type: "tcp",
      endpoint: "tcp://127.0.0.1:5432",
    });
    expect(s.session_id).toMatch(/^s_[0-9A-Za-z]{10}$/);
    expect(s.credentials).toEqual([
      {
        [m.origin]: { id: "clvlt_1234567890", name: "dev database", description: "Generated credential library", credential_store_id: "csvlt_1234567890", type: "vault" },
        secret: { raw: Buffer.from(JSON.stringify({ username: "dev", password: "dev-password" })).toString("base64"), decoded: { username: "dev", password: "dev-password" } },
      },
    ]);
    const session = c.sessions.sessions.get(s.session_id)!;
    expect(session.connectionLimit).toBe(3);
    expect(session.expiresAt.getTime() - Date.parse(s.created_time)).toBe(60_000);
  });

  test("expired sessions are forgotten", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"], session_max_seconds: 1 });
    const first = (await authorize(t.id)).body.session_id;
    const expires = c.sessions.sessions.get(first)!.expiresAt.getTime();
    await until(() => Date.now() > expires, "the first session to expire");
    const second = (await authorize(t.id)).body.session_id;
    expect(c.sessions.sessions.has(first)).toBe(false);
    expect(c.sessions.sessions.has(second)).toBe(true);
  });

  test("the authorization token is base58 and carries no brokered credential", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"], application_credential_library_ids: ["clvlt_1234567890"], attributes: { default_port: 2222 } });
    const { authorization_token: token, session_id } = (await authorize(t.id)).body;
    expect(token).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
    const raw = base58Decode(token).toString("latin1");
    expect(raw).toContain(session_id);
    expect(raw).not.toContain("dev-password");
  });

  test("by name with scope_id or scope_name, case-insensitively", async () => {
    const t = await c.create({ name: "Named-Target", host_set_ids: ["hsst_1234567890"] });
    expect((await authorize("named-target", { scope_id: PROJECT })).body.target_id).toBe(t.id);
    expect((await authorize("NAMED-TARGET", { scope_name: "generated PROJECT scope", name: "named-target" })).body.target_id).toBe(t.id);
  });

  test.each([
    ["neither scope", {}, ["scope_id", "scope_name"]],
    ["both scopes", { scope_id: PROJECT, scope_name: "Generated project scope" }, ["scope_id", "scope_name"]],
    ["a body name differing from the path", { scope_id: PROJECT, name: "other" }, ["name"]],
  ])("by name with %s is 400", async (_what, body, fields) => {
    const res = await authorize("named-target", body);
    expect(res.status).toBe(400);
    expect(res.body.details.request_fields.map((f: any) => f.name)).toEqual(fields);
  });

  test("by id, a scope in the body is 400; an unknown name is 404", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"] });
    expect((await authorize(t.id, { scope_id: PROJECT })).status).toBe(400);
    expect((await authorize("no-such-target", { scope_id: PROJECT })).status).toBe(404);
  });

  test("host_id selects a host of the target's host sets; others are 400; no hosts is 404", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567891"], attributes: { default_port: 2222 } });
    const res = await authorize(t.id, { host_id: "hst_1234567892" });
    expect(res.body).toMatchObject({ host_id: "hst_1234567892", host_set_id: "hsst_1234567891", endpoint: "tcp://127.0.0.3:2222" });
    const notInSets = await authorize(t.id, { host_id: "hst_1234567890" });
    expect(notInSets.status).toBe(400);
    expect(notInSets.body.details.request_fields).toEqual([{ name: "host_id", description: "The requested host id is not available." }]);
    expect((await authorize(t.id, { host_id: "h_1" })).status).toBe(400);
    const bare = await c.create();
    const none = await authorize(bare.id);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ kind: "NotFound", message: m.noHosts });
  });

  test("the worker filter must leave a worker: otherwise the release's answer", async () => {
    const ok = await c.create({ host_set_ids: ["hsst_1234567890"], [m.filter]: '"dev" in "/tags/type"' });
    expect((await authorize(ok.id)).status).toBe(200);
    const none = await c.create({ host_set_ids: ["hsst_1234567890"], [m.filter]: '"/name" == "prod-worker"' });
    const res = await authorize(none.id);
    expect({ status: res.status, body: res.body }).toEqual(m.filtered);
  });

  test("with neither a host nor a worker, the release's first check answers", async () => {
    const t = await c.create({ [m.filter]: '"/name" == "prod-worker"' });
    const res = await authorize(t.id);
    expect({ status: res.status, body: res.body }).toEqual(m.workersFirst ? m.filtered : { status: 404, body: { kind: "NotFound", message: m.noHosts } });
  });

  test("fixtures may have no workers at all", async () => {
    const f = defaultFixtures();
    f.workers = [];
    const bare = await startTestController({ fixtures: f, emulation: mode });
    try {
      const t = await bare.create({ host_set_ids: ["hsst_1234567890"] });
      const res = await bare.call("POST", `/v1/targets/${t.id}:authorize-session`, {});
      expect({ status: res.status, body: res.body }).toEqual(m.noWorkers);
    } finally {
      await bare.shutdown();
    }
  });
});
