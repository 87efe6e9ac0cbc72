#!/usr/bin/env node
/**
 * Where a test run's processes spend their CPU, process by process (docs/testing.md, "Where the
 * suite's time goes"). `PB_FILE_CPU` says which test file spent it; this says in what: npm's
 * installs, tsc, the CLI, the demo. Plain JavaScript: it is preloaded into processes of every kind.
 *
 * - Preloaded (`PB_PROCESS_CPU=FILE NODE_OPTIONS="--require $PWD/scripts/process-cpu.js" npm test`):
 *   every Node process that exits normally appends one JSON line to FILE, its own CPU time
 *   (`process.cpuUsage()`, not its children's), its wall time, cwd and command line. A process killed
 *   by a signal (a plugin, a host or a controller a test stops) writes nothing: what `PB_FILE_CPU`
 *   counts beyond these lines is theirs. It prints nothing, so no test's output changes.
 * - Run (`node scripts/process-cpu.js FILE`): the lines summed by kind of process, largest first.
 */
"use strict";
const fs = require("node:fs");

/** The kinds of process, first match wins: a name and what its command line matches. */
const KINDS = [
  ["jest's workers", /jest-worker/],
  ["jest", /jest\/bin\/jest|\.bin\/jest/],
  ["check: eslint", /\.bin\/eslint/],
  ["check: prettier", /\.bin\/prettier/],
  ["check: typecheck", /tsc -p tsconfig\.json --noEmit/],
  ["tsc: the build", /tsc .*tsconfig\.build\.json/],
  ["tsc: a program under Pulumi's template tsconfig", /tsc --noEmit -p/],
  ["a plugin that exited (the compile cache's warm-up, a test's)", /run-plugin/],
  ["a policy pack that exited", /run-policy-pack/],
  ["the CLI", /dist\/cli\/main\.js|\.bin\/pulumi-boundary/],
  ["the demo", /examples\/demo\.js/],
  ["scripts/lifecycle.js", /lifecycle\.js/],
  ["npm", /npm-cli\.js|\/npm\b/],
];

/** The kind of a process from its command line, with the CLI's or npm's subcommand. */
function kindOf(argv) {
  const found = KINDS.find(([, pattern]) => pattern.test(argv));
  if (!found) return `other: ${argv.split(" ")[0].split("/").slice(-2).join("/")}`;
  const [name] = found;
  if (name === "the CLI") return `the CLI: ${/(?:main\.js|pulumi-boundary) (\S+)/.exec(argv)?.[1] ?? "(no command)"}`;
  if (name === "npm") return `npm ${/npm(?:-cli\.js)? (\S+)/.exec(argv)?.[1] ?? ""}`.trim();
  return name;
}

/** Prints the lines of `file` summed by kind: CPU-s, processes, kind. */
function summarize(file) {
  const lines = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
  const byKind = new Map();
  for (const line of lines) {
    const kind = kindOf(line.argv);
    const sum = byKind.get(kind) ?? { runs: 0, ms: 0 };
    sum.runs++;
    sum.ms += line.ms;
    byKind.set(kind, sum);
  }
  const rows = [...byKind].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((t, [, s]) => t + s.ms, 0);
  process.stdout.write("  CPU-s  runs  process\n");
  for (const [kind, s] of rows) process.stdout.write(`${(s.ms / 1000).toFixed(1).padStart(7)} ${String(s.runs).padStart(5)}  ${kind}\n`);
  process.stdout.write(`${(total / 1000).toFixed(1).padStart(7)} ${String(lines.length).padStart(5)}  in all (processes that exited normally)\n`);
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: node scripts/process-cpu.js FILE (the file PB_PROCESS_CPU named)\n");
    process.exitCode = 2;
  } else summarize(file);
} else if (process.env.PB_PROCESS_CPU) {
  const out = process.env.PB_PROCESS_CPU;
  const started = Date.now();
  process.on("exit", () => {
    const used = process.cpuUsage();
    const line = {
      pid: process.pid,
      ms: Math.round((used.user + used.system) / 1000),
      wallMs: Date.now() - started,
      cwd: process.cwd(),
      argv: process.argv.slice(1).join(" ").slice(0, 300),
    };
    try {
      fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
    } catch {
      // a census line lost is no reason to change how the process ends
    }
  });
}

module.exports = { kindOf };
