/**
 * The loop monitor counts what the thread does, not what the clock shows: 150 ms of work between
 * two turns of the loop is 150 ms; 150 ms of waiting (as when other processes hold the machine's
 * cores, here a blocking sleep) is nothing.
 */
import { monitorLoop } from "../../harness/loop-monitor";

const turn = () => new Promise((r) => setTimeout(r, 5));

test("150 ms of work without a turn of the loop counts as a 150 ms block", async () => {
  const loop = monitorLoop();
  try {
    await turn();
    // busy for 150 ms of this thread's CPU time, however long the clock takes to show it on a loaded machine: the loop cannot turn
    const cpuMs = () => {
      const usage = typeof process.threadCpuUsage === "function" ? process.threadCpuUsage() : process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    };
    const start = cpuMs();
    while (cpuMs() - start < 150);
    await turn();
    expect(loop.longestBlockMs()).toBeGreaterThanOrEqual(130);
    loop.reset();
    await turn();
    expect(loop.longestBlockMs()).toBeLessThan(50);
  } finally {
    loop.stop();
  }
});

test("150 ms of waiting for the CPU (a sleep here) does not count", async () => {
  const loop = monitorLoop();
  try {
    await turn();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150); // the thread sleeps, the clock runs
    await turn();
    expect(loop.longestBlockMs()).toBeLessThan(50);
  } finally {
    loop.stop();
  }
});
