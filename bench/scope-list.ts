/**
 * 100,000 Targets read the two ways a user reads a whole estate, against the bin's controller
 * emulating the newest release with Boundary's default rate limits (its limiter on), in a process
 * of its own: the plugin's `List` over gRPC, page after page as `pulumi do … list --all` asks, and
 * `pulumi-boundary import --scope global --recursive` (this checkout's bin, dist/cli/main.js, which
 * `npx pulumi-boundary` runs, started by node without npx's own start-up). Each: wall time against the quota floor (the least time the
 * limiter allows for the calls made), the calls (the controller's /metrics) against the minimum
 * (a page of 1,000 per call; List also makes the one refresh call that finds Targets created while
 * it paged), and the process's resident memory sampled every 50 ms: where it
 * stands a tenth of the way in, its peak, and peak over that (flat: a page at a time); and the CPU
 * seconds of the reader and of the controller (which of them sets the pace). Median
 * (min–max) of RUNS runs of each, taken in turn against one controller.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { PAGED, TOKEN, listPage, plugin } from "./list";
import { progress } from "./progress";
import { counted, cpuSeconds, defaultQuota, delta, memoryMiB, quotaFloorMs, totals } from "./quota-floor";
import { medianRange } from "./spread";

const TARGETS = Number(process.env.BENCH_SCOPE_TARGETS ?? 100_000);
const RUNS = Number(process.env.BENCH_SCOPE_RUNS ?? 3);
/**
 * BENCH_SCOPE_HEAP_MIB caps the readers' heap (V8's --max-old-space-size): uncapped, as users run
 * them, V8 lets garbage pile up before it collects, and RSS says little of what is held; capped
 * below what 100,000 Targets take, a reader that holds them all fails.
 */
const HEAP = process.env.BENCH_SCOPE_HEAP_MIB ? `--max-old-space-size=${Number(process.env.BENCH_SCOPE_HEAP_MIB)}` : "";
/**
 * BENCH_SCOPE_PROFILE=DIR runs the controller under V8's profiler (`--cpu-prof`): its profile of
 * the whole bench (seeding, then every read) lands in DIR when the bench stops it.
 */
