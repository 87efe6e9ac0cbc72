/**
 * Jest's node environment, plus one check after each test file: what the file started and left
 * running. A child process, a listening server or an open socket left behind keeps jest's worker
 * from exiting at the end of the run (jest then force-exits it, "A worker process has failed to exit
 * gracefully"), and which file left it is lost by then. Here the file that left it fails, naming what
 * it left: each child process by its command line, each server and socket by its address.
 *
 * What the file ended but the system has not yet reaped (a killed child's exit, a socket's close) is
 * given a moment to go. Two less visible things keep the worker alive too, and are checked the same way:
 * a timer the file's code set (its `setTimeout`/`setInterval`: a request's deadline never cleared, a
 * sleep nobody cancelled) still pending, named by where it was set; and a child's stdio pipe left open
 * after the child exited, by a process the child started and did not take with it.
 */
const { appendFileSync, readFileSync } = require("node:fs");
const { setTimeout: sleep } = require("node:timers/promises");
const { TestEnvironment } = require("jest-environment-node");

/**
 * How long the handles the file ended have to go once its last hook has run (`leakGraceMs` in the
 * environment's options overrides it: the check's own tests leave things on purpose, and would each wait it out).
 */
const GRACE_MS = 3000;

// The run's compile cache (harness/compile-cache.ts) for every process the tests start: set here, in
// the worker once it runs, since Node reads it only as a process starts and the worker itself
// compiles nothing another process reuses (it would spend its exit writing the cache, past the
// 500 ms jest waits for it). Before any file's environment, which copies process.env.
if (process.env.PB_COMPILE_CACHE !== undefined && process.env.NODE_COMPILE_CACHE === undefined) {
  process.env.NODE_COMPILE_CACHE = process.env.PB_COMPILE_CACHE;
}

/**
 * CPU time, ms, of this worker and of the children it has reaped (and theirs): /proc/self/stat's
 * utime, stime, cutime and cstime, in clock ticks (100 a second on Linux); undefined elsewhere.
 */
function cpuWithChildren() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is the state (stat's 3rd field): utime..cstime are stat's 14th to 17th
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    return { self: (utime + stime) * 10, children: (cutime + cstime) * 10 };
  } catch {
    return undefined;
  }
}

/** What of `handle` a reader needs to find who made it: a command line, an address. */
function describe(handle) {
  const name = handle?.constructor?.name ?? typeof handle;
  if (name === "ChildProcess") return `child process ${handle.pid}: ${(handle.spawnargs ?? []).join(" ").slice(0, 300)}`;
  if (name === "Server" && typeof handle.address === "function") return `server listening on ${JSON.stringify(handle.address())}`;
  if (name === "Socket" || name === "TLSSocket") {
    if (handle === process.stdin || handle === process.stdout || handle === process.stderr) return undefined;
    if (handle.connecting) return `socket connecting to ${handle._host ?? "?"} (${handle.localAddress ?? "no local address yet"})`;
    if (!handle.remotePort) return PIPE; // a child's stdio: named by its child while that runs (see leftSince)
    return `socket ${handle.localAddress}:${handle.localPort} → ${handle.remoteAddress}:${handle.remotePort}`;
  }
  return undefined;
}

/** The entries of `after` beyond those of `before`, counted by kind (both lists of resource kinds). */
function added(before, after) {
  const count = {};
  for (const kind of after) count[kind] = (count[kind] ?? 0) + 1;
  for (const kind of before) if (count[kind] !== undefined) count[kind]--;
  return Object.fromEntries(Object.entries(count).filter(([, n]) => n > 0));
}

/** describe's answer for a pipe, which says nothing of who holds its other end. */
const PIPE = Symbol("pipe");

/**
 * What keeps the process alive and was not there before, each described once: handles, and the
 * file's `timers` (see watchTimers) still pending. A pipe is named only when no child process is
 * left: while its child runs, the child is the one to stop.
 */
function leftSince(before, timers) {
  const handles = process._getActiveHandles().filter((h) => !before.has(h) && (typeof h.hasRef !== "function" || h.hasRef()));
  const described = handles.map(describe).filter((d) => d !== undefined);
  const named = described.filter((d) => d !== PIPE);
  const pipes = described.length - named.length;
  if (pipes > 0 && !named.some((d) => d.startsWith("child process"))) {
    named.push(`${pipes} stdio pipe(s) of a child process that has exited, held open by a process it started (stop the child's whole process group)`);
  }
  for (const [timer, made] of timers) {
    if (typeof timer.hasRef !== "function" || timer.hasRef()) named.push(`a ${made.ms} ms ${made.kind} set ${made.at}`);
  }
  return named;
}

