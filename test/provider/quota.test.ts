/**
 * What the pacer believes about a quota, from the `RateLimit` headers of answers as they arrive:
 * out of order, from two controllers behind a balancer, across window resets. Pure: times are
 * given, no clock, no server (the same rules against a real controller: pacing-cluster.test.ts).
 */
import { parseRateLimit } from "../../provider/client/pacer";
import { Quota } from "../../provider/client/quota";

/** An answer at `at` to a request sent at `sent`, carrying `remaining` of `limit` with `reset` seconds left. */
function seen(q: Quota, at: number, sent: number, remaining: number, reset: number, limit = 20): void {
  const raw = `limit=${limit}, remaining=${remaining}, reset=${reset}`;
  q.observe(at, sent, raw, parseRateLimit(raw));
}

test("before any header one request goes at a time; an answer without one says there is no limiter", () => {
  const q = new Quota();
  expect(q.allowance(0, 0)).toBe(1);
  expect(q.allowance(0, 1)).toBe(0);
  q.observe(5, 0, undefined, undefined);
  expect(q.allowance(5, 100)).toBe(Infinity);
  // a limiter turned on later is followed from its first header
  seen(q, 10, 6, 4, 10);
  expect(q.allowance(10, 0)).toBe(4);
});

test("answers out of order: the lowest count of the window holds, not the last to arrive", () => {
  const q = new Quota();
  seen(q, 10, 0, 3, 10); // the later request's answer, first
  seen(q, 11, 0, 17, 10); // an earlier request's answer, arriving last
  expect(q.allowance(11, 0)).toBe(3);
  expect(q.allowance(11, 2)).toBe(1);
  expect(q.header()).toBe("limit=20, remaining=3, reset=10");
  expect(q.balanced).toBe(false); // sent before the low count came: just late
});

test("two controllers behind a balancer: a count that rises in its window is another controller's, and the lowest bounds both", () => {
  const q = new Quota();
  seen(q, 10, 5, 12, 10); // controller A
  seen(q, 20, 15, 19, 10); // controller B, asked after A's answer came, counts more
  expect(q.balanced).toBe(true);
  expect(q.allowance(20, 0)).toBe(12);
  seen(q, 30, 25, 2, 10); // A again
  seen(q, 40, 35, 18, 10); // B
  expect(q.allowance(40, 0)).toBe(2);
  expect(q.allowance(40, 2)).toBe(0);
});

test("when every known window has ended a fresh one allows the limit; a stale answer about the old window is not counted", () => {
  const q = new Quota();
  seen(q, 1000, 900, 0, 2); // ends at 3000
  expect(q.allowance(2999, 0)).toBe(0);
  expect(q.nextReset(2999)).toBe(3000);
  expect(q.allowance(3000, 0)).toBe(20);
  // sent before the reset, answered after it, about the old window: already spent there
  seen(q, 3100, 2990, 0, 1);
  expect(q.allowance(3100, 0)).toBe(20);
  // the new window's first answer
  seen(q, 3200, 3050, 15, 10);
  expect(q.allowance(3200, 1)).toBe(14);
});

test("a window whose end lies further than a second from the known one is another window, kept until the first ends", () => {
  const q = new Quota();
  seen(q, 0, 0, 1, 5); // ends at 5000
  seen(q, 100, 50, 19, 10); // ends at 10100: the controller's next window, or another controller's
  expect(q.allowance(100, 0)).toBe(1);
  expect(q.nextReset(100)).toBe(5000);
  expect(q.allowance(5000, 0)).toBe(19);
  expect(q.nextReset(5000)).toBe(10100);
});

test("two controllers' windows ending less than a second apart are kept apart: the earlier end does not free the later", () => {
  // A's window ends at 2000, B's at 2300 (its first request came 300 ms later); a quota of 10 per 2 s each
  const q = new Quota();
  seen(q, 100, 90, 5, 2, 10); // A: 5 left, ends by 2100
  seen(q, 400, 390, 9, 2, 10); // B, asked after A's answer came, counts more: another count, ends by 2400
  expect(q.balanced).toBe(true);
  seen(q, 500, 490, 0, 2, 10); // B spent (or A: which cannot be told, so both are held to 0, until 2500)
  expect(q.allowance(500, 0)).toBe(0);
  // A's first estimate has passed, B's has not: nothing goes before every estimate that may be B's
  expect(q.allowance(2100, 0)).toBe(0);
  expect(q.allowance(2400, 0)).toBe(0);
  expect(q.nextReset(2400)).toBe(2500);
  expect(q.allowance(2500, 0)).toBe(10);
});

test("one burst to two controllers: a count answered twice is two controllers', and the window ends at its latest estimate", () => {
  const q = new Quota();
  seen(q, 5, 0, 9, 2, 10); // A's first answer: ends by 2005
  seen(q, 20, 10, 8, 2, 10); // A, in a burst sent at 10: ends by 2020
  expect(q.balanced).toBe(false); // so far one controller, its window ending by 2005
  expect(q.nextReset(20)).toBe(2005);
  seen(q, 30, 10, 9, 2, 10); // sent in the same burst, so it may be late; but 9 again: B's first
  expect(q.balanced).toBe(true);
  expect(q.allowance(30, 0)).toBe(8);
  expect(q.allowance(2005, 0)).toBe(8); // A's window may be over; B's, begun up to 25 ms later, may not
  expect(q.allowance(2030, 0)).toBe(10);
});

test("one controller's refusals all say 0 left: that count answered twice is not a second controller", () => {
  const q = new Quota();
  seen(q, 10, 0, 0, 2); // ends by 2010
  seen(q, 20, 5, 0, 2); // a 429: still 0
  expect(q.balanced).toBe(false);
  expect(q.allowance(2010, 0)).toBe(20); // the earliest estimate ends it
});

test("the smallest limit seen is what a fresh window allows", () => {
  const q = new Quota();
  seen(q, 0, 0, 5, 1, 30);
  seen(q, 10, 5, 4, 1, 6);
  expect(q.allowance(2000, 0)).toBe(6);
});

test("a quota whose limit is 0 never leaves a request waiting without end: once its window ends, one goes and the controller answers", () => {
  const q = new Quota();
  seen(q, 0, 0, 0, 1, 0);
  expect(q.allowance(500, 0)).toBe(0);
  expect(q.nextReset(500)).toBe(1000);
  expect(q.allowance(1000, 0)).toBe(1);
});

test("a period of one second: one controller's next window, answered before the last is thought over, is not a second controller", () => {
  // every answer says reset=1, so the estimates of consecutive windows' ends lie within a second
  const q = new Quota();
  seen(q, 10, 0, 499, 1, 500); // window [0, 1000): ends by 1010
  seen(q, 990, 980, 0, 1, 500); // spent
  seen(q, 1005, 995, 499, 1, 500); // counted in the next window, which began at 1000
  expect(q.balanced).toBe(false);
  expect(q.allowance(1005, 0)).toBe(0);
  expect(q.allowance(1010, 0)).toBe(499); // the earliest estimate ends the spent window
  seen(q, 1020, 1000, 499, 1, 500); // the same count again, but asked once the first window may have ended
  expect(q.balanced).toBe(false);
});
