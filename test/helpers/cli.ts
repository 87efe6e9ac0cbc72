/** Runs the built `pulumi-boundary` CLI as a real process and reads its banner. */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";

/** The built CLI's entry (dist/): `npm test` builds before jest runs. */
export const CLI = path.join(__dirname, "..", "..", "dist", "cli", "main.js");

/** A running `pulumi-boundary dev`: its process, everything it printed so far, its two addresses, and when it exited. */
export interface CliProcess {
  child: ChildProcess;
  output: () => string;
  apiUrl: string;
  opsUrl: string;
  exited: Promise<{ code: number | null; at: number }>;
}

/**
 * The processes startCli started that have not exited. A test that fails before its process ends
 * (an assertion between its SIGTERM and the exit, a timeout under load) would leave it running, and
 * a live child keeps jest's worker from exiting at the end of the run (jest then force-exits it):
 * whatever is left is killed after the file's tests.
 */
const live = new Set<ChildProcess>();
afterAll(() => {
  for (const child of live) child.kill("SIGKILL");
});

/** Starts `pulumi-boundary dev …` and resolves once the banner shows both addresses; the process is killed after the file's tests if still running. */
export function startCli(args: string[]): Promise<CliProcess> {
  const child = spawn(process.execPath, [CLI, "dev", "--api-addr", "127.0.0.1:0", "--ops-addr", "127.0.0.1:0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  live.add(child);
  child.on("exit", () => live.delete(child));
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on("exit", (code) => resolve({ code, at: Date.now() })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL"); // a start that failed leaves no process behind
      reject(new Error(`CLI did not start:\n${out}`));
    }, 10_000);
    const check = () => {
      const api = /API address: (\S+)/.exec(out);
      const ops = /Ops address: (\S+)/.exec(out);
      if (api && ops) {
        clearTimeout(timer);
        child.stdout!.off("data", check);
        resolve({ child, output: () => out, apiUrl: api[1]!, opsUrl: ops[1]!, exited });
      }
    };
    child.stdout!.on("data", check);
    exited.then(() => reject(new Error(`CLI exited early:\n${out}`)));
  });
}

/**
 * Runs the CLI to completion (for argument errors); `env` on top of this process's, its BOUNDARY_*
 * left out when given; in `cwd` (default: this process's); `cli` another built bin (an installed package's).
 */
export function runCli(
  args: string[],
  env?: Record<string, string>,
  { cwd, cli = CLI }: { cwd?: string; cli?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = env ? Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("BOUNDARY_"))) : process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...base, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    // "close", not "exit": a process can exit before its pipes are read to the end (a --help read as "")
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
