/**
 * Throughput of the controller as users start it (its bin, `pulumi-boundary dev` with default
 * flags: bin.ts) against a bare node:http server answering the same bytes (bare.ts: in a process of
 * its own, a GET answered at once), both loaded by the same client (load.ts, 32 connections) in
 * the same run. Each case: both servers warmed, then ROUNDS pairs of rounds interleaved (bare then
 * controller, then controller then bare, …), so that both sides of every ratio meet the same
 * moment's machine; each figure the median of the rounds' with their range (goals: GET one target
 * ≥ 85% of bare, a list of 1,000 ≥ 90%; a create has none: it parses, validates and stores what
 * the bare server never reads). Also the heap cost of 100,000 stored targets, and /health while a
 * list of 100,000 is written.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { defaultFixtures } from "../controller";
import { Store } from "../controller/store";
import { cpuMicros, startBin } from "./bin";
import { load, requestBytes } from "./load";
import { progress } from "./progress";
import { spread } from "./spread";
import { sleep } from "../common/sleep";
import { DEFAULT_RELEASE, NEWEST } from "../wire/releases";

/** Pairs of rounds per case (BENCH_ROUNDS), and each round's seconds (BENCH_SECONDS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
/** `--quick`: pairs and seconds per round for GET and the list (a create, with no goal, 3 pairs); the whole of --quick stays under a minute. */
export const QUICK = { rounds: 7, seconds: 0.7, createRounds: 3 } as const;
/** Before a case's rounds, each server answers this long unmeasured (the JIT of both, and of the client, settles). */
const WARM_SECONDS = 0.5;

/** Connections the client keeps open (the measure: 32, as a busy pipeline's clients). */
const CONNECTIONS = 32;

/** One round against one server: requests/s, µs of the server's CPU per request, µs of the client's. */
interface Round {
  rps: number;
  cpuPerRequest: number;
  clientPerRequest: number;
}

/**
 * Which server goes first in pair `round` (0-based): bare, then the controller, and so on (A B B A …:
 * a drift in the machine's load falls on both sides alike).
 */
export function bareFirst(round: number): boolean {
  return round % 2 === 0;
}

/** A load run against `url`, with the CPU the server (`pid`) used meanwhile. */
async function run(url: string, request: (n: number) => Buffer, seconds: number, pid: number, statuses: number[]): Promise<Round> {
  const before = cpuMicros(pid);
  const r = await load(url, { connections: CONNECTIONS, seconds, request, statuses });
  const used = cpuMicros(pid) - before;
  return { rps: r.requests / r.seconds, cpuPerRequest: used / r.requests, clientPerRequest: r.clientMicrosPerRequest };
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

const median = (xs: number[]) => spread(xs).median;
const percent = (x: number) => `${(x * 100).toFixed(0)}%`;
/** `median% (min%–max%)` of ratios. */
const percentRange = (xs: number[]) => {
  const v = spread(xs);
  return `${percent(v.median)} (${percent(v.min)}–${percent(v.max)})`;
};

/** The header of benchController's rows. */
export const CONTROLLER_HEADER = [
  "case, requests/s",
  "targets stored",
  "bare node:http",
  "controller",
  "ratio (rounds' min–max)",
  "bare µs/req",
  "controller µs/req",
  "CPU ratio (min–max)",
  "client µs/req",
];

/**
 * Rows (CONTROLLER_HEADER): case, targets stored; bare's and the controller's requests/s (medians
 * over the rounds), the median and range of the pairs' ratios; then each server's CPU per request
 * (µs, medians) and the pairs' bare / controller: the same comparison, in a unit the machine's
 * other load moves less; and the client's own CPU per request (it shares the two cores).
 */
export async function benchController(quick = false): Promise<string[][]> {
  const s = await startBin(1000);
  const bodies = path.join(mkdtempSync(path.join(tmpdir(), "pb-bench-")), "bodies.json");
  writeFileSync(bodies, JSON.stringify(s.bodies));
  const bare = await subject<{ bare: string }>("bench/bare.js", [bodies]);
  try {
    const headers = { authorization: `Bearer ${s.token}` };
    const get = (p: string) => {
      const bytes = requestBytes(s.apiUrl, "GET", p, headers);
      return () => bytes;
    };
    // every create a name of its own, across all the case's runs (the controller refuses a name taken in the project)
    const prefix = `bench-${process.pid}-`;
    let made = 0;
    const create = () =>
      requestBytes(s.apiUrl, "POST", "/v1/targets", headers, JSON.stringify({ scope_id: "p_1234567890", name: prefix + made++, type: "tcp" }));
    const cases: { name: string; request: (n: number) => Buffer; rounds: number; statuses: number[] }[] = [
      { name: "GET one target", request: get(`/v1/targets/${s.first}`), rounds: quick ? QUICK.rounds : ROUNDS, statuses: [200] },
      {
        name: `list ${s.listItems.toLocaleString("en")} targets (${(s.listBytes / 1024).toFixed(0)} KiB)`,
        request: get("/v1/targets?scope_id=p_1234567890"),
        rounds: quick ? QUICK.rounds : ROUNDS,
        statuses: [200],
      },
      { name: "create a target", request: create, rounds: quick ? QUICK.createRounds : ROUNDS, statuses: [200] },
    ];
    const seconds = quick ? QUICK.seconds : SECONDS;
    // how many Targets the controller holds (the create case adds its own)
    const stored = async () =>
      ((await (await fetch(`${s.apiUrl}/v1/targets?scope_id=p_1234567890`, { headers })).json()) as { items?: unknown[] }).items?.length ?? 0;
    const sides = {
      bare: (c: (typeof cases)[number], t: number) => run(bare.first.bare, c.request, t, bare.child.pid!, c.statuses),
      ours: (c: (typeof cases)[number], t: number) => run(s.apiUrl, c.request, t, s.child.pid!, c.statuses),
    };
    const rows: string[][] = [];
    for (const c of cases) {
      const before = await stored();
      progress(`controller throughput: ${c.name}, warming both servers (${WARM_SECONDS} s each)`);
      await sides.bare(c, WARM_SECONDS);
      await sides.ours(c, WARM_SECONDS);
      const bares: Round[] = [];
      const ours: Round[] = [];
      for (let round = 0; round < c.rounds; round++) {
        const order = bareFirst(round) ? (["bare", "ours"] as const) : (["ours", "bare"] as const);
        progress(`controller throughput: ${c.name}, pair ${round + 1} of ${c.rounds} (${order.join(" then ")}, ${seconds} s each)`);
        for (const side of order) (side === "bare" ? bares : ours).push(await sides[side](c, seconds));
      }
      const after = await stored();
      const ratios = ours.map((o, i) => o.rps / bares[i]!.rps);
      const cpuRatios = ours.map((o, i) => bares[i]!.cpuPerRequest / o.cpuPerRequest);
      rows.push([
        c.name,
        before === after ? before.toLocaleString("en") : `${before.toLocaleString("en")} → ${after.toLocaleString("en")}`,
        median(bares.map((b) => b.rps)).toFixed(0),
        median(ours.map((o) => o.rps)).toFixed(0),
        percentRange(ratios),
        median(bares.map((b) => b.cpuPerRequest)).toFixed(1),
        median(ours.map((o) => o.cpuPerRequest)).toFixed(1),
        percentRange(cpuRatios),
        median([...bares, ...ours].map((r) => r.clientPerRequest)).toFixed(1),
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