/** The first frame of `stack` outside node_modules and node's own code: where the file's code set a timer. */
function setAt(stack) {
  const frames = stack.split("\n").slice(2);
  const ours = frames.find((f) => !f.includes("node_modules") && !f.includes("node:") && !f.includes(__filename));
  return (ours ?? frames[0] ?? "").trim();
}

/**
 * Wraps the test file's global `setTimeout` and `setInterval` (its code and the package's modules
 * loaded for it use these) to keep each pending timeout of 1 s or more, and every interval, with
 * where it was set, until it fires (a timeout) or is cleared; returns that map. Shorter timeouts are
 * left alone: they end within the grace. An interval of any period never ends of itself, and holds
 * jest's worker alive past the end of the run.
 */
function watchTimers(global) {
  const pending = new Map();
  const wrap = (kind, setName, clearName, once) => {
    const set = global[setName];
    const clear = global[clearName];
    const wrapped = function (fn, ms, ...args) {
      if (typeof fn !== "function" || (once && !(ms >= 1000))) return set(fn, ms, ...args);
      const made = { kind, ms, at: setAt(new Error().stack ?? "") };
      const timer = set(
        function (...a) {
          if (once) pending.delete(timer);
          return fn.apply(this, a);
        },
        ms,
        ...args,
      );
      pending.set(timer, made);
      return timer;
    };
    // util.promisify(setTimeout) and the like read these
    for (const key of Reflect.ownKeys(set)) if (!(key in wrapped)) Object.defineProperty(wrapped, key, Object.getOwnPropertyDescriptor(set, key));
    global[setName] = wrapped;
    global[clearName] = (timer) => {
      pending.delete(timer);
      return clear(timer);
    };
  };
  wrap("timeout", "setTimeout", "clearTimeout", true);
  wrap("interval", "setInterval", "clearInterval", false);
  return pending;
}

class LeakCheckingEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.graceMs = config.projectConfig.testEnvironmentOptions?.leakGraceMs ?? GRACE_MS;
    /** The file's tests and hooks that failed: what they started may still run (a test past its timeout goes on). */
    this.failed = [];
  }

  /** jest-circus's events: the failures are kept, to tell a leak from what a failed test left. */
  handleTestEvent(event) {
    if (event.name === "test_done" && event.test.errors.length > 0) this.failed.push(`test "${event.test.name}"`);
    if (event.name === "hook_failure") this.failed.push(`${event.hook.type} hook`);
  }

  async setup() {
    await super.setup();
    this.before = new Set(process._getActiveHandles());
    this.timers = watchTimers(this.global);
    this.cpuBefore = cpuWithChildren();
    this.resourcesBefore = process.getActiveResourcesInfo();
    this.startedAt = Date.now();
  }

  /**
   * With PB_FILE_CPU=<file>, appends one JSON line per test file: its wall time, CPU ms, and the kinds
   * of what keeps the process alive that the file added and left (`process.getActiveResourcesInfo()`:
   * also what the checks here cannot name, such as a timer of `node:timers/promises`). See docs/testing.md.
   */
  recordCpu() {
    const out = process.env.PB_FILE_CPU;
    const after = cpuWithChildren();
    if (!out || !after || !this.cpuBefore) return;
    const line = {
      file: this.testPath,
      // which worker ran it: jest replaces a worker past workerIdleMemoryLimit, and a new one starts cold
      pid: process.pid,
      wallMs: Date.now() - this.startedAt,
      workerMs: after.self - this.cpuBefore.self,
      childrenMs: after.children - this.cpuBefore.children,
      left: added(this.resourcesBefore, process.getActiveResourcesInfo()),
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  }

  async teardown() {
    let left = leftSince(this.before, this.timers);
    for (const deadline = Date.now() + this.graceMs; left.length > 0 && Date.now() < deadline; left = leftSince(this.before, this.timers)) {
      await sleep(50);
    }
    await super.teardown();
    this.recordCpu();
    if (left.length > 0 && this.failed.length > 0) {
      // throwing here would replace the file's results with this message and hide the failure that
      // most likely left these (a test past its timeout keeps running): the failure is reported, this beside it
      process.stderr.write(`${this.testPath}: after ${this.failed.join(", ")} failed, left running:\n  ${left.join("\n  ")}\n`);
      return;
    }
    if (left.length > 0 && process.env.PB_ALLOW_LEFT_RUNNING !== "1") {
      throw new Error(
        `${this.testPath} left running after its last test (it would keep jest's worker from exiting at the end of the run):\n  ${left.join("\n  ")}\n` +
          "Stop it in the file's afterAll (or the helper that started it). PB_ALLOW_LEFT_RUNNING=1 turns this check off while you look.",
      );
    }
  }
}

module.exports = LeakCheckingEnvironment;
