/**
 * The package as users get it: packed as `npm publish` would, and installed into a fresh program
 * directory from that tarball. Tests and benchmarks load the provider from there, never from sources.
 *
 * Jest's global setup starts this in the background (`startPackAndInstall`) so that the test files
 * that need no package run meanwhile; it names the folders at once (PB_PACKED_PROGRAM,
 * PB_PACKED_TARBALL) and says in PB_PACKED_STATUS where each stage reports when it has ended. The
 * readers (`packedTarball`, provider-host.ts's `packedProgram`) wait for their stage, with a
 * deadline, and throw the stage's failure as it was reported.
 *
 * The stages run in a Node process of their own (this module's build, run as a script), which
 * reports each itself: a reader may block the process that started the pack (a lone test file runs
 * in jest's own process, the one whose global setup started it) without stopping the pack.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import type { Socket } from "node:net";
import * as path from "node:path";
import { warm, withCompileCache } from "./compile-cache";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const INSTALL = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
/** The longest a reader waits for a stage: past the deadlines of the commands below, which then report their failure. */
const READER_DEADLINE_MS = 15 * 60_000;
/** Each command's deadline (a loaded machine's npm install of the tarball took up to a minute). */
const COMMAND_DEADLINE_MS = 10 * 60_000;
/** How long a pack waits for another run's pack of the same checkout to end. */
const LOCK_DEADLINE_MS = 5 * 60_000;
/** The stages' process: this module's build (under ts-jest this module is the TypeScript source; global setup builds dist/ first). */
const RUNNER = __filename.endsWith(".ts") ? path.join(__dirname, "..", "dist", "harness", "pack.js") : __filename;

/** What the background pack has made: the program's folder, and the tarball it installed. */
export interface Packed {
  program: string;
  tarball: string;
}

/** The stages a reader waits for: the tarball exists, or the program has installed it. */
export type Stage = "tarball" | "program";

/** Packs the package at `root` and installs the tarball into a new program (a benchmark's: it waits for both). */
export async function packAndInstall(root: string): Promise<Packed> {
  const { program, tarball, done } = startPackAndInstall(root);
  // the runner is unreferenced (see startPackAndInstall): something must keep a benchmark's process alive meanwhile
  const alive = setInterval(() => undefined, 60_000);
  try {
    await done;
  } finally {
    clearInterval(alive);
  }
  return { program, tarball };
}

/**
 * Packs the package at `root` as `npm publish` would (prepack builds a stale dist/ and takes the
 * lifecycle scripts out of the packed package.json) and installs the tarball into a new program, in
 * the background: returns at once the folders it will fill, the folder its stages report to, and a
 * promise that settles when both stages have ended (rejecting with the failure, which is reported to
 * the readers too). With `warmCompileCache` (flush-at-port.ts's build), the program's stage ends by
 * compiling its plugin into the run's compile cache (compile-cache.ts): readers wait for that too. The
 * tarball's name is npm's for the package.
 */
