/**
 * scripts/process-cpu.js, the census of a run's processes (docs/testing.md): preloaded, a process
 * that exits writes one line of its own CPU and command line and prints nothing; one killed writes
 * nothing; run on the file, the lines are summed by kind.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const SCRIPT = path.join(__dirname, "..", "..", "scripts", "process-cpu.js");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript, as the build runs it
const { kindOf } = require(SCRIPT) as { kindOf(argv: string): string };

let dir: string;
let census: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "pb-process-cpu-"));
  census = path.join(dir, "census.jsonl");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const preloaded = () => ({ ...process.env, PB_PROCESS_CPU: census, NODE_OPTIONS: `--require ${SCRIPT}` });
const lines = () =>
  readFileSync(census, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { pid: number; ms: number; wallMs: number; cwd: string; argv: string });

test("a process that exits writes one line: its own CPU, cwd and command line; its output is its own", () => {
  const busy = path.join(dir, "busy.js");
  writeFileSync(
    busy,
    'const t = process.cpuUsage(); while (process.cpuUsage(t).user + process.cpuUsage(t).system < 200_000); process.stdout.write("done\\n");\n',
  );
  const r = spawnSync(process.execPath, [busy, "--flag"], { cwd: dir, env: preloaded(), encoding: "utf8" });
  expect([r.status, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
  const [line, ...more] = lines();
  expect(more).toEqual([]);
  expect(line).toMatchObject({ pid: r.pid, cwd: dir, argv: `${busy} --flag` });
  expect(line!.ms).toBeGreaterThanOrEqual(200); // it spun 200 ms of its own CPU
});

test("a process killed by a signal writes nothing", async () => {
  const before = lines().length;
  const child = spawn(process.execPath, ["-e", "setInterval(() => undefined, 1000); process.stdout.write('up\\n')"], {
    env: preloaded(),
    stdio: ["ignore", "pipe", "ignore"],
  });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("close", resolve));
  expect(lines().length).toBe(before);
});

test("the summary sums the lines by kind of process, largest first", () => {
  const file = path.join(dir, "summed.jsonl");
  const line = (ms: number, argv: string) => JSON.stringify({ pid: 1, ms, wallMs: ms, cwd: dir, argv });
  writeFileSync(
    file,
    [
      line(400, "/r/dist/cli/main.js dev --help"),
      line(300, "/r/dist/cli/main.js dev --api-addr x"),
      line(1500, "/usr/lib/node_modules/npm/bin/npm-cli.js install --force"),
    ].join("\n") + "\n",
  );
  const out = execFileSync(process.execPath, [SCRIPT, file], { encoding: "utf8" });
  expect(out.split("\n")).toEqual([
    "  CPU-s  runs  process",
    "    1.5     1  npm install",
    "    0.7     2  the CLI: dev",
    "    2.2     3  in all (processes that exited normally)",
    "",
  ]);
});

test("kinds: the checks, tsc's two uses, the CLI's commands, npm's, anything else by its file", () => {
  expect(kindOf("/r/node_modules/.bin/tsc -p tsconfig.json --noEmit --incremental")).toBe("check: typecheck");
  expect(kindOf("/c/node_modules/typescript/bin/tsc -p /c/tsconfig.build.json --noCheck")).toBe("tsc: the build");
  expect(kindOf("/r/node_modules/typescript/bin/tsc --noEmit -p /p/t --pretty false")).toBe("tsc: a program under Pulumi's template tsconfig");
  expect(kindOf("/p/node_modules/.bin/pulumi-boundary --version")).toBe("the CLI: --version");
  expect(kindOf("/usr/bin/npm ci --no-audit")).toBe("npm ci");
  expect(kindOf("/r/dist/harness/loaded-controller.js 0.21 10")).toBe("other: harness/loaded-controller.js");
});
