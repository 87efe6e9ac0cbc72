/**
 * An estate: 10,000 Targets (a quarter with host sets and credential libraries) through Pulumi's
 * real host, installed from the packed tarball, on each route (the dynamic-provider host and the
 * plugin), against the bin emulating the newest release (`--emulate`) with Boundary's default rate
 * limits, in the engine's order: `up`, `preview --refresh`, an `up` changing 1% of them, `destroy`.
 * Each phase against the quota floor (the least time Boundary's limiter allows for the calls made),
 * the calls made (the controller's /metrics) against the minimum, the provider process's peak RSS
 * (its VmHWM), and the CPU seconds of each process (the provider, this driver standing in for the
 * engine, the controller): what tells a phase the machine sets the pace of from one the quota does.
 * `npm run bench -- --estate` runs it alone; a smaller `BENCH_ESTATE_TARGETS` scales the quota with
 * it (see `scaledQuota`).
 */
import { availableParallelism } from "node:os";
import * as path from "node:path";
import { engine, secret, type Engine } from "../harness/engine";
import { packAndInstall } from "../harness/pack";
import { serializedProvider, startHost, startPlugin, type Host } from "../harness/provider-host";
import { timed, withController } from "./host";
import { progress } from "./progress";
import { type BenchQuota, counted, cpuSeconds, defaultQuota, delta, memoryMiB, quotaFlags, quotaFloorMs, scaledQuota, totals } from "./quota-floor";
import { medianRange, spread } from "./spread";
import { TOKEN } from "./start";

const PROJECT = "p_1234567890";
const URN = "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/boundary:Target::t";
/** The estate's size at full scale, the size Boundary's default quota is for. */
export const ESTATE_TARGETS = 10_000;

/**
 * Pulumi's default `--parallel`: 4 × GOMAXPROCS (Go's default: the CPUs the process may use),
 * unless PULUMI_PARALLEL says otherwise (pkg/cmd/pulumi/operations/up.go, `defaultParallel`).
 */
export function pulumiDefaultParallel(env: NodeJS.ProcessEnv = process.env): number {
  const p = Number(env.PULUMI_PARALLEL);
  return Number.isInteger(p) && p > 0 ? p : 4 * availableParallelism();
}

type Obj = Record<string, unknown>;
/** Which route the engine reaches the provider by. */
export type Route = "dynamic" | "plugin";

/** One phase of one run. */
export interface Phase {
  name: string;
  ms: number;
  calls: number;
  /** Of them, answered 429. */
  refused: number;
  minimum: number;
  floorMs: number;
  rssMiB: number;
  /** CPU seconds in the phase: the provider process, this driver, the controller. */
  cpu: { provider: number; driver: number; controller: number };
}

/** The provider process on `route`, configured, with the engine client and the inputs every Target adds. */
async function provider(program: string, route: Route, providerText: string, addr: string): Promise<{ host: Host; e: Engine; extra: Obj }> {
  if (route === "dynamic") {
    const host = await startHost(program);
    const e = engine(host, URN);
    await e.configure({ "boundary:addr": addr, "boundary:token": secret(TOKEN) });
    return { host, e, extra: { __provider: providerText } };
  }
  const host = await startPlugin(program);
  const e = engine(host, URN.replace("pulumi-nodejs:dynamic/boundary:Target", "boundary:index:Target"));
  await e.configure({ addr, token: secret(TOKEN) });
  return { host, e, extra: {} };
}

/** The four phases over `n` Targets, `concurrency` at a time, on `route`, against a controller with `quota`. */
async function estate(program: string, route: Route, providerText: string, n: number, concurrency: number, quota: BenchQuota): Promise<Phase[]> {
  const quotaOf = (kind: "list" | "other") => (quota.isDefault ? defaultQuota(kind) : quota);
  return withController(
    program,
    async (addr, banner, controllerPid) => {
      const opsUrl = /Ops address: (\S+)/.exec(banner)![1]!;
      const hostSet = /Host sets: (\S+)/.exec(banner)![1]!;
      const library = /Credential libraries: (\S+)/.exec(banner)![1]!.replace(/,$/, "");
      const { host, e, extra } = await provider(program, route, providerText, addr);
      try {
        const inputs: Obj[] = [];
        const ids: string[] = [];
        const outs: Obj[] = [];
        const listed = (i: number) => i % 4 === 0;
        const phases: Phase[] = [];
        const phase = async (name: string, minimum: number, op: (i: number) => Promise<void>) => {
          progress(`estate, ${route} route: ${name} (${n.toLocaleString("en")} targets)`);
          const before = await counted(opsUrl);
          const cpu0 = { provider: cpuSeconds(host.pid), driver: process.cpuUsage(), controller: cpuSeconds(controllerPid) };
          const ms = await timed(n, concurrency, op);
          const driver = process.cpuUsage(cpu0.driver);
          const cpu = {
            provider: cpuSeconds(host.pid) - cpu0.provider,
            driver: (driver.user + driver.system) / 1e6,
            controller: cpuSeconds(controllerPid) - cpu0.controller,
          };
          const calls = delta(await counted(opsUrl), before);
          const { total, refused } = totals(calls);
          phases.push({ name, ms, calls: total, refused, minimum, floorMs: quotaFloorMs(calls, quotaOf), rssMiB: memoryMiB(host.pid, "VmHWM"), cpu });
        };
        const quarter = Math.ceil(n / 4);
        // a create is one POST, and on current releases one set action per list (they set lists only so)
        await phase("up (create)", n + 2 * quarter, async (i) => {
          const lists = listed(i) ? { hostSetIds: [hostSet], applicationCredentialLibraryIds: [library] } : {};
          const checked = await e.check({ scopeId: PROJECT, name: `estate-${i}`, description: "v1", defaultPort: 22, ...lists, ...extra });
          inputs[i] = checked.inputs;
          const created = await e.create(checked.inputs);
          ids[i] = created.id;
          outs[i] = created.props;
        });
        await phase("preview --refresh", n, async (i) => {
          outs[i] = (await e.read(ids[i]!, outs[i]!, { inputs: inputs[i]! })).props;
          const checked = await e.check(inputs[i]!, inputs[i]!);
          await e.diff(ids[i]!, outs[i]!, checked.inputs);
        });
        const changed = (i: number) => i % 100 === 0;
        await phase("up changing 1%", Math.ceil(n / 100), async (i) => {
          const news = changed(i) ? { ...inputs[i]!, description: "v2" } : inputs[i]!;
          const checked = await e.check(news, inputs[i]!);
          const diff = await e.diff(ids[i]!, outs[i]!, checked.inputs);
          if (!changed(i)) return;
          if (diff.changes === 1) throw new Error(`no change seen for ${ids[i]}`); // DIFF_NONE
          outs[i] = await e.update(ids[i]!, outs[i]!, checked.inputs, { oldInputs: inputs[i]! });
          inputs[i] = checked.inputs;
        });
        await phase("destroy", n, async (i) => e.delete(ids[i]!, outs[i]!));
        return phases;
      } finally {
        await host.stop();
      }
    },
    quotaFlags(program, quota),
  );
}

