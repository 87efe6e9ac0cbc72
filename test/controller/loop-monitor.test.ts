/**
 * The loop monitor counts what the thread does, not what the clock shows: 150 ms of work between
 * two turns of the loop is 150 ms; 150 ms of waiting (as when other processes hold the machine's
 * cores, here a blocking sleep) is nothing.
 */
import { monitorLoop } from "../../controller/loop-monitor";

const turn = () => new Promise((r) => setTimeout(r, 5));

test("150 ms of work without a turn of the loop counts as a 150 ms block", async () => {
  const loop = monitorLoop();
  try {
    await turn();
    const until = Date.now() + 150;
    while (Date.now() < until); // busy: the loop cannot turn
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
