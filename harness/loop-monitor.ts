/**
 * How long the controller's thread keeps its event loop from turning: the longest stretch of CPU
 * time between two turns of the loop. While one task runs, `/health` and every other request wait;
 * this says for how long, whatever else the machine runs.
 *
 * It counts this thread's CPU time (`process.threadCpuUsage`), not the clock: when other
 * processes load the machine, the clock runs on while this thread waits for a core, and a
 * wall-clock measure (`monitorEventLoopDelay`, a timed `/health`) blames the controller for it.
 * Garbage collection on this thread counts: it blocks the loop as much as JavaScript does.
 */

/** A running measure; `stop()` when done (its timer keeps no process alive). */
export interface LoopMonitor {
  /** The longest stretch of CPU between two turns of the loop since start or `reset()`, in ms. */
  longestBlockMs(): number;
  reset(): void;
  stop(): void;
}

/** This thread's CPU time in µs (Node ≥ 23.9 measures the thread; before, the process). */
function cpuMicros(): number {
  const usage = typeof process.threadCpuUsage === "function" ? process.threadCpuUsage() : process.cpuUsage();
  return usage.user + usage.system;
}

/** Starts measuring: a 1 ms timer reads the thread's CPU time at every turn of the loop. */
export function monitorLoop(): LoopMonitor {
  let last = cpuMicros();
  let longest = 0;
  const timer = setInterval(() => {
    const now = cpuMicros();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  timer.unref();
  return {
    longestBlockMs: () => longest / 1000,
    reset: () => {
      longest = 0;
      last = cpuMicros();
    },
    stop: () => clearInterval(timer),
  };
}
