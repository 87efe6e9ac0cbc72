/**
 * Node's compile cache for the processes a test run starts. A plugin started by run-plugin from the
 * packed program spends much of its start compiling what it loads (Pulumi's SDK, TypeScript, gRPC,
 * this package): 1.39 CPU-s to its port, 0.95 with the cache warm (`node dist/bench/plugin-start.js`,
 * medians of six; the dynamic-provider host showed no gain, so it is not warmed). The suite starts dozens of
 * plugins. Node's V8 code cache changes nothing a process does, only how fast it compiles; a
 * missing or damaged entry is compiled as before.
 *
 * Node writes the cache when a process exits normally, which a provider process never does (it is
 * killed), so `warm` starts a plugin once, preloaded with flush-at-port.ts, before the tests' own.
 *
 * Jest's own workers stay out of it: Node reads NODE_COMPILE_CACHE only as a process starts, and a
 * worker that had it spent about a second writing its cache (TypeScript, jest, ts-jest: nothing any
 * other process loads) as it exited, where jest gives a worker 500 ms. The folder is named in
 * RUN_CACHE instead; the processes that compile into it get NODE_COMPILE_CACHE from `withCompileCache`,
 * and test/environment.js sets it in each worker once the worker runs, for what the tests start.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** How long one warm-up process may take (it is killed then; the tests start cold, nothing fails). */
const WARM_DEADLINE_MS = 60_000;

/** Names the run's cache folder to the processes started from here on (jest's workers), which do not compile into it themselves. */
export const RUN_CACHE = "PB_COMPILE_CACHE";

/**
 * Makes a folder of this run's for the cache, named in RUN_CACHE for every process started from
 * here on, which `remove` deletes. Nothing when NODE_COMPILE_CACHE is set already (the user's own
 * choice, or empty to turn it off: every process then inherits that as it is).
 */
export function useCompileCache(): { dir: string | undefined; remove(): void } {
  if (process.env.NODE_COMPILE_CACHE !== undefined) return { dir: undefined, remove: () => undefined };
  const dir = mkdtempSync(path.join(tmpdir(), "pb-compile-cache-"));
  process.env[RUN_CACHE] = dir;
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `env` for a process that compiles into the run's cache: NODE_COMPILE_CACHE set to RUN_CACHE's folder, unless set already. */
export function withCompileCache(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const dir = env[RUN_CACHE];
  return dir === undefined || env.NODE_COMPILE_CACHE !== undefined ? env : { ...env, NODE_COMPILE_CACHE: dir };
}

/**
 * Starts the packed `program`'s plugin once (as the Node language host does) with the cache on,
 * exiting once it has printed its port; resolves when it has ended, to how it ended. Never rejects:
 * a warm-up that fails leaves the cache colder, not the run red.
 */
export function warm(program: string, preload: string): Promise<Ended> {
  const runPlugin = require.resolve("@pulumi/pulumi/cmd/run-plugin", { paths: [program] });
  const pluginDir = path.join(program, "node_modules", "pulumi-boundary");
  return new Promise<Ended>((resolve) => {
    const child = spawn(process.execPath, ["--require", preload, runPlugin, pluginDir, "127.0.0.1:1"], {
      cwd: program,
      stdio: "ignore",
      timeout: WARM_DEADLINE_MS,
      env: { ...withCompileCache(), PULUMI_NODEJS_PROJECT: "compile-cache" },
    });
    child.on("error", (err) => resolve({ code: null, signal: null, error: err.message }));
    child.on("close", (code, signal) => resolve({ code, signal }));
  });
}

/** How a warm-up process ended: its exit code, or the signal that killed it (its deadline's), or why it did not start. */
export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: string;
}