export function startPackAndInstall(root: string, options: { warmCompileCache?: string } = {}): Packed & { status: string; done: Promise<void> } {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-packed-"));
  const { name, version } = manifest(root);
  const file = `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
  const status = path.join(dir, "status");
  mkdirSync(status);
  const program = path.join(dir, "program");
  const runner = spawn(process.execPath, [RUNNER, root, dir, file, options.warmCompileCache ?? ""], {
    // npm's processes and the installed program's compile into the run's cache, as the tests' do
    env: withCompileCache(),
    stdio: ["ignore", "ignore", "pipe"],
    timeout: LOCK_DEADLINE_MS + 2 * COMMAND_DEADLINE_MS + 60_000,
  });
  // neither keeps the process that started it alive, nor counts as left running by the file beside it
  // in jest's own process; whoever awaits `done` keeps its process alive meanwhile
  runner.unref();
  (runner.stderr as unknown as Socket).unref();
  let stderr = "";
  runner.stderr.on("data", (d) => (stderr += d));
  const done = new Promise<void>((resolve, reject) => {
    runner.on("error", (err) => (stderr += `${err.message}\n`));
    runner.on("close", (code, signal) => {
      // a runner that ended without reporting (killed, or failed to start) fails both stages for the readers
      const how = signal ?? `exit ${code}`;
      const error = `the package could not be packed and installed for this run: its process ended (${how}) before it reported:\n${stderr}`;
      report(status, "tarball", { ok: false, error }, true);
      report(status, "program", { ok: false, error }, true);
      try {
        outcome(status, "tarball");
        outcome(status, "program");
        resolve();
      } catch (err) {
        reject(err as Error);
      }
    });
  });
  return { program, tarball: path.join(dir, file), status, done };
}

/** The stages, in the runner's process: the tarball `file` packed into `dir` from `root`, then the program installing it; each reported to `dir`/status. */
async function runStages(root: string, dir: string, file: string, preload: string): Promise<void> {
  const status = path.join(dir, "status");
  const stage = async (which: Stage, work: () => Promise<void>) => {
    try {
      await work();
      report(status, which, { ok: true });
    } catch (err) {
      const error = `the package could not be packed and installed for this run (${which}): ${(err as Error).message}`;
      report(status, "tarball", { ok: false, error }, true);
      report(status, "program", { ok: false, error }, true);
      throw new Error(error);
    }
  };
  await stage("tarball", async () => {
    await withPackLock(root, () => command(npm, ["pack", "--pack-destination", dir], root));
    if (!existsSync(path.join(dir, file))) throw new Error(`npm pack made ${readdirSync(dir).join(", ")}, not ${file}`);
  });
  await stage("program", async () => {
    const program = writeProgram(dir, manifest(root).name, file);
    await command(npm, INSTALL, program);
    // a warm-up that fails leaves the cache colder, not the run red (warm never rejects)
    if (preload) await warm(program, preload);
  });
}

/**
 * Waits (blocking: it is called where a value is needed at once) until the background pack's
 * `stage` has ended, and throws its failure; returns at once when nothing packs in the background
 * (PB_PACKED_STATUS unset: the folders were filled before, or by hand).
 */
export function waitForPacked(stage: Stage): void {
  const status = process.env.PB_PACKED_STATUS;
  if (!status) return;
  const deadline = Date.now() + READER_DEADLINE_MS;
  for (;;) {
    if (outcome(status, stage)) return;
    if (Date.now() > deadline) throw new Error(notInTime(stage));
    sleepSync(100);
  }
}

/** As `waitForPacked`, without blocking the process meanwhile. */
export async function packedReady(stage: Stage): Promise<void> {
  const status = process.env.PB_PACKED_STATUS;
  if (!status) return;
  const deadline = Date.now() + READER_DEADLINE_MS;
  while (!outcome(status, stage)) {
    if (Date.now() > deadline) throw new Error(notInTime(stage));
    await sleep(100);
  }
}

/** The tarball jest's global setup packed for this run (PB_PACKED_TARBALL), once it is there. */
export function packedTarball(): string {
  const tarball = process.env.PB_PACKED_TARBALL;
  if (!tarball) throw new Error("PB_PACKED_TARBALL is not set: run the tests through jest's globalSetup");
  waitForPacked("tarball");
  return tarball;
}

/**
 * Called when a test file loads provider-host.ts (to reach the packed program): the file waits,
 * before its own hooks, until the program is installed, in a hook of its own with the readers'
 * deadline, so that no hook of the file's, which jest times from its start, spends its time on the
 * wait. Files that do not load it start at once, while the package is packed and installed. Outside
 * jest (a benchmark) or with nothing packing in the background, nothing.
 */
export function waitForPackedBeforeTests(): void {
  const jestBeforeAll: unknown = Reflect.get(globalThis, "beforeAll");
  if (typeof jestBeforeAll !== "function" || !process.env.PB_PACKED_STATUS) return;
  try {
    (jestBeforeAll as (fn: () => Promise<void>, timeout: number) => void)(() => packedReady("program"), READER_DEADLINE_MS + 10_000);
  } catch {
    // loaded inside a test (no hook can be added there): packedProgram() waits where it is called
  }
}

/** True once `stage` has ended well; throws its failure. */
function outcome(status: string, stage: Stage): boolean {
  let text: string;
  try {
    text = readFileSync(path.join(status, `${stage}.json`), "utf8");
  } catch {
    return false;
  }
  const r = JSON.parse(text) as { ok: boolean; error?: string };
  if (!r.ok) throw new Error(r.error);
  return true;
}

const notInTime = (stage: Stage) =>
  `the package was not ${stage === "tarball" ? "packed" : "packed and installed"} within ${READER_DEADLINE_MS / 60_000} minutes ` +
  "(jest's global setup started it in the background: test/global-setup.ts)";

/** Writes `stage`'s outcome whole (a reader sees no file or all of it); a failure does not overwrite a success when `keep`. */
function report(status: string, stage: Stage, r: { ok: boolean; error?: string }, keep = false): void {
  const file = path.join(status, `${stage}.json`);
  if (keep && existsSync(file)) return;
  writeFileSync(`${file}.tmp`, JSON.stringify(r));
  renameSync(`${file}.tmp`, file);
}

/** The program's folder in `dir`, depending on the package `name` as the tarball `tarball` there has it. */
function writeProgram(dir: string, name: string, tarball: string): string {
  const program = path.join(dir, "program");
  mkdirSync(program, { recursive: true });
  writeFileSync(path.join(program, "package.json"), JSON.stringify({ name: "packed-program", private: true, dependencies: { [name]: `file:../${tarball}` } }));
  return program;
}

/** The package.json of the package at `root`. */
const manifest = (root: string) => JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { name: string; version: string };

/** Runs a command in `cwd` with its output held; rejects with that output when it fails or passes its deadline. */
function command(cmd: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], timeout: COMMAND_DEADLINE_MS });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", (err) => (out += `${err.message}\n`));
    child.on("close", (code, signal) => {
      if (code === 0) return resolve();
      const how = signal ? `was killed (${signal}, deadline ${COMMAND_DEADLINE_MS / 60_000} minutes)` : `exited ${code}`;
      reject(new Error(`\`${cmd} ${args.join(" ")}\` in ${cwd} ${how}:\n${out}`));
    });
  });
}

