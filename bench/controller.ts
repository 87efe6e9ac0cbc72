/**
 * Throughput of the controller as users start it (its bin, `pulumi-boundary dev` with default
 * flags: bin.ts) against a bare node:http server answering the same bytes (bare.ts: in a process of
 * its own, a GET answered at once), measured in the same run with autocannon (32 connections), the
 * two taken in turn ROUNDS times, each figure the median and range of the rounds' ratios (goals:
 * GET one target ≥ 85% of bare, a list of 1,000 ≥ 90%; a create has none: it parses, validates and
 * stores what the bare server never reads). Also the heap cost of
 * 100,000 stored targets, and /health while a list of 100,000 is written.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { defaultFixtures } from "../controller";
import { Store } from "../controller/store";
import { cpuMicros, startBin } from "./bin";
import { progress } from "./progress";
import { sleep } from "../common/sleep";
import { DEFAULT_RELEASE, NEWEST } from "../wire/releases";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** `--quick`: the same three rounds, each case measured this many seconds (the whole of --quick stays under a minute). */
const QUICK_SECONDS = 1;

/** Connections autocannon keeps open (the measure: 32, as a busy pipeline's clients). */
const CONNECTIONS = 32;

/** Requests per second against `url`, and µs of the server's CPU per request (`pid` is the server's process). */
async function run(url: string, opts: Partial<autocannon.Options>, pid: number): Promise<{ rps: number; cpuPerRequest: number }> {
  const before = cpuMicros(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...opts } as autocannon.Options);
  const used = cpuMicros(pid) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${opts.method ?? "GET"} ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, cpuPerRequest: used / result.requests.total };
}

