/**
 * A controller holding many Targets, in a process of its own (the built harness/loaded-controller.js),
 * with a loop monitor inside that process: the test asks it for the longest time the controller's
 * thread held its event loop. Measured in that process, the figure is the controller's alone:
 * neither the test runner's heap nor the test's own work counts.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { createInterface } from "node:readline";
import type { Emulation } from "../../controller";
import { ADMIN_TOKEN } from "./controller";

const SUBJECT = path.join(__dirname, "..", "..", "dist", "harness", "loaded-controller.js");

/** The controller process: its two URLs, the loop monitor's reset and reading, and stop. */
export interface LoadedController {
  apiUrl: string;
  opsUrl: string;
  /** Starts measuring afresh. */
  reset(): Promise<void>;
  /** The longest stretch of CPU between two turns of the controller's loop since the last reset, in ms. */
  longestBlockMs(): Promise<number>;
  stop(): Promise<void>;
}

/** Starts the controller process and resolves once it holds `targets` Targets and listens. */
export async function startLoadedController(emulation: Emulation, targets: number): Promise<LoadedController> {
  const child = spawn(process.execPath, ["--expose-gc", SUBJECT, emulation, String(targets), ADMIN_TOKEN], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error("the controller process exited");
    return JSON.parse(line.value);
  };
  const exited = new Promise((r) => child.once("exit", r));
  const { apiUrl, opsUrl } = await next();
  const ask = async (command: string) => {
    child.stdin!.write(command + "\n");
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
