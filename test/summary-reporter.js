/** Prints one plain closing line, "N passed, N failed, N skipped", that any CI can read. */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped } = results;
    process.stdout.write(`\njest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
