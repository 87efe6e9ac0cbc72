/**
 * The order jest hands test files to its two workers: longest first, so that neither worker is left
 * running one long file (the clone test, an estate's CLI runs) alone at the end. Jest does this by
 * itself from the times of this checkout's last run; a clean clone has none, and jest then goes by
 * file size, which put the longest file (test/package/clone.test.ts, 162 lines) among the last.
 * Where jest has no time of its own, test/timings.json gives one (seconds per file, from a whole
 * run: `PB_TIMINGS=test/timings.json npx jest` rewrites it); a file in neither runs first, as jest
 * runs a file it has not timed.
 */
const fs = require("node:fs");
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const TIMINGS = path.join(__dirname, "timings.json");
const root = path.join(__dirname, "..");

/** Seconds per test file (its path from the repository's root, with forward slashes), from the committed file. */
function committed() {
  try {
    return JSON.parse(fs.readFileSync(TIMINGS, "utf8"));
  } catch {
    return {};
  }
}

class LongestFirst extends Sequencer {
  timings = committed();

  /** Jest's own time of the file's last run (ms), else the committed one. */
  time(test) {
    const own = super.time(test);
    if (own !== undefined) return own;
    const seconds = this.timings[path.relative(root, test.path).split(path.sep).join("/")];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}

module.exports = LongestFirst;