const PROFILE = process.env.BENCH_SCOPE_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_SCOPE_PROFILE)}`] : [];
/** Boundary's largest (and default) page: the fewest list calls that can read the estate. */
const PAGE = 1000;

/** One read of the estate. */
interface Read {
  ms: number;
  calls: number;
  refused: number;
  floorMs: number;
  /** Resident memory a tenth of the way in (by pages for List, by time for import), at its peak, MiB. */
  tenthMiB: number;
  peakMiB: number;
  /** CPU seconds of the reading process (the plugin, or the CLI) and of the controller. */
  cpu: number;
  controllerCpu: number;
}

/**
 * Samples a process's resident memory every 50 ms until `stop`: the samples in order, and its CPU
 * seconds since the sampler started, as last seen (a process that has exited is read no more).
 */
function sampler(pid: number): { stop: () => { samples: number[]; cpu: number } } {
  const samples: number[] = [];
  const cpu0 = cpuSeconds(pid);
  let cpu = 0;
  const take = () => {
    try {
      samples.push(memoryMiB(pid, "VmRSS"));
      cpu = cpuSeconds(pid) - cpu0;
    } catch {
      // the process has ended: the samples so far are all there are
    }
  };
  take();
  const timer = setInterval(take, 50);
  return { stop: () => (clearInterval(timer), take(), { samples, cpu }) };
}

/** The seeded controller with its limiter on, in its own process; its API and ops URLs and stop. */
async function startLimited(root: string): Promise<{ apiUrl: string; opsUrl: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ["--expose-gc", ...PROFILE, path.join(root, "dist", "harness", "loaded-controller.js"), PAGED.release, String(TARGETS), TOKEN, "limited"],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise((r) => child.once("exit", r));
  const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error("the controller process exited");
  const { apiUrl, opsUrl } = JSON.parse(first.value) as { apiUrl: string; opsUrl: string };
  return { apiUrl, opsUrl, pid: child.pid!, stop: async () => void (child.kill(), await exited) };
}

/** The phase's calls and floor from the controller's counts before and after. */
async function callsSince(
  c: Controller,
  before: { calls: Map<string, number>; cpu: number },
): Promise<Pick<Read, "calls" | "refused" | "floorMs" | "controllerCpu">> {
  const calls = delta(await counted(c.opsUrl), before.calls);
  const { total, refused } = totals(calls);
  return { calls: total, refused, floorMs: quotaFloorMs(calls, defaultQuota), controllerCpu: cpuSeconds(c.pid) - before.cpu };
}

type Controller = Awaited<ReturnType<typeof startLimited>>;

/** The controller's counts and CPU now. */
async function mark(c: Controller): Promise<{ calls: Map<string, number>; cpu: number }> {
  return { calls: await counted(c.opsUrl), cpu: cpuSeconds(c.pid) };
}

/** `List --all` through the plugin, one call per page, as `pulumi do` asks. */
async function listRun(root: string, c: Controller): Promise<Read> {
  const host = await plugin(root, c.apiUrl, HEAP);
  try {
    const before = await mark(c);
    const rss = sampler(host.pid);
    let tenth = 0;
    let listed = 0;
    const started = performance.now();
    for (let token = "", pages = 0; pages === 0 || token; pages++) {
      if (pages === Math.ceil(TARGETS / PAGE / 10)) tenth = memoryMiB(host.pid, "VmRSS");
      const page = await listPage(host, token);
      listed += page.results;
      token = page.next;
    }
    const ms = performance.now() - started;
    const { samples, cpu } = rss.stop();
    if (listed !== TARGETS) throw new Error(`List --all: ${listed} targets, not ${TARGETS}`);
    return { ms, ...(await callsSince(c, before)), tenthMiB: tenth, peakMiB: Math.max(...samples), cpu };
  } finally {
    await host.stop();
  }
}

/** `pulumi-boundary import --scope global --recursive --out FILE`, the bin run by node. */
async function importRun(root: string, c: Controller): Promise<Read> {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-import-"));
  const out = path.join(dir, "targets.json");
  try {
    const before = await mark(c);
    const started = performance.now();
    const child = spawn(process.execPath, [path.join(root, "dist", "cli", "main.js"), "import", "--scope", "global", "--recursive", "--out", out], {
      env: { ...process.env, BOUNDARY_ADDR: c.apiUrl, BOUNDARY_TOKEN: TOKEN, NODE_OPTIONS: HEAP },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const rss = sampler(child.pid!);
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    const ms = performance.now() - started;
    const { samples, cpu } = rss.stop();
    if (code !== 0 || !existsSync(out)) throw new Error(`import exited ${code}: ${stderr}`);
    const written = (JSON.parse(readFileSync(out, "utf8")) as { resources: unknown[] }).resources.length;
    if (written !== TARGETS) throw new Error(`import wrote ${written} targets, not ${TARGETS}`);
    // a tenth of the way in by time: the CLI's pages are not visible from outside
    const tenth = samples[Math.floor(samples.length / 10)] ?? NaN;
    return { ms, ...(await callsSince(c, before)), tenthMiB: tenth, peakMiB: Math.max(...samples), cpu };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows: List and import, each a median (min–max) of RUNS runs. */
export async function benchScopeList(root: string): Promise<string[][]> {
  progress(`List and import: seeding ${TARGETS.toLocaleString("en")} targets on --emulate ${PAGED.release} with its rate limiter on`);
  const c = await startLimited(root);
  const runs: Record<"list" | "import", Read[]> = { list: [], import: [] };
  try {
    for (let r = 0; r < RUNS; r++) {
      progress(`List and import: run ${r + 1} of ${RUNS}, List --all through the plugin`);
      runs.list.push(await listRun(root, c));
      progress(`List and import: run ${r + 1} of ${RUNS}, pulumi-boundary import --scope global --recursive`);
      runs.import.push(await importRun(root, c));
    }
  } finally {
    await c.stop();
  }
  const pages = Math.ceil(TARGETS / PAGE);
  const row = (name: string, rs: Read[], minimum: string) => {
    const floor = rs[0]!.floorMs;
    const calls = rs.map((x) => x.calls);
    return [
      name,
      medianRange(
        rs.map((x) => x.ms / 1000),
        1,
      ),
      (floor / 1000).toFixed(0),
      floor > 0
        ? medianRange(
            rs.map((x) => x.ms / floor),
            2,
          )
        : "— (one window)",
      Math.min(...calls) === Math.max(...calls) ? String(calls[0]) : medianRange(calls, 0),
      minimum,
      String(Math.max(...rs.map((x) => x.refused))),
      medianRange(
        rs.map((x) => x.tenthMiB),
        0,
      ),
      medianRange(
        rs.map((x) => x.peakMiB),
        0,
      ),
      medianRange(
        rs.map((x) => x.peakMiB / x.tenthMiB),
        2,
      ),
      medianRange(
        rs.map((x) => x.cpu),
        1,
      ),
      medianRange(
        rs.map((x) => x.controllerCpu),
        1,
      ),
    ];
  };
  const n = TARGETS.toLocaleString("en");
  // List's pass over more than one page ends with one refresh call (Boundary's list token: what was created meanwhile)
  return [
    row(`List --all of ${n} (plugin, gRPC)`, runs.list, `${pages + 1} (${pages} pages + 1 refresh)`),
    row(`import --scope global --recursive of ${n}`, runs.import, `${pages} (pages)`),
  ];
}

/** The table's header. */
export const SCOPE_LIST_HEADER = [
  "case",
  "wall s",
  "quota floor s",
  "wall / floor",
  "calls",
  "minimum",
  "429s (most)",
  "RSS a tenth in, MiB",
  "peak RSS",
  "peak / a tenth in",
  "CPU s: reader",
  "controller",
];

// `node dist/bench/scope-list.js`: this benchmark alone
if (require.main === module) {
  void (async () => {
    const { printTable } = await import("./table");
    printTable(SCOPE_LIST_HEADER, await benchScopeList(path.join(__dirname, "..", "..")));
  })().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
