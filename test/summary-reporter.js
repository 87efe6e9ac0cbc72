/**
 * Prints one plain closing line, "N passed, N failed, N skipped", that any CI can read. With
 * PB_TIMINGS set to a file (test/timings.json), also writes each file's time in seconds there,
 * merged into what it held: the times test/sequencer.js orders a run by when jest has none.
 */
const fs = require("node:fs");
const path = require("node:path");

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const { numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped } = results;
    process.stdout.write(`\njest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    const out = process.env.PB_TIMINGS;
    if (out) this.writeTimings(path.resolve(this.rootDir, out), results.testResults);
  }

  /** Each file's run time (seconds, one decimal), merged into the JSON at `file`, keys sorted. */
  writeTimings(file, testResults) {
    let timings = {};
    if (fs.existsSync(file)) timings = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const r of testResults) {
      if (r.testExecError || !r.perfStats) continue;
      const key = path.relative(this.rootDir, r.testFilePath).split(path.sep).join("/");
      timings[key] = Math.round((r.perfStats.end - r.perfStats.start) / 100) / 10;
    }
    const sorted = Object.fromEntries(
      Object.keys(timings)
        .sort()
        .map((k) => [k, timings[k]]),
    );
    fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
module.exports = SummaryReporter;
