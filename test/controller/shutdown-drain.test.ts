/**
 * Shutdown lets go of connections that are not sending API requests: a `/health` poller on the ops
 * listener, and a TCP connection to an HTTPS listener that never finishes its TLS handshake. Both
 * must end by the drain's deadline (5 s), not keep the controller running.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as undici from "undici";
import { startTestController } from "../helpers/controller";
import { selfSignedCert } from "../helpers/certs";
import { until } from "../helpers/wait";

/** How long shutdown may take here: no grace period, so only the drain's own waits. */
const PROMPT_MS = 2000;

test("a keep-alive /health poller does not hold shutdown: from the first signal its answers close the connection", async () => {
  const c = await startTestController();
  const pool = new undici.Pool(c.opsUrl, { connections: 1, pipelining: 1 });
  const statuses: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      try {
        const res = await pool.request({ method: "GET", path: "/health" });
        await res.body.dump();
        statuses.push(res.statusCode);
      } catch {
        polling = false; // the listener has closed: nothing more to ask
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  // the poller's connection is up and answered before the signal (a fixed wait was too short under load)
  await until(() => statuses.includes(200), "the poller's first 200", 10_000);
  const started = Date.now();
  await c.shutdown();
  const took = Date.now() - started;
  polling = false;
  await poller;
  await pool.close();
  expect(statuses).toContain(200);
  expect(statuses).toContain(503);
  // an ops connection kept alive by a poller faster than the idle wait used to wait out the 5 s deadline
  expect(took).toBeLessThan(PROMPT_MS);
});

test("a TCP connection to an HTTPS listener that never sends its ClientHello is cut at the deadline", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-drain-"));
  try {
    const cert = selfSignedCert(dir, "localhost");
    const tls = { certFile: cert.certFile, keyFile: cert.keyFile, cert: cert.cert, key: readFileSync(cert.keyFile, "utf8") };
    const c = await startTestController({ api: { host: "127.0.0.1", port: 0, tls } });
    const { port } = new URL(c.apiUrl);
    const silent = net.connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve, reject) => silent.once("connect", resolve).once("error", reject));
    const closed = new Promise<void>((resolve) => silent.once("close", () => resolve()));
    silent.on("error", () => undefined); // the cut may arrive as a reset
    const started = Date.now();
    await c.shutdown();
    // the deadline (5 s) and a margin, far below TLS's own handshake timeout (120 s)
    expect(Date.now() - started).toBeLessThan(8000);
    await closed;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 20_000);
