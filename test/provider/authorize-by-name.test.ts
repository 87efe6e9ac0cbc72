/**
 * `authorizeSession` by name and scope for a Target whose name holds `/`, against `--emulate 0.21`:
 * the client sends the name in the body and percent-encodes it in the path; Boundary's gateway
 * decodes `%2F` before routing and authorize-session's `{id=**}` (0.13+) takes the rest of the path,
 * so the name reaches the handler whole.
 */
import * as path from "node:path";
import * as boundary from "pulumi-boundary";
import { OfflineEngine } from "../../examples/offline/engine";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";

let c: TestController;
let engine: OfflineEngine;
beforeAll(async () => {
  c = await startTestController({ emulation: "0.21", rateLimits: "disabled" });
  engine = new OfflineEngine({
    programDir: path.join(__dirname, "..", "..", "examples", "basic"),
    project: "authorize-by-name-test",
    stack: "dev",
    config: { "boundary:addr": c.apiUrl, "boundary:token": ADMIN_TOKEN },
  });
});
afterAll(() => c.shutdown());

test("a Target named foo/bar is authorized by name and scope id", async () => {
  const t = await c.create({ name: "foo/bar", address: "10.9.8.7", attributes: { default_port: 2222 } });
  process.env.BOUNDARY_ADDR = c.apiUrl;
  process.env.BOUNDARY_TOKEN = ADMIN_TOKEN;
  try {
    const { outputs } = await engine.up(() => {
      const s = boundary.authorizeSession({ name: "foo/bar", scopeId: PROJECT });
      return { targetId: s.targetId, endpoint: s.endpoint };
    });
    expect(JSON.parse(JSON.stringify(outputs))).toEqual({ targetId: t.id, endpoint: "tcp://10.9.8.7:2222" });
  } finally {
    delete process.env.BOUNDARY_ADDR;
    delete process.env.BOUNDARY_TOKEN;
    await engine.destroy();
  }
});
