/**
 * What Node's compile cache saves a plugin's start, as the suite starts them (harness/compile-cache.ts):
 * the package packed and installed from its tarball, its plugin started by Pulumi's `run-plugin`
 * as the Node language host starts it, the CPU time of the plugin's process from /proc when it has
 * printed its port; cache off and cache warm alternated, RUNS each (BENCH_PLUGIN_RUNS, default 6),
 * medians (min–max). `node dist/bench/plugin-start.js` (about a minute, the pack included).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { warm } from "../harness/compile-cache";
import { packAndInstall } from "../harness/pack";
import { portOf } from "../harness/provider-host";
import { medianRange } from "./spread";
import { printTable } from "./table";

const RUNS = Number(process.env.BENCH_PLUGIN_RUNS ?? 6);

/** CPU ms (user and system) of process `pid` so far. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks, 100 a second on Linux
}

/** Starts `program`'s plugin with NODE_COMPILE_CACHE `cache` ("" for none); its CPU ms once its port is out. */
async function start(program: string, cache: string): Promise<number> {
  const runPlugin = require.resolve("@pulumi/pulumi/cmd/run-plugin", { paths: [program] });
  const child = spawn(process.execPath, [runPlugin, path.join(program, "node_modules", "pulumi-boundary"), "127.0.0.1:1"], {
    cwd: program,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_COMPILE_CACHE: cache, PULUMI_NODEJS_PROJECT: "plugin-start" },
  });
  try {
    await portOf(child, "plugin");
    return cpuMs(child.pid!);
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill();
    await exited;
  }
}

async function main(): Promise<void> {
  const root = path.join(__dirname, "..", "..");
  const { program, tarball } = await packAndInstall(root);
  const cache = mkdtempSync(path.join(tmpdir(), "pb-compile-cache-bench-"));
  try {
    process.env.NODE_COMPILE_CACHE = cache;
    await warm(program, path.join(root, "dist", "harness", "flush-at-port.js"));
    const off: number[] = [];
    const on: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      off.push(await start(program, ""));
      on.push(await start(program, cache));
    }
    printTable(
      ["a plugin's start to its port, CPU ms", "no cache", "compile cache warm", "warm / none"],
      [
        [
          "run-plugin, the packed package",
          medianRange(off, 0),
          medianRange(on, 0),
          medianRange(
            on.map((x, i) => x / off[i]!),
            2,
          ),
        ],
      ],
    );
  } finally {
    rmSync(cache, { recursive: true, force: true });
    rmSync(path.dirname(tarball), { recursive: true, force: true });
  }
}

void main();
