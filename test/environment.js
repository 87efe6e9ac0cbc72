/**
 * Jest's node environment, plus one check after each test file: what the file started and left
 * running. A child process, a listening server or an open socket left behind keeps jest's worker
 * from exiting at the end of the run (jest then force-exits it, "A worker process has failed to exit
 * gracefully"), and which file left it is lost by then. Here the file that left it fails, naming what
 * it left: each child process by its command line, each server and socket by its address.
 *
 * What the file ended but the system has not yet reaped (a killed child's exit, a socket's close) is
 * given a moment to go. Timers are not checked: a pending one ends by itself, and jest's own come and go.
 */
const { appendFileSync, readFileSync } = require("node:fs");
const { setTimeout: sleep } = require("node:timers/promises");
const { TestEnvironment } = require("jest-environment-node");

/** How long the handles the file ended have to go once its last hook has run. */
const GRACE_MS = 3000;

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
    if (!handle.remotePort) return undefined; // a pipe (a child's stdio, the worker's channel): its owner is listed
    return `socket ${handle.localAddress}:${handle.localPort} → ${handle.remoteAddress}:${handle.remotePort}`;
  }
  return undefined;
}

/** The handles that keep a process alive and were not there before: each described, once. */
function leftSince(before) {
  return process
    ._getActiveHandles()
    .filter((h) => !before.has(h) && (typeof h.hasRef !== "function" || h.hasRef()))
    .map(describe)
    .filter((d) => d !== undefined);
}

class LeakCheckingEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    this.before = new Set(process._getActiveHandles());
    this.cpuBefore = cpuWithChildren();
    this.startedAt = Date.now();
  }

  /** With PB_FILE_CPU=<file>, appends one JSON line per test file: its wall time and CPU ms (see docs/testing.md). */
  recordCpu() {
    const out = process.env.PB_FILE_CPU;
    const after = cpuWithChildren();
    if (!out || !after || !this.cpuBefore) return;
    const line = {
      file: this.testPath,
      wallMs: Date.now() - this.startedAt,
      workerMs: after.self - this.cpuBefore.self,
      childrenMs: after.children - this.cpuBefore.children,
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  }

  async teardown() {
    let left = leftSince(this.before);
    for (const deadline = Date.now() + GRACE_MS; left.length > 0 && Date.now() < deadline; left = leftSince(this.before)) {
      await sleep(50);
    }
    await super.teardown();
    this.recordCpu();
    if (left.length > 0 && process.env.PB_ALLOW_LEFT_RUNNING !== "1") {
      throw new Error(
        `${this.testPath} left running after its last test (it would keep jest's worker from exiting at the end of the run):\n  ${left.join("\n  ")}\n` +
          "Stop it in the file's afterAll (or the helper that started it). PB_ALLOW_LEFT_RUNNING=1 turns this check off while you look.",
      );
    }
  }
}

module.exports = LeakCheckingEnvironment;
