/**
 * An estate: 10,000 Targets (a quarter with host sets and credential libraries) through Pulumi's
 * real dynamic-provider host, installed from the packed tarball, against the bin emulating the
 * newest release (`--emulate`) with Boundary's default rate limits, in the engine's order: `up`,
 * `preview --refresh`, an `up` changing 1% of them, `destroy`. Each phase against the quota floor
 * (the least time Boundary's limiter allows for the calls made: per action, a window per `limit`
 * calls), the calls made (the controller's /metrics) against the minimum, and the provider
 * process's peak RSS (its VmHWM). `npm run bench -- --estate` runs it alone.
 */
import { readFileSync } from "node:fs";
import { engine, secret, type Engine } from "../harness/engine";
import { packAndInstall } from "../harness/pack";
import { serializedProvider, startHost } from "../harness/provider-host";
import { NEWEST, type Release } from "../wire/releases";
import { timed, withController } from "./host";
import { progress } from "./progress";
import { TOKEN } from "./start";

const PROJECT = "p_1234567890";
const URN = "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/boundary:Target::t";
/** The release emulated: the table's newest (Boundary's default rate limits are its). */
const EMULATED: Release = NEWEST;

type Obj = Record<string, unknown>;

/** Requests the controller counted, by `METHOD route code`, from its /metrics. */
async function counted(opsUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^boundary_http_requests_total\{(.*)\} (\d+)$/gm)) {
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    const key = `${labels.method} ${labels.route} ${labels.code}`;
    out.set(key, (out.get(key) ?? 0) + Number(m[2]));
  }
  return out;
}

/** The calls of one phase: the counts after minus before. */
function delta(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([k, n]) => [k, n - (before.get(k) ?? 0)] as [string, number]).filter(([, n]) => n > 0));
}

/**
 * The least time Boundary's limiter allows for `calls` (by `METHOD route code`): each action has its own
 * quota of the tightest of its per-token, per-address and total limits per period, the first window
 * opening at its first call; the actions run side by side, so the slowest one sets the floor.
 */
export function quotaFloorMs(calls: Map<string, number>): number {
  const limits = EMULATED.rateLimiter!;
  let floor = 0;
  const byAction = new Map<string, number>();
  for (const [key, n] of calls) {
    const action = key.slice(0, key.lastIndexOf(" "));
    byAction.set(action, (byAction.get(action) ?? 0) + n);
  }
  for (const [key, n] of byAction) {
    const list = /^GET \S*targets$/.test(key);
    const q = list ? limits.list : limits.other;
    const limit = Math.min(q.authToken, q.ipAddress, q.total);
    floor = Math.max(floor, Math.floor((n - 1) / limit) * limits.periodSeconds * 1000);
  }
  return floor;
}

/** The provider process's peak resident memory so far, MiB (Linux's VmHWM). */
function peakRssMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

interface Phase {
  name: string;
  ms: number;
  calls: number;
  /** Of them, answered 429. */
  refused: number;
  minimum: number;
  floorMs: number;
  rssMiB: number;
}

/** The four phases over `n` Targets, `concurrency` at a time, through one host. */
async function estate(program: string, providerText: string, n: number, concurrency: number): Promise<Phase[]> {
  return withController(
    program,
    async (addr, banner) => {
      const opsUrl = /Ops address: (\S+)/.exec(banner)![1]!;
      const hostSet = /Host sets: (\S+)/.exec(banner)![1]!;
      const library = /Credential libraries: (\S+)/.exec(banner)![1]!.replace(/,$/, "");
      const host = await startHost(program);
      try {
        const e: Engine = engine(host, URN);
        await e.configure({ "boundary:addr": addr, "boundary:token": secret(TOKEN) });
        const inputs: Obj[] = [];
        const ids: string[] = [];
        const outs: Obj[] = [];
        const listed = (i: number) => i % 4 === 0;
        const phases: Phase[] = [];
        const phase = async (name: string, minimum: number, op: (i: number) => Promise<void>) => {
          progress(`estate: ${name} (${n.toLocaleString("en")} targets)`);
          const before = await counted(opsUrl);
          const ms = await timed(n, concurrency, op);
          const calls = delta(await counted(opsUrl), before);
          const total = [...calls.values()].reduce((a, b) => a + b, 0);
          const refused = [...calls].filter(([k]) => k.endsWith(" 429")).reduce((a, [, v]) => a + v, 0);
          phases.push({ name, ms, calls: total, refused, minimum, floorMs: quotaFloorMs(calls), rssMiB: peakRssMiB(host.pid) });
        };
        const quarter = Math.ceil(n / 4);
        // a create is one POST, and on current releases one set action per list (they set lists only so)
        await phase("up (create)", n + 2 * quarter, async (i) => {
          const lists = listed(i) ? { hostSetIds: [hostSet], applicationCredentialLibraryIds: [library] } : {};
          const checked = await e.check({ scopeId: PROJECT, name: `estate-${i}`, description: "v1", defaultPort: 22, ...lists, __provider: providerText });
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
    ["--emulate", EMULATED.release],
  );
}

/** The median, smallest and largest of `xs`. */
export function spread(xs: number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! };
}

/** Rows: each phase's wall time (median, min–max of `reps` runs), its quota floor and ratio, calls against the minimum, peak RSS. */
export async function benchEstate(
  root: string,
  n = Number(process.env.BENCH_ESTATE_TARGETS ?? 10_000),
  concurrency = Number(process.env.BENCH_ESTATE_CONCURRENCY ?? 16),
  reps = Number(process.env.BENCH_ESTATE_REPS ?? 3),
): Promise<string[][]> {
  const { program } = packAndInstall(root);
  const ours = serializedProvider(program);
  const runs: Phase[][] = [];
  for (let r = 0; r < reps; r++) {
    progress(`estate: run ${r + 1} of ${reps}`);
    runs.push(await estate(program, ours, n, concurrency));
  }
  return runs[0]!.map((p, k) => {
    const ms = spread(runs.map((run) => run[k]!.ms));
    const floor = p.floorMs;
    const calls = spread(runs.map((run) => run[k]!.calls));
    const rss = spread(runs.map((run) => run[k]!.rssMiB));
    return [
      p.name,
      `${(ms.median / 1000).toFixed(1)} (${(ms.min / 1000).toFixed(1)}–${(ms.max / 1000).toFixed(1)})`,
      (floor / 1000).toFixed(0),
      floor > 0 ? (ms.median / floor).toFixed(2) : "— (one window)",
      calls.min === calls.max ? String(calls.median) : `${calls.median} (${calls.min}–${calls.max})`,
      String(p.minimum),
      String(Math.max(...runs.map((run) => run[k]!.refused))),
      rss.max.toFixed(0),
    ];
  });
}

/** The table's header. */
export const ESTATE_HEADER = ["phase", "wall s, median (min–max)", "quota floor s", "wall / floor", "calls", "minimum", "429s (most)", "provider peak RSS MiB"];