/** What a run of the estate bench is: its size, the engine's parallelism, the quota, the routes. */
export interface EstatePlan {
  n: number;
  concurrency: number;
  quota: BenchQuota;
  routes: Route[];
  reps: number;
}

/**
 * The plan from the environment: BENCH_ESTATE_TARGETS, BENCH_ESTATE_CONCURRENCY (Pulumi's default),
 * BENCH_ESTATE_ROUTES, BENCH_ESTATE_REPS; BENCH_ESTATE_LIMITER=off runs the same calls with the
 * controller's limiter off (the floors still the quota's), to tell what the pacer's waits cost.
 */
export function estatePlan(env: NodeJS.ProcessEnv = process.env): EstatePlan {
  const n = Number(env.BENCH_ESTATE_TARGETS ?? ESTATE_TARGETS);
  const routes = (env.BENCH_ESTATE_ROUTES ?? "dynamic,plugin").split(",").filter((r): r is Route => r === "dynamic" || r === "plugin");
  return {
    n,
    concurrency: Number(env.BENCH_ESTATE_CONCURRENCY ?? pulumiDefaultParallel(env)),
    quota: { ...scaledQuota(n, ESTATE_TARGETS), off: env.BENCH_ESTATE_LIMITER === "off" },
    routes,
    reps: Number(env.BENCH_ESTATE_REPS ?? 3),
  };
}

/** Rows: each route's phases (median, min–max of the runs), the quota floor and ratio, calls against the minimum, 429s, peak RSS, CPU seconds. */
export async function benchEstate(root: string, plan: EstatePlan = estatePlan()): Promise<string[][]> {
  const { program } = await packAndInstall(root);
  const ours = serializedProvider(program);
  const rows: string[][] = [];
  const runs: Record<Route, Phase[][]> = { dynamic: [], plugin: [] };
  // the routes taken in turn within each run, so load that comes and goes falls on both
  for (let r = 0; r < plan.reps; r++) {
    for (const route of plan.routes) {
      progress(`estate: run ${r + 1} of ${plan.reps}, ${route} route`);
      runs[route].push(await estate(program, route, ours, plan.n, plan.concurrency, plan.quota));
    }
  }
  for (const route of plan.routes) {
    const all = runs[route];
    rows.push(
      ...all[0]!.map((p, k) => {
        const of = (f: (x: Phase) => number) => all.map((run) => f(run[k]!));
        const floor = p.floorMs;
        const calls = spread(of((x) => x.calls));
        return [
          `${route}: ${p.name}`,
          medianRange(
            of((x) => x.ms / 1000),
            1,
          ),
          (floor / 1000).toFixed(0),
          floor > 0
            ? medianRange(
                of((x) => x.ms / floor),
                2,
              )
            : "— (one window)",
          calls.min === calls.max ? String(calls.median) : `${calls.median} (${calls.min}–${calls.max})`,
          String(p.minimum),
          String(Math.max(...of((x) => x.refused))),
          Math.max(...of((x) => x.rssMiB)).toFixed(0),
          medianRange(
            of((x) => x.cpu.provider),
            1,
          ),
          medianRange(
            of((x) => x.cpu.driver),
            1,
          ),
          medianRange(
            of((x) => x.cpu.controller),
            1,
          ),
        ];
      }),
    );
  }
  return rows;
}

/** The table's header. */
export const ESTATE_HEADER = [
  "route: phase",
  "wall s",
  "quota floor s",
  "wall / floor",
  "calls",
  "minimum",
  "429s (most)",
  "provider peak RSS MiB",
  "CPU s: provider",
  "driver (engine)",
  "controller",
];

// `node dist/bench/estate.js`: this benchmark alone, as the environment plans it
if (require.main === module) {
  void (async () => {
    const { printTable } = await import("./table");
    const plan = estatePlan();
    console.log(`${plan.n} targets, ${plan.concurrency} at a time, quota ${plan.quota.limit} per ${plan.quota.periodSeconds} s, ${plan.reps} runs`);
    printTable(ESTATE_HEADER, await benchEstate(path.join(__dirname, "..", ".."), plan));
  })().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
