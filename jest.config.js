/** Tests are TypeScript, compiled by ts-jest; servers they start listen on port 0. */
module.exports = {
  // the node environment, failing a file that leaves a process, server or socket running (see the file)
  testEnvironment: "<rootDir>/test/environment.js",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  reporters: ["default", "<rootDir>/test/summary-reporter.js"],
  globalSetup: "<rootDir>/test/global-setup.ts",
  globalTeardown: "<rootDir>/test/global-teardown.ts",
  // longest first, from jest's own times or test/timings.json on a clean clone: both workers end together
  testSequencer: "<rootDir>/test/sequencer.js",
  // examples import the package by name, as users do; in tests that name means the sources
  moduleNameMapper: {
    "^pulumi-boundary$": "<rootDir>/provider/index.ts",
    "^pulumi-boundary/dynamic$": "<rootDir>/provider/resource/dynamic.ts",
    "^pulumi-boundary/policy$": "<rootDir>/policy/index.ts",
  },
  testTimeout: 30000,
  // most suites wait on child processes and sockets rather than compute: two workers on a 2-core
  // machine finish the suite in about half of one worker's time (jest 300–431 s in four runs against 725 s, on a clean clone)
  maxWorkers: 2,
  // Each file's modules stay in a worker's heap (Pulumi's SDK, zod, the controller: 1.3-1.5 GB of
  // RSS by the end of a whole run). Then a worker took longer than jest's 500 ms to exit (a 2 GB
  // process takes 0.5-0.6 s from its exit event to its end), so jest force-exited one at the end of
  // every whole run; and a collection of a heap that large likely held the thread when an in-process
  // loop check failed once (fuzz-http: 279 ms). Jest starts a new worker once one holds more than this after a file.
  workerIdleMemoryLimit: "600MB",
};
