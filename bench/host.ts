/**
 * The provider as users run it: the package installed from its tarball, loaded by Pulumi's real
 * dynamic-provider host (and as a plugin by run-plugin), driven over gRPC in the engine's order,
 * N Targets at a given concurrency, phase by phase. The floor is a minimal dynamic provider written
 * here that makes the same HTTP calls, installed and served by the same host and driven the same
 * way: the ratio is what this provider adds on top of Pulumi's own cost.
 */
import { TOKEN } from "./start";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { engine, secret, type Engine } from "../harness/engine";
import { packAndInstall } from "../harness/pack";
import { programRequire, serializedProvider, startHost, startPlugin } from "../harness/provider-host";
import { progress } from "./progress";

const PROJECT = "p_1234567890";
const URN = "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/boundary:Target::t";

/**
 * The floor: the same five calls (POST, GET, PATCH, DELETE; nothing for check and diff), nothing
 * else. With `keepTarget`, it also keeps the API's Target in its outputs, as a provider that shows
 * the Target's fields must: the state then weighs about what this package's does, which tells the
 * cost of carrying the outputs through Pulumi's Struct conversions from the cost of this code.
 */
const floorSource = (keepTarget: boolean) => `const undici = require("undici");
const keepTarget = ${keepTarget};
let base, token, pool;
exports.configure = async (req) => {
  base = req.config.get("boundary:addr");
  token = req.config.get("boundary:token");
  pool = new undici.Pool(base, { connections: 8 });
};
async function call(method, path, body) {
  const headers = { authorization: "Bearer " + token, "content-type": "application/json" };
  const res = await pool.request({ method, path, headers, body: body && JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode >= 400) throw new Error(method + " " + path + ": " + res.statusCode + " " + text);
  return text ? JSON.parse(text) : undefined;
}
const outs = (base, t) => ({ ...base, version: t.version, description: t.description, ...(keepTarget ? { target: t } : {}) });
exports.check = async (olds, news) => ({ inputs: news });
exports.diff = async (id, olds, news) => ({ changes: olds.description !== news.description });
exports.create = async (inputs) => {
  const t = await call("POST", "/v1/targets", { scope_id: inputs.scopeId, name: inputs.name, type: "tcp", description: inputs.description });
  return { id: t.id, outs: outs(inputs, t) };
};
exports.read = async (id, props) => { const t = await call("GET", "/v1/targets/" + id); return { id, props: outs(props, t) }; };
exports.update = async (id, olds, news) => {
  const t = await call("PATCH", "/v1/targets/" + id + "?update_mask=description", { version: olds.version, description: news.description });
  return { outs: outs(news, t) };
};
exports.delete = async (id) => { await call("DELETE", "/v1/targets/" + id); };
`;

/** Installs a floor provider as a package of the program, and returns its serialized `__provider`. */
export async function floorProvider(program: string, name: string, keepTarget: boolean): Promise<string> {
  const dir = path.join(program, "node_modules", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, main: "index.js" }));
  writeFileSync(path.join(dir, "index.js"), floorSource(keepTarget));
  const pulumi = programRequire<typeof import("@pulumi/pulumi")>(program, "@pulumi/pulumi");
  const floor = programRequire<object>(program, name);
  return (await pulumi.runtime.serializeFunction(() => floor, { allowSecrets: true })).text;
}

/** Runs `op` for i = 0..n-1, `concurrency` at a time; resolves with the wall time in ms. */
export async function timed(n: number, concurrency: number, op: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) await op(i);
    }),
  );
  return performance.now() - started;
}

/**
 * A process's CPU time so far (user and system, every thread: the JIT, GC and libuv's threads
 * included), in ms, from /proc/<pid>/stat: a unit the machine's other load moves less than wall time.
 */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // the fields after the command's closing parenthesis: utime and stime are the 12th and 13th
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
/** Linux's clock ticks per second for /proc's times (USER_HZ, 100 on every mainstream build). */
const CLOCK_TICKS = 100;

type Phase = "load" | "create" | "preview" | "refresh" | "update" | "delete";

type Phases = Record<Phase, number> & {
  /** The provider process's CPU time per phase, ms (see `processCpuMs`). */
  cpu: Record<Phase, number>;
  /** Bytes the engine stores for one Target (inputs and outputs, `__provider` in each). */
  stateBytes: number;
};

/**
 * The five phases over N Targets through one engine client to the provider process `pid`; `extra`
 * is added to each program's inputs.
 */
