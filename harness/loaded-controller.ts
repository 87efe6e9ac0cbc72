/**
 * A controller holding many Targets, as a process of its own, with a loop monitor inside it
 * (harness/loop-monitor.ts): for the tests and the benchmark of what a big list does to the
 * rest of the controller. `node --expose-gc loaded-controller.js <emulation> <targets> <token> [limited]`
 * seeds the Targets over two projects (with `limited`, the emulated release's rate limiter stays on,
 * for a benchmark that paces against it; else it is off), collects the seeding's garbage, prints one JSON line with
 * the URLs, then answers each line on stdin ("reset" starts measuring afresh, anything else
 * reports) with `{"longestBlockMs": …}`.
 */
import { createInterface } from "node:readline";
import { defaultFixtures, startController, type Emulation } from "../controller";
import { monitorLoop } from "./loop-monitor";

async function main(): Promise<void> {
  const [emulation, targets, token, limited] = process.argv.slice(2) as [Emulation, string, string, string | undefined];
  const c = await startController({
    api: { host: "127.0.0.1", port: 0 },
    ops: { host: "127.0.0.1", port: 0 },
    token,
    gracefulShutdownWaitMs: 0,
    fixtures: defaultFixtures(),
    emulation,
    ...(limited === "limited" ? {} : { rateLimits: "disabled" as const }),
  });
  for (let i = 0; i < Number(targets); i++) {
    const scope_id = i % 2 ? "p_1234567890" : "p_0987654321";
    c.store.createTarget({ scope_id, name: `t-${i}`, type: "tcp", description: "d", attributes: { default_port: 22 } });
  }
  (globalThis as { gc?: () => void }).gc?.();
  const loop = monitorLoop();
  createInterface({ input: process.stdin }).on("line", (command) => {
    if (command === "reset") loop.reset();
    process.stdout.write(JSON.stringify({ longestBlockMs: loop.longestBlockMs() }) + "\n");
  });
  // an exit of its own on SIGTERM (how its starters stop it), so `--cpu-prof` writes its profile
  process.once("SIGTERM", () => process.exit(0));
  process.stdout.write(JSON.stringify({ apiUrl: c.apiUrl, opsUrl: c.opsUrl }) + "\n");
}

void main();
