#!/usr/bin/env node
/**
 * `npm test`: the build first, only when dist/ is stale (`npm ci` has just built; the tests run the
 * built CLI and plugin), then the type check, the linter over the whole tree, the format check and
 * jest, all at once. Jest's files mostly wait on the child processes they start (13 CPU-minutes in
 * 10.4 minutes on two cores), so the checks, single-threaded and CPU-bound, fill the idle core
 * rather than run before it: they took 38 s on a quiet machine and 140 s on a loaded one, ahead of
 * every test. Jest prints as it goes; each check prints one line when it ends, and a failed check
 * its whole output again after jest, so a lint finding is the last thing on the screen. The run
 * fails when any part failed, after all have ended. Arguments go to jest. Plain JavaScript: it runs
 * before anything is compiled.
 */
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");

/** The checks run beside jest, as `npm run` names them in package.json (test/package/gate.test.ts holds this list). */
const CHECKS = ["typecheck", "lint", "format:check"];
/** What must end before jest starts: the tests need dist/ as the sources are. */
const FIRST = "build:stale";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * Runs `npm run <step>` in `cwd` with its output held; prints one line with its status and time
 * when it ends (its output too when `whole`); resolves to `{ step, code, out }`.
 */
function run(step, cwd, whole) {
  const started = Date.now();
  const child = spawn(npm, ["run", "--silent", step], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return new Promise((resolve) => {
    child.on("error", (err) => (out += `${err.message}\n`));
    child.on("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? "ok" : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`> ${step}: ${status} in ${seconds} s\n${whole ? out : ""}`);
      resolve({ step, code: code ?? 1, out });
    });
  });
}

/** Runs jest with `args`, its output straight to the terminal; resolves to its exit code. */
function jest(args, cwd) {
  const bin = path.join(cwd, "node_modules", "jest", "bin", "jest.js");
  const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: "inherit" });
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

/**
 * Runs `checks` and `main` (a function starting the long part, resolving to its exit code) at once in
 * `cwd`; once all have ended, prints each failed check's output; resolves to 0 if all passed, else 1.
 */
async function runBeside(checks, main, cwd) {
  const [results, code] = await Promise.all([Promise.all(checks.map((step) => run(step, cwd, false))), main()]);
  const failed = results.filter((r) => r.code !== 0);
  for (const r of failed) process.stdout.write(`\n> ${r.step} FAILED:\n${r.out}`);
  return failed.length === 0 && code === 0 ? 0 : 1;
}

async function main(args, cwd) {
  const first = await run(FIRST, cwd, true);
  if (first.code !== 0) return 1;
  return runBeside(CHECKS, () => jest(args, cwd), cwd);
}

if (require.main === module) {
  const root = path.join(__dirname, "..");
  main(process.argv.slice(2), root).then((code) => {
    process.exitCode = code;
  });
}

module.exports = { CHECKS, FIRST, runBeside };
