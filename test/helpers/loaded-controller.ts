/**
 * A controller holding many Targets, in a process of its own (the built package, as the CLI runs
 * it), with a loop monitor inside that process (controller/loop-monitor.ts): the test asks it for
 * the longest time the controller's thread held its event loop. Measured in that process, the
 * figure is the controller's alone: neither the test runner's heap nor the test's own work counts.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { createInterface } from "node:readline";
import type { Emulation } from "../../controller";
import { ADMIN_TOKEN } from "./controller";

const DIST = path.join(__dirname, "..", "..", "dist", "controller");

export interface LoadedController {
  apiUrl: string;
  opsUrl: string;
  /** Starts measuring afresh. */
  reset(): Promise<void>;
  /** The longest stretch of CPU between two turns of the controller's loop since the last reset, in ms. */
  longestBlockMs(): Promise<number>;
  stop(): Promise<void>;
}

/** The child: starts a controller, seeds `targets` Targets over two projects, collects the seeding's garbage, then answers commands on stdin. */
const SCRIPT = `
const { startController, defaultFixtures } = require(${JSON.stringify(DIST)});
const { monitorLoop } = require(${JSON.stringify(path.join(DIST, "loop-monitor"))});
const [emulation, targets] = [process.argv[1], Number(process.argv[2])];
(async () => {
  const c = await startController({ api: { host: "127.0.0.1", port: 0 }, ops: { host: "127.0.0.1", port: 0 }, token: ${JSON.stringify(ADMIN_TOKEN)}, gracefulShutdownWaitMs: 0, fixtures: defaultFixtures(), emulation, rateLimits: "disabled" });
  for (let i = 0; i < targets; i++) c.store.createTarget({ scope_id: i % 2 ? "p_1234567890" : "p_0987654321", name: "t-" + i, type: "tcp", description: "d", attributes: { default_port: 22 } });
  global.gc();
  const loop = monitorLoop();
  process.stdin.setEncoding("utf8");
  require("node:readline").createInterface({ input: process.stdin }).on("line", (cmd) => {
    if (cmd === "reset") loop.reset();
    process.stdout.write(JSON.stringify({ longestBlockMs: loop.longestBlockMs() }) + "\\n");
  });
  process.stdout.write(JSON.stringify({ apiUrl: c.apiUrl, opsUrl: c.opsUrl }) + "\\n");
})();
`;

/** Starts the controller process and resolves once it holds `targets` Targets and listens. */
export async function startLoadedController(emulation: Emulation, targets: number): Promise<LoadedController> {
  const child = spawn(process.execPath, ["--expose-gc", "-e", SCRIPT, emulation, String(targets)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error("the controller process exited");
    return JSON.parse(line.value);
  };
  const exited = new Promise((r) => child.once("exit", r));
  const { apiUrl, opsUrl } = await next();
  const ask = async (cmd: string) => {
    child.stdin!.write(cmd + "\n");
    return (await next()).longestBlockMs as number;
  };
  return {
    apiUrl,
    opsUrl,
    reset: async () => void (await ask("reset")),
    longestBlockMs: () => ask("report"),
    stop: async () => {
      child.kill();
      await exited;
    },
  };
}
