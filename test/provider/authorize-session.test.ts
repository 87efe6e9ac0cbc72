/**
 * `authorizeSession` against a current controller (`--emulate 0.21`): the fields Boundary 0.15 added
 * to the answer (`endpointPort`, `connectionLimit`, `expiration`) reach the program's outputs, and
 * the plugin's package schema declares every output; the token stays secret. A Target whose name
 * holds `/` is authorized by name and scope: the client sends the name in the body and
 * percent-encodes it in the path; Boundary's gateway decodes `%2F` before routing and
 * authorize-session's `{id=**}` (0.13+) takes the rest of the path, so the name reaches the handler whole.
 */
import * as path from "node:path";
import * as boundary from "pulumi-boundary";
import { OfflineEngine } from "../../examples/offline/engine";
import { SESSION_SECRET_FIELDS, SessionView, sessionView } from "../../provider/functions";
import { packageSchema } from "../../provider/plugin/schema";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";

let c: TestController;
let engine: OfflineEngine;
beforeAll(async () => {
  c = await startTestController({ emulation: "0.21", rateLimits: "disabled" });
  engine = new OfflineEngine({
    programDir: path.join(__dirname, "..", "..", "examples", "basic"),
    project: "authorize-session-test",
    stack: "dev",
    config: { "boundary:addr": c.apiUrl, "boundary:token": ADMIN_TOKEN },
  });
});
afterAll(() => c.shutdown());

/** Values made by the natively loaded provider come from another realm than jest's: compare as JSON. */
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

test("the session's port, connection limit and expiration are outputs; the token is secret", async () => {
  const t = await c.create({ host_set_ids: ["hsst_1234567890"], attributes: { default_port: 5432 }, session_max_seconds: 120, session_connection_limit: -1 });
  process.env.BOUNDARY_ADDR = c.apiUrl;
  process.env.BOUNDARY_TOKEN = ADMIN_TOKEN;
  try {
    const { outputs } = await engine.up(() => {
      const s = boundary.authorizeSession({ targetId: t.id });
      return {
        endpoint: s.endpoint,
        endpointPort: s.endpointPort,
        connectionLimit: s.connectionLimit,
        expiration: s.expiration,
        createdTime: s.createdTime,
        sessionRecordingId: s.sessionRecordingId,
        token: s.authorizationToken,
      };
    });
    const o = plain(outputs);
    expect(o).toMatchObject({ endpoint: "tcp://127.0.0.1:5432", endpointPort: 5432, connectionLimit: -1, token: "[secret]" });
    expect(Date.parse(o.expiration) - Date.parse(o.createdTime)).toBe(120_000);
    // an open-source controller records no session
    expect(o.sessionRecordingId).toBeUndefined();
  } finally {
    delete process.env.BOUNDARY_ADDR;
    delete process.env.BOUNDARY_TOKEN;
    await engine.destroy();
  }
});

test("the mapper reads session_recording_id where a release sets it", () => {
  const view = sessionView({ session_id: "s_1", target_id: "ttcp_1", authorization_token: "x", session_recording_id: "sr_1234567890" });
  expect(view.sessionRecordingId).toBe("sr_1234567890");
});

test("the plugin's schema declares every output of authorizeSession, the secret ones marked", () => {
  const fn = packageSchema("0.0.0").functions["boundary:index:authorizeSession"];
  expect(Object.keys(fn.outputs.properties).sort()).toEqual(Object.keys(SessionView.shape).sort());
  const secret = Object.entries(fn.outputs.properties)
    .filter(([, p]) => (p as { secret?: boolean }).secret)
    .map(([k]) => k);
  expect(secret.sort()).toEqual([...SESSION_SECRET_FIELDS].sort());
  expect(fn.outputs.properties).toMatchObject({ endpointPort: { type: "integer" }, connectionLimit: { type: "integer" }, expiration: { type: "string" } });
});

test("a Target named foo/bar is authorized by name and scope id", async () => {
  const t = await c.create({ name: "foo/bar", address: "10.9.8.7", attributes: { default_port: 2222 } });
  process.env.BOUNDARY_ADDR = c.apiUrl;
  process.env.BOUNDARY_TOKEN = ADMIN_TOKEN;
  try {
    const { outputs } = await engine.up(() => {
      const s = boundary.authorizeSession({ name: "foo/bar", scopeId: PROJECT });
      return { targetId: s.targetId, endpoint: s.endpoint };
    });
    expect(plain(outputs)).toEqual({ targetId: t.id, endpoint: "tcp://10.9.8.7:2222" });
  } finally {
    delete process.env.BOUNDARY_ADDR;
    delete process.env.BOUNDARY_TOKEN;
    await engine.destroy();
  }
});
