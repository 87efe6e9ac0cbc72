/**
 * What a command costs the user before it does any work: the package packed and installed from its
 * tarball, its bin (`node_modules/.bin/pulumi-boundary`) run as a shell runs it, with help or a
 * refused flag, each command's own CPU time (`process.cpuUsage()` at exit, written by
 * scripts/process-cpu.js preloaded) against `--version` in the same run, commands taken in turn,
 * RUNS each (BENCH_CLI_RUNS, default 9), medians (min–max). `node dist/bench/cli-start.js` (about a
 * minute, the pack included).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { packAndInstall } from "../harness/pack";
import { medianRange } from "./spread";
import { printTable } from "./table";

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 9);

/** The commands, `--version` first: the baseline, a process that loads next to nothing. */
const COMMANDS: readonly (readonly string[])[] = [
  ["--version"],
  ["--help"],
  ["dev", "--help"],
  ["dev", "--no-such-flag"],
  ["import", "--no-such-flag"],
  ["doctor", "--no-such-flag"],
];

async function main(): Promise<void> {
  const root = path.join(__dirname, "..", "..");
  const { program, tarball } = await packAndInstall(root);
  const dir = mkdtempSync(path.join(tmpdir(), "pb-cli-start-"));
  const census = path.join(dir, "cpu.jsonl");
  const bin = path.join(program, "node_modules", ".bin", "pulumi-boundary");
  const env = { ...process.env, PB_PROCESS_CPU: census, NODE_OPTIONS: `--require ${path.join(root, "scripts", "process-cpu.js")}` };
  try {
    const ms: number[][] = COMMANDS.map(() => []);
    for (let run = 0; run < RUNS; run++) {
      COMMANDS.forEach((args, i) => {
        rmSync(census, { force: true });
        spawnSync(bin, args, { cwd: program, env, stdio: "ignore" });
        // one line: the bin is node itself (its shebang), no wrapper process
        const lines = readFileSync(census, "utf8").trim().split("\n");
        ms[i]!.push((JSON.parse(lines[lines.length - 1]!) as { ms: number }).ms);
      });
    }
    printTable(
      ["command, CPU ms of the process", "median (min–max)", "against --version, same run"],
      COMMANDS.map((args, i) => [
        `pulumi-boundary ${args.join(" ")}`,
        medianRange(ms[i]!, 0),
        medianRange(
          ms[i]!.map((x, r) => x / ms[0]![r]!),
          1,
        ),
      ]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(path.dirname(tarball), { recursive: true, force: true });
  }
}

void main();
