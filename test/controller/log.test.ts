/** The log: bounded in memory when its output is not read, written off the request path, at Boundary's levels. */
import { PassThrough } from "node:stream";
import { bufferedWriter, createLogger, requestLogger, type LogLevel, type Logger } from "../../controller/log";
import { startCli, type CliProcess } from "../helpers/cli";

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

test("lines are written off the request path: gathered, then written in one call when the event loop turns", async () => {
  const out = new PassThrough();
  const writes: string[] = [];
  out.on("data", (c: Buffer) => writes.push(c.toString()));
  const write = bufferedWriter(out);
  const log = createLogger("text", write);
  for (let i = 0; i < 100; i++) log.info("event", { i });
  expect(out.writableLength + writes.length).toBe(0); // nothing written yet
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  expect(writes).toHaveLength(1);
  expect(writes[0]!.split("\n")).toHaveLength(101);
});

test("levels as Boundary names them: info by default, debug adds the request lines, err keeps errors only", () => {
  const lines: string[] = [];
  const at = (level?: LogLevel) => createLogger("json", (l: string) => lines.push(l), level);
  const all = (logger: Logger) => {
    lines.length = 0;
    logger.debug?.("request");
    logger.info("started");
    logger.error("failed");
    return lines.map((l) => (JSON.parse(l) as { level: string }).level);
  };
  expect(all(at())).toEqual(["info", "error"]);
  expect(all(at("debug"))).toEqual(["debug", "info", "error"]);
  expect(all(at("err"))).toEqual(["error"]);
  expect(requestLogger(at()).quiet).toBe(true);
  expect(requestLogger(at("trace")).quiet).toBe(false);
});

describe("the CLI's request log (issue 25, item 9)", () => {
  const get = async (cli: CliProcess) => {
    const res = await fetch(`${cli.apiUrl}/v1/targets?scope_id=p_1234567890`, { headers: { authorization: "Bearer at_1234567890_s1LogTest" } });
    expect(res.status).toBe(200);
    await fetch(`${cli.opsUrl}/health`); // a turn later: the request line, if any, is out
    await new Promise((r) => setTimeout(r, 200));
  };
  test.each([
    [[], false],
    [["--log-level", "debug"], true],
    [["--log-level", "warn"], false],
  ])("%j: a line per request: %s", async (flags, logged) => {
    const cli = await startCli(["--token", "at_1234567890_s1LogTest", ...flags]);
    try {
      await get(cli);
      expect(/\[DEBUG\] request method=GET path=\/v1\/targets status=200/.test(cli.output())).toBe(logged);
    } finally {
      cli.child.kill("SIGKILL");
      await cli.exited;
    }
  });
});