/**
 * The checkout's pack lock, held around `npm pack`: its prepack rewrites package.json and postpack
 * puts it back, so two runs packing one checkout at once (two jest runs, a bench) could pack, or
 * leave behind, the other's rewritten one. The lock is a directory (made atomically) naming its
 * holder's pid; one whose holder is gone is taken over. Returns false while another holds it.
 */
function tryLock(root: string): boolean {
  const lock = lockOf(root);
  mkdirSync(path.dirname(lock), { recursive: true });
  try {
    mkdirSync(lock);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    if (alive(lock)) return false;
    rmSync(lock, { recursive: true, force: true });
    return tryLock(root);
  }
  writeFileSync(path.join(lock, "pid"), String(process.pid));
  return true;
}

const lockOf = (root: string) => path.join(root, "node_modules", ".cache", "pulumi-boundary", "pack.lock");
const lockTimeout = (root: string) => new Error(`another run has been packing ${root} for ${LOCK_DEADLINE_MS / 60_000} minutes (its lock: ${lockOf(root)})`);

/** Runs `work` holding the pack lock of `root`, waiting while another holds it. */
async function withPackLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_DEADLINE_MS;
  while (!tryLock(root)) {
    if (Date.now() > deadline) throw lockTimeout(root);
    await sleep(200);
  }
  try {
    return await work();
  } finally {
    rmSync(lockOf(root), { recursive: true, force: true });
  }
}

/** Whether the lock's holder still runs (a lock just made, its pid not yet written, counts as held). */
function alive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(lock, "pid"), "utf8"));
  } catch {
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// run as a script: the stages of one pack (see startPackAndInstall); their failure is already reported
if (require.main === module) {
  const [root, dir, file, preload] = process.argv.slice(2) as [string, string, string, string];
  runStages(root, dir, file, preload).catch(() => {
    process.exitCode = 1;
  });
}
