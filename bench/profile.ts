/**
 * Where the provider's time goes through Pulumi's real dynamic-provider host: `npm run bench --
 * --profile` drives N Targets (BENCH_TARGETS, default 1,000; 16 at a time) through create, preview,
 * refresh, update and delete against the bin, with the host process profiled by V8's sampling
 * profiler (started by a preloaded module, written when the host is stopped), first for the host
 * bench's floor keeping the Target's outputs, then for this package; and prints both hosts' CPU
 * time by package side by side, and this package's own functions by self time. The profiles are
 * kept for Chrome's DevTools (their paths are printed).
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { engine, secret } from "../harness/engine";
import { packAndInstall } from "../harness/pack";
import { serializedProvider, startHost } from "../harness/provider-host";
import { floorProvider, timed, withController } from "./host";
import { progress } from "./progress";
import { TOKEN } from "./start";

const URN = "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/boundary:Target::t";

/** Preloaded into the host: profiles it from the start, writes the profile on SIGTERM (how the harness stops it). */
const preload = (dir: string) => `const inspector = require("node:inspector"); const fs = require("node:fs");
const s = new inspector.Session(); s.connect();
s.post("Profiler.enable", () => s.post("Profiler.setSamplingInterval", { interval: 500 }, () => s.post("Profiler.start")));
const out = ${JSON.stringify(dir)} + "/host-" + process.pid + ".cpuprofile";
const dump = () => s.post("Profiler.stop", (err, r) => { fs.writeFileSync(out, JSON.stringify(r.profile)); process.exit(0); });
process.on("SIGTERM", dump); process.on("SIGINT", dump);
`;

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) by package, and this package's functions by self time, from one profile. */
export function summarize(profile: CpuProfile): { byPackage: [string, number][]; own: [string, number][]; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byPackage = new Map<string, number>();
  const own = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    const { url, functionName, lineNumber } = byId.get(id)!.callFrame;
    const pkg = !url
      ? functionName
      : url.includes("/pulumi-boundary/dist/")
        ? "pulumi-boundary"
        : url.includes("node_modules/")
          ? url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, "$1")
          : url.startsWith("node:")
            ? "node: (http2, modules, streams)"
            : "other";
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
    if (pkg === "pulumi-boundary") {
      const k = `${functionName || "(anonymous)"} ${url.replace(/.*\/pulumi-boundary\/dist\//, "")}:${lineNumber + 1}`;
      own.set(k, (own.get(k) ?? 0) + ms);
    }
  });
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { byPackage: sorted(byPackage), own: sorted(own), totalMs: total };
}

/** One host process profiled through the five phases: each phase's wall ms, and the profile's file. */
async function profiled(program: string, providerText: string, dir: string, n: number, what: string): Promise<{ phases: number[]; file: string }> {
  const phases: number[] = [];
  const before = new Set(readdirSync(dir));
  await withController(program, async (addr) => {
    const host = await startHost(program, { NODE_OPTIONS: `--require ${path.join(dir, "preload.js")}` });
    try {
      const e = engine(host, URN);
      await e.configure({ "boundary:addr": addr, "boundary:token": secret(TOKEN) });
      const inputs: Record<string, unknown>[] = [];
      const ids: string[] = [];
      const outs: Record<string, unknown>[] = [];
      const phase = async (name: string, op: (i: number) => Promise<void>) => {
        progress(`profile of ${what}: ${name}`);
        phases.push(await timed(n, 16, op));
      };
      await phase("create", async (i) => {
        const checked = await e.check({ scopeId: "p_1234567890", name: `profiled-${i}`, description: "v1", __provider: providerText });
        inputs[i] = checked.inputs;
        const created = await e.create(checked.inputs);
        [ids[i], outs[i]] = [created.id, created.props];
      });
      await phase("preview, no change", async (i) => {
        await e.diff(ids[i]!, outs[i]!, (await e.check(inputs[i]!, inputs[i]!)).inputs);
      });
      await phase("refresh", async (i) => {
        outs[i] = (await e.read(ids[i]!, outs[i]!)).props;
      });
      await phase("update one field", async (i) => {
        const checked = await e.check({ ...inputs[i]!, description: "v2" }, inputs[i]!);
        await e.diff(ids[i]!, outs[i]!, checked.inputs);
        outs[i] = await e.update(ids[i]!, outs[i]!, checked.inputs, { oldInputs: inputs[i]! });
        inputs[i] = checked.inputs;
      });
      await phase("delete", async (i) => e.delete(ids[i]!, outs[i]!));
    } finally {
      await host.stop();
    }
  });
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile") && !before.has(f));
  if (!file) throw new Error(`the host wrote no profile in ${dir}`);
  return { phases, file: path.join(dir, file) };
}

const PHASE_NAMES = ["create", "preview, no change", "refresh", "update one field", "delete"];

/**
 * Profiles the five phases for the floor keeping the Target's outputs (`host.ts`), then for this
 * package, each host from its start; returns the phases' wall times, the hosts' CPU by package side
 * by side (self time, ms per Target: the floor's excess is this package's and what it calls), and
 * this package's own functions by self time.
 */
export async function benchProfile(
  root: string,
  n = Number(process.env.BENCH_TARGETS ?? 1000),
): Promise<{ phases: string[][]; byPackage: string[][]; own: string[][]; file: string; floorFile: string }> {
  const { program } = await packAndInstall(root);
  const ours = serializedProvider(program);
  const kept = await floorProvider(program, "floor-provider-kept", true);
  const dir = mkdtempSync(path.join(tmpdir(), "pb-profile-"));
  writeFileSync(path.join(dir, "preload.js"), preload(dir));
  const floor = await profiled(program, kept, dir, n, "the floor keeping the Target");
  const mine = await profiled(program, ours, dir, n, "this package");
  const read = (file: string) => summarize(JSON.parse(readFileSync(file, "utf8")) as CpuProfile);
  const [f, m] = [read(floor.file), read(mine.file)];
  const busy = (s: typeof f) => s.totalMs - (s.byPackage.find(([k]) => k === "(idle)")?.[1] ?? 0);
  const perTarget = (ms: number | undefined) => ((ms ?? 0) / n).toFixed(3);
  const share = (ms: number | undefined, s: typeof f) => `${((100 * (ms ?? 0)) / busy(s)).toFixed(1)}%`;
  const floorOf = new Map(f.byPackage);
  const byPackage = m.byPackage
    .filter(([k]) => k !== "(idle)")
    .slice(0, 14)
    .map(([k, ms]) => [k, perTarget(floorOf.get(k)), share(floorOf.get(k), f), perTarget(ms), share(ms, m)]);
  byPackage.push(["busy (all but idle)", perTarget(busy(f)), "100%", perTarget(busy(m)), "100%"]);
  return {
    phases: PHASE_NAMES.map((name, i) => [name, floor.phases[i]!.toFixed(0), mine.phases[i]!.toFixed(0)]),
    byPackage,
    own: m.own.slice(0, 20).map(([k, ms]) => [k, ms.toFixed(0), share(ms, m)]),
    file: mine.file,
    floorFile: floor.file,
  };
}
