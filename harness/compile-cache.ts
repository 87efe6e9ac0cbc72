/**
 * Node's compile cache for the processes a test run starts. A provider process spends most of its
 * start compiling what it loads (Pulumi's SDK, its vendored TypeScript, gRPC, this package): a
 * plugin started by run-plugin took 1.9 CPU-s, 1.1 with the cache warm; the dynamic-provider host
 * 1.2 and 0.7. The suite starts well over a hundred of them. Node's V8 code cache changes nothing a
 * process does, only how fast it compiles; a missing or damaged entry is compiled as before.
 *
 * Node writes the cache when a process exits normally, which a provider process never does (it is
 * killed), so `warm` starts each kind once, preloaded with flush-at-port.ts, before the tests' own.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** How long one warm-up process may take (it is killed then; the tests start cold, nothing fails). */
const WARM_DEADLINE_MS = 60_000;

/**
 * Turns the cache on for every process started from here on (it is inherited through the
 * environment: jest's workers, the processes they start, theirs): a folder of this run's, which
 * `remove` deletes. Nothing when NODE_COMPILE_CACHE is set already (the user's own choice, or empty to turn it off).
 */
export function useCompileCache(): { dir: string | undefined; remove(): void } {
  if (process.env.NODE_COMPILE_CACHE !== undefined) return { dir: undefined, remove: () => undefined };
  const dir = mkdtempSync(path.join(tmpdir(), "pb-compile-cache-"));
  process.env.NODE_COMPILE_CACHE = dir;
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts the packed `program`'s plugin (as the Node language host does) and dynamic-provider host
 * once each with the cache on, each exiting once it has printed its port; resolves when both have
 * ended, to how each ended. Never rejects: a warm-up that fails leaves the cache colder, not the run red.
 */
export function warm(program: string, preload: string): Promise<Ended[]> {
  const sdk = (cmd: string) => require.resolve(`@pulumi/pulumi/cmd/${cmd}`, { paths: [program] });
  const pluginDir = path.join(program, "node_modules", "pulumi-boundary");
  const starts = [
    [sdk("run-plugin"), pluginDir, "127.0.0.1:1"],
    [sdk("dynamic-provider"), "127.0.0.1:1"],
  ];
  return Promise.all(
    starts.map(
      (args) =>
        new Promise<Ended>((resolve) => {
          const child = spawn(process.execPath, ["--require", preload, ...args], {
            cwd: program,
            stdio: "ignore",
            timeout: WARM_DEADLINE_MS,
            env: { ...process.env, PULUMI_NODEJS_PROJECT: "compile-cache" },
          });
          child.on("error", (err) => resolve({ code: null, signal: null, error: err.message }));
          child.on("close", (code, signal) => resolve({ code, signal }));
        }),
    ),
  );
}

/** How a warm-up process ended: its exit code, or the signal that killed it (its deadline's), or why it did not start. */
export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: string;
}
