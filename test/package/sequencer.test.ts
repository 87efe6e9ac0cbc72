/**
 * The order jest hands files to its workers (test/sequencer.js): longest first, by jest's own time
 * of a file when it has one, else by test/timings.json's, so that a clean clone (no times of its
 * own) starts the clone test and the other long files first rather than ordering them by size.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest loads the sequencer as plain CommonJS
const LongestFirst = require("../sequencer") as new () => { timings: Record<string, number>; sort(tests: FakeTest[]): FakeTest[] };

const root = path.join(__dirname, "..", "..");

/** What the sequencer reads of a test: its path, whether jest caches times (not here) and its size. */
interface FakeTest {
  path: string;
  context: { config: { cache: boolean }; hasteFS: { getSize(p: string): number } };
}

/** A test file at `rel` of `bytes`, in a context without jest's cache of times (a clean clone). */
const file = (rel: string, bytes: number): FakeTest => ({
  path: path.join(root, rel),
  context: { config: { cache: false }, hasteFS: { getSize: () => bytes } },
});

test("longest first by test/timings.json where jest has no time; a file in neither runs first, as jest runs a file it has not timed", () => {
  const s = new LongestFirst();
  s.timings = { "test/package/clone.test.ts": 200, "test/provider/long.test.ts": 90, "test/provider/short.test.ts": 2 };
  const order = s
    .sort([
      file("test/provider/short.test.ts", 90_000),
      file("test/provider/new.test.ts", 10),
      file("test/provider/long.test.ts", 5_000),
      file("test/package/clone.test.ts", 6_000),
    ])
    .map((t) => path.relative(root, t.path));
  expect(order).toEqual(["test/provider/new.test.ts", "test/package/clone.test.ts", "test/provider/long.test.ts", "test/provider/short.test.ts"]);
});

test("test/timings.json names only test files that exist, each with a time in seconds", () => {
  const timings = new LongestFirst().timings;
  expect(Object.keys(timings).length).toBeGreaterThan(0);
  for (const [rel, seconds] of Object.entries(timings)) {
    expect([rel, existsSync(path.join(root, rel)) && rel.endsWith(".test.ts")]).toEqual([rel, true]);
    expect(seconds).toBeGreaterThanOrEqual(0);
  }
});
