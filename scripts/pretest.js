#!/usr/bin/env node
/**
 * What `npm test` runs before jest: the build (only when dist/ is stale: `npm ci` has just built),
 * the type check, the linter over the whole tree and the format check, all four at once. Each is a
 * single-threaded process that took 20-70 s on a loaded two-core machine one after the other; run
 * together they use both cores, and under load they get their share of the machine as four
 * processes rather than one. Each step's output is printed whole when it ends, with its time; the
 * script fails when any step fails, after all have ended. Plain JavaScript: it runs before
 * anything is compiled.
 */
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");

/** The steps, as `npm run` names them in package.json (test/package/gate.test.ts holds this list). */
const STEPS = ["build:stale", "typecheck", "lint", "format:check"];

/** Runs `npm run <step>` in `cwd` with its output held until it ends; resolves to its exit code. */
function run(step, cwd) {
  const started = Date.now();
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const child = spawn(npm, ["run", "--silent", step], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return new Promise((resolve) => {
    child.on("error", (err) => (out += `${err.message}\n`));
    child.on("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? "ok" : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`> ${step}: ${status} in ${seconds} s\n${out}`);
      resolve(code ?? 1);
    });
  });
}

/** Runs every step of `steps` in `cwd` at once; resolves to 0 once all have ended, 1 if any failed. */
async function runAll(steps, cwd) {
  const codes = await Promise.all(steps.map((step) => run(step, cwd)));
  return codes.every((c) => c === 0) ? 0 : 1;
}

if (require.main === module) {
  runAll(STEPS, path.join(__dirname, "..")).then((code) => {
    process.exitCode = code;
  });
}

module.exports = { STEPS, runAll };