async function phases(e: Engine, pid: number, n: number, concurrency: number, extra: Record<string, unknown>): Promise<Phases> {
  const inputs: Record<string, unknown>[] = [];
  const ids: string[] = [];
  const outs: Record<string, unknown>[] = [];
  const cpu = {} as Record<Phase, number>;
  /** Wall time of one phase; its CPU time in the provider process is kept in `cpu`. */
  const phase = async (name: Phase, op: (i: number) => Promise<void>): Promise<number> => {
    const before = processCpuMs(pid);
    const wall = await timed(n, concurrency, op);
    cpu[name] = processCpuMs(pid) - before;
    return wall;
  };
  // the host loads a dynamic provider at the first call that carries it, once per process (once
  // per `pulumi up`): one check first, so that cost is a row of its own, not spread over create's
  const loadCpu = processCpuMs(pid);
  const loadStarted = performance.now();
  await e.check({ scopeId: PROJECT, name: "bench-load", description: "v1", ...extra });
  const load = performance.now() - loadStarted;
  cpu.load = processCpuMs(pid) - loadCpu;
  const create = await phase("create", async (i) => {
    const checked = await e.check({ scopeId: PROJECT, name: `bench-${i}`, description: "v1", ...extra });
    inputs[i] = checked.inputs;
    const created = await e.create(checked.inputs);
    ids[i] = created.id;
    outs[i] = created.props;
  });
  const preview = await phase("preview", async (i) => {
    const checked = await e.check(inputs[i]!, inputs[i]!);
    await e.diff(ids[i]!, outs[i]!, checked.inputs);
  });
  const refresh = await phase("refresh", async (i) => {
    outs[i] = (await e.read(ids[i]!, outs[i]!)).props;
  });
  const update = await phase("update", async (i) => {
    const checked = await e.check({ ...inputs[i]!, description: "v2" }, inputs[i]!);
    await e.diff(ids[i]!, outs[i]!, checked.inputs);
    outs[i] = await e.update(ids[i]!, outs[i]!, checked.inputs, { oldInputs: inputs[i]! });
    inputs[i] = checked.inputs;
  });
  const stateBytes = Buffer.byteLength(JSON.stringify({ inputs: inputs[0], outputs: outs[0] }));
  const del = await phase("delete", async (i) => e.delete(ids[i]!, outs[i]!));
  return { load, create, preview, refresh, update, delete: del, cpu, stateBytes };
}

/**
 * A fresh controller for one run, so no run sees another's Targets: the installed package's own
 * `pulumi-boundary dev`, in its own process as a Boundary controller would be, so the engine's
 * side of the bench (this process) does not share an event loop with the server. `run` is also
 * given the controller's process id (a bench reads its CPU time from /proc).
 */
