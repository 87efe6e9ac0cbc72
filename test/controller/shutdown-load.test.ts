/**
 * Graceful shutdown under load: 16 keep-alive clients keep sending through the grace period and
 * across the listener's close. A request the server received is answered; once the listener is
 * closed, new connections are refused (the client knows nothing was sent). What must not happen is
 * a reset of a request already on the wire.
 */
import * as undici from "undici";
import { ADMIN_TOKEN, startTestController } from "../helpers/controller";

interface Outcome {
  answered: number;
  /** Requests that failed after being sent: resets, sockets closed under them. */
  failed: string[];
}

/** Runs 16 clients against a controller with `waitMs` grace, signals shutdown after 200 ms of load. */
async function underLoad(waitMs: number): Promise<Outcome> {
  const c = await startTestController({ gracefulShutdownWaitMs: waitMs });
  const target = await c.create({ name: "busy" });
  const pool = new undici.Pool(c.apiUrl, { connections: 16, pipelining: 1 });
  const outcome: Outcome = { answered: 0, failed: [] };
  let refused = false;
  const client = async () => {
    while (!refused) {
      try {
        const res = await pool.request({ method: "GET", path: `/v1/targets/${target.id}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        await res.body.dump();
        if (res.statusCode === 200) outcome.answered++;
        else outcome.failed.push(`status ${res.statusCode}`);
      } catch (err) {
        const code = (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
        if (code === "ECONNREFUSED")
          refused = true; // the listener is closed: nothing was sent
        else outcome.failed.push(String(code ?? err));
      }
    }
  };
  const clients = Array.from({ length: 16 }, client);
  await new Promise((r) => setTimeout(r, 200));
  const stopped = c.shutdown();
  await Promise.all(clients);
  await stopped;
  await pool.close();
  return outcome;
}

test("5. with a grace period: every request sent is answered, none reset, across the wait and the close", async () => {
  const { answered, failed } = await underLoad(1000);
  expect(failed).toEqual([]);
  expect(answered).toBeGreaterThan(100);
});

test("5. without a grace period: answers carry Connection: close for a short window first, so nothing is reset", async () => {
  const { answered, failed } = await underLoad(0);
  expect(answered).toBeGreaterThan(50);
  // fixed timers (settle 100 ms, idle 100 ms after the close) reset up to about 15 requests in 3 of 7
  // runs on a loaded machine; waits measured against the connections themselves reset none
  expect(failed).toEqual([]);
});