/** Starts `script` (in dist/bench or dist/harness); resolves with the first line it prints, as JSON, and a reader of the next ones. */
async function subject<T>(script: string, args: string[], nodeArgs: string[] = []): Promise<{ child: ChildProcess; first: T; next: () => Promise<unknown> }> {
  const child = spawn(process.execPath, [...nodeArgs, path.join(__dirname, "..", script), ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`${script} exited`);
    return JSON.parse(line.value) as unknown;
  };
  return { child, first: (await next()) as T, next };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percent = (x: number) => `${(x * 100).toFixed(0)}%`;

/**
 * Rows: case, targets stored; bare's and the controller's requests/s (medians over the rounds),
 * the ratio's median and range; then each server's CPU per request (µs, medians) and bare's
 * over the controller's: the same comparison, in a unit the machine's other load moves less.
 */
export async function benchController(quick = false): Promise<string[][]> {
  const s = await startBin(1000);
  const bodies = path.join(mkdtempSync(path.join(tmpdir(), "pb-bench-")), "bodies.json");
  writeFileSync(bodies, JSON.stringify(s.bodies));
  const bare = await subject<{ bare: string }>("bench/bare.js", [bodies]);
  const rounds = ROUNDS;
  const seconds = quick ? QUICK_SECONDS : SECONDS;
  try {
    const headers = { authorization: `Bearer ${s.token}` };
    const cases: [string, string, Partial<autocannon.Options>][] = [
      ["GET one target", `/v1/targets/${s.first}`, { headers }],
      [`list ${s.listItems.toLocaleString("en")} targets (${(s.listBytes / 1024).toFixed(0)} KiB)`, "/v1/targets?scope_id=p_1234567890", { headers }],
      [
        "create a target",
        "/v1/targets",
        { method: "POST", headers, idReplacement: true, body: JSON.stringify({ scope_id: "p_1234567890", name: "bench-[<id>]", type: "tcp" }) },
      ],
    ];
    // how many Targets the controller holds (the create case adds its own)
    const stored = async () =>
      ((await (await fetch(`${s.apiUrl}/v1/targets?scope_id=p_1234567890`, { headers })).json()) as { items?: unknown[] }).items?.length ?? 0;
    const rows: string[][] = [];
    for (const [name, p, opts] of cases) {
      const bares: { rps: number; cpuPerRequest: number }[] = [];
      const ours: { rps: number; cpuPerRequest: number }[] = [];
      const before = await stored();
      for (let round = 1; round <= rounds; round++) {
        progress(`controller throughput: ${name}, round ${round} of ${rounds} (bare, then the bin's controller, ${seconds} s each)`);
        bares.push(await run(bare.first.bare + p, { ...opts, duration: seconds }, bare.child.pid!));
        ours.push(await run(s.apiUrl + p, { ...opts, duration: seconds }, s.child.pid!));
      }
      const after = await stored();
      const ratios = ours.map((o, i) => o.rps / bares[i]!.rps);
      const [bareCpu, ourCpu] = [median(bares.map((b) => b.cpuPerRequest)), median(ours.map((o) => o.cpuPerRequest))];
      rows.push([
        name,
        before === after ? before.toLocaleString("en") : `${before.toLocaleString("en")} → ${after.toLocaleString("en")}`,
        median(bares.map((b) => b.rps)).toFixed(0),
        median(ours.map((o) => o.rps)).toFixed(0),
        percent(median(ratios)),
        `${percent(Math.min(...ratios))}–${percent(Math.max(...ratios))}`,
        bareCpu.toFixed(1),
        ourCpu.toFixed(1),
        percent(bareCpu / ourCpu),
      ]);
    }
    return rows;
  } finally {
    s.child.kill("SIGKILL");
    bare.child.kill();
  }
}

/**
 * /health while a recursive list of 100,000 Targets is written (the controller in its own
 * process, the list read by this one as fast as it comes): the slowest of the /health answers
 * asked every 10 ms, by the clock (other processes' load counts here), and the longest the
 * controller's thread held its loop (its own CPU time, what the controller answers for).
 */
export async function benchHealthDuringList(): Promise<string[][]> {
  const rows: string[][] = [];
  const token = "at_1234567890_s1bench";
  // the spec's controller answers a list whole; the newest release pages it
  for (const [r, filter, what] of [
    [DEFAULT_RELEASE, "", "one answer of all 100,000 (~60 MB)"],
    [NEWEST, '"/item/name" matches "-1"', "a filtered page (filter and sort over 100,000)"],
  ] as const) {
    const emulation = r.release;
    const label = `${emulation}: ${what}`;
    progress(`/health during a list of 100,000 targets (${emulation}): seeding`);
    const loaded = await subject<{ apiUrl: string; opsUrl: string }>("harness/loaded-controller.js", [emulation, "100000", token], ["--expose-gc"]);
    const ask = async (command: string) => {
      loaded.child.stdin!.write(command + "\n");
      return ((await loaded.next()) as { longestBlockMs: number }).longestBlockMs;
    };
    try {
      const query = new URLSearchParams({ scope_id: "global", recursive: "true", ...(filter ? { filter } : {}) });
      let slowest = 0;
      let asked = 0;
      let listMs = 0;
      await ask("reset");
      for (let round = 1; round <= 3; round++) {
        progress(`/health during a list of 100,000 targets (${emulation}): list ${round} of 3`);
        let listing = true;
        const started = performance.now();
        const list = fetch(`${loaded.first.apiUrl}/v1/targets?${query}`, { headers: { authorization: `Bearer ${token}` } })
          .then((res) => res.arrayBuffer())
          .finally(() => (listing = false));
        while (listing) {
          const t = performance.now();
          await (await fetch(`${loaded.first.opsUrl}/health`)).arrayBuffer();
          slowest = Math.max(slowest, performance.now() - t);
          asked++;
          await sleep(10);
        }
        await list;
        listMs = Math.max(listMs, performance.now() - started);
      }
      rows.push([label, listMs.toFixed(0), String(asked), slowest.toFixed(0), (await ask("report")).toFixed(0)]);
    } finally {
      loaded.child.kill();
    }
  }
  return rows;
}

/** Heap held by 100,000 targets in the store (in this process, after GC when exposed). */
export function storeMemory(count = 100_000): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const store = new Store(defaultFixtures());
  for (let i = 0; i < count; i++) {
    store.createTarget({
      scope_id: "p_1234567890",
      name: `t-${i}`,
      type: "tcp",
      description: "benchmark target",
      host_set_ids: ["hsst_1234567890"],
      attributes: { default_port: 22 },
    });
  }
  gc?.();
  const used = process.memoryUsage().heapUsed - before;
  if (store.size !== count) throw new Error("store lost targets");
  return used;
}