export async function withController<T>(program: string, run: (addr: string, banner: string, pid: number) => Promise<T>, flags: string[] = []): Promise<T> {
  const manifest = require.resolve("pulumi-boundary/package.json", { paths: [program] });
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  const cli = path.join(path.dirname(manifest), bin["pulumi-boundary"]!);
  const args = [cli, "dev", "--api-addr", "127.0.0.1:0", "--ops-addr", "127.0.0.1:0", "--token", TOKEN, ...flags];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((r) => child.once("exit", r));
  try {
    let banner = "";
    const addr = await new Promise<string>((resolve, reject) => {
      let found = false;
      child.stdout!.on("data", (d) => {
        // the banner first, then one log line per request: read the address, drain the rest
        if (found) return;
        banner += d;
        const m = /API address: (\S+)/.exec(banner);
        if (m && /Static credentials:.*\n/.test(banner)) {
          found = true;
          resolve(m[1]!);
        }
      });
      child.once("exit", (code) => reject(new Error(`the controller exited ${code}: ${banner}`)));
    });
    return await run(addr, banner, child.pid!);
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

/** A dynamic provider (`__provider` text) through a fresh dynamic-provider host. */
function viaDynamicHost(program: string, providerText: string, n: number, concurrency: number): Promise<Phases> {
  return withController(program, async (addr) => {
    const host = await startHost(program);
    try {
      const e = engine(host, URN);
      await e.configure({ "boundary:addr": addr, "boundary:token": secret(TOKEN) });
      return await phases(e, host.pid, n, concurrency, { __provider: providerText });
    } finally {
      await host.stop();
    }
  });
}

/** This package as a plugin, started by run-plugin. */
function viaPlugin(program: string, n: number, concurrency: number): Promise<Phases> {
  return withController(program, async (addr) => {
    const plugin = await startPlugin(program);
    try {
      const e = engine(plugin, URN.replace("pulumi-nodejs:dynamic/boundary:Target", "boundary:index:Target"));
      await e.configure({ addr, token: secret(TOKEN) });
      return await phases(e, plugin.pid, n, concurrency, {});
    } finally {
      await plugin.stop();
    }
  });
}

const PHASES = ["load", "create", "preview", "refresh", "update", "delete"] as const;
const PHASE_NAMES: Record<Phase, string> = {
  load: "load (the first check)",
  create: "create",
  preview: "preview, no change",
  refresh: "refresh",
  update: "update one field",
  delete: "delete",
};
/** A phase's figure, or (`lifecycle`) the sum of the load and the five phases: what a stack's whole life costs. */
type Row = Phase | "lifecycle";
const ROWS: Row[] = [...PHASES, "lifecycle"];
const ROW_NAMES: Record<Row, string> = { ...PHASE_NAMES, lifecycle: "lifecycle (the load and the five phases)" };

/** One run's figure for a row: wall ms, or the provider process's CPU ms. */
function figure(run: Phases, row: Row, unit: "wall" | "cpu"): number {
  const of = (p: Phase) => (unit === "wall" ? run[p] : run.cpu[p]);
  return row === "lifecycle" ? PHASES.reduce((sum, p) => sum + of(p), 0) : of(row);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Rows of one unit (wall or CPU ms): each phase, and the lifecycle, for the floor, the dynamic
 * route and the plugin route as ratios to the floor, and the floor that keeps the Target's outputs
 * with the dynamic route's ratio to it. Each figure is the median of the runs taken in turn (this
 * machine moves single runs by ±30%); each ratio the median of the runs' own ratios (both sides
 * from the same run), with their smallest and largest.
 */
function tableOf(runs: Record<"floor" | "kept" | "dynamic" | "plugin", Phases[]>, unit: "wall" | "cpu"): string[][] {
  const at = (route: Phases[], row: Row) => median(route.map((r) => figure(r, row, unit))).toFixed(0);
  const ratio = (row: Row, top: Phases[], bottom: Phases[]) => {
    const rs = top.map((t, r) => figure(t, row, unit) / figure(bottom[r]!, row, unit)).sort((a, b) => a - b);
    const m = rs[Math.floor(rs.length / 2)]!;
    return rs.length > 1 ? `${m.toFixed(2)} (${rs[0]!.toFixed(2)}–${rs[rs.length - 1]!.toFixed(2)})` : m.toFixed(2);
  };
  return ROWS.map((row) => [
    ROW_NAMES[row],
    at(runs.floor, row),
    at(runs.dynamic, row),
    ratio(row, runs.dynamic, runs.floor),
    at(runs.plugin, row),
    ratio(row, runs.plugin, runs.floor),
    at(runs.kept, row),
    ratio(row, runs.dynamic, runs.kept),
  ]);
}

/** The columns of both of `benchHost`'s tables. */
export const HOST_HEADER = ["phase", "floor", "dynamic route", "ratio", "plugin route", "ratio", "floor keeping the Target", "dynamic / it"];

/**
 * The provider as users run it: `rows` in wall ms and `cpuRows` in the provider process's CPU ms
 * (see `tableOf`), from the same runs.
 */
export async function benchHost(
  root: string,
  n = Number(process.env.BENCH_TARGETS ?? 1000),
  concurrency = 16,
  reps = Number(process.env.BENCH_HOST_REPS ?? 3),
): Promise<{ rows: string[][]; cpuRows: string[][]; providerBytes: number; stateBytes: number; floorStateBytes: number; keptStateBytes: number }> {
  const { program } = await packAndInstall(root);
  const ours = serializedProvider(program);
  const floorText = await floorProvider(program, "floor-provider", false);
  const keptText = await floorProvider(program, "floor-provider-kept", true);
  // a short pass of each first, so no route is measured cold (module loading, JIT) while another is warm
  const warm = Math.min(100, n);
  progress("provider host: warming up every route");
  for (const text of [floorText, keptText, ours]) await viaDynamicHost(program, text, warm, concurrency);
  await viaPlugin(program, warm, concurrency);
  const runs: Record<"floor" | "kept" | "dynamic" | "plugin", Phases[]> = { floor: [], kept: [], dynamic: [], plugin: [] };
  for (let r = 0; r < reps; r++) {
    const step = (what: string) => progress(`provider host: run ${r + 1} of ${reps}, ${what} (${n.toLocaleString("en")} targets through five phases)`);
    step("the floor");
    runs.floor.push(await viaDynamicHost(program, floorText, n, concurrency));
    step("the floor keeping the Target");
    runs.kept.push(await viaDynamicHost(program, keptText, n, concurrency));
    step("the dynamic route");
    runs.dynamic.push(await viaDynamicHost(program, ours, n, concurrency));
    step("the plugin route");
    runs.plugin.push(await viaPlugin(program, n, concurrency));
  }
  return {
    rows: tableOf(runs, "wall"),
    cpuRows: tableOf(runs, "cpu"),
    providerBytes: Buffer.byteLength(ours),
    stateBytes: runs.dynamic[0]!.stateBytes,
    floorStateBytes: runs.floor[0]!.stateBytes,
    keptStateBytes: runs.kept[0]!.stateBytes,
  };
}
