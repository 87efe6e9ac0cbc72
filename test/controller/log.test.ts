/** The request log never holds more than a bounded amount in memory when its output is not read. */
import { PassThrough } from "node:stream";
import { bufferedWriter, createLogger } from "../../controller/log";

test("9. with nobody reading, lines beyond the limit are dropped and counted; the count is written once output flows again", async () => {
  const out = new PassThrough({ highWaterMark: 1024 });
  const write = bufferedWriter(out, 64 * 1024);
  const log = createLogger("text", write);
  for (let i = 0; i < 100_000; i++) log.info("request", { method: "GET", path: "/v1/targets", status: 200, ms: 0.1 });
  // what is held stays near the limit (one line over at most), not 100,000 lines (~8 MB)
  expect(out.writableLength).toBeLessThan(64 * 1024 + 200);
  const held = out.writableLength;
  // the reader comes back: everything held is delivered, then the next line reports the drop
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  await new Promise((r) => setImmediate(r));
  log.info("request", { method: "GET", path: "/health", status: 200, ms: 0.1 });
  await new Promise((r) => setImmediate(r));
  const text = Buffer.concat(chunks).toString();
  const dropped = /(\d+) log lines dropped: the log output was not being read\n/.exec(text);
  expect(dropped).not.toBeNull();
  expect(Number(dropped![1]) + text.split("\n").filter((l) => l.includes("[INFO] request")).length - 1).toBe(100_000);
  expect(held).toBeGreaterThan(0);
});
