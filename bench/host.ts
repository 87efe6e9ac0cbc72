/**
 * The provider as users run it: the package installed from its tarball, loaded by Pulumi's real
 * dynamic-provider host (and as a plugin by run-plugin), driven over gRPC in the engine's order,
 * N Targets at a given concurrency, phase by phase. The floor is a minimal dynamic provider written
 * here that makes the same HTTP calls, installed and served by the same host and driven the same
 * way: the ratio is what this provider adds on top of Pulumi's own cost.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { defaultFixtures, startController } from "../controller";
import { engine, secret, type Engine } from "../harness/engine";
import { packAndInstall } from "../harness/pack";
import { programRequire, serializedProvider, startHost, startPlugin } from "../harness/provider-host";

const TOKEN = "at_1234567890_s1bench";
const PROJECT = "p_1234567890";
const URN = "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/boundary:Target::t";

/** The floor: the same five calls (POST, GET, PATCH, DELETE; nothing for check and diff), nothing else. */
const FLOOR = `const undici = require("undici");
let base, token, pool;
exports.configure = async (req) => { base = req.config.get("boundary:addr"); token = req.config.get("boundary:token"); pool = new undici.Pool(base, { connections: 8 }); };
async function call(method, path, body) {
  const res = await pool.request({ method, path, headers: { authorization: "Bearer " + token, "content-type": "application/json" }, body: body && JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode >= 400) throw new Error(method + " " + path + ": " + res.statusCode + " " + text);
  return text ? JSON.parse(text) : undefined;
}
exports.check = async (olds, news) => ({ inputs: news });
exports.diff = async (id, olds, news) => ({ changes: olds.description !== news.description });
exports.create = async (inputs) => { const t = await call("POST", "/v1/targets", { scope_id: inputs.scopeId, name: inputs.name, type: "tcp", description: inputs.description }); return { id: t.id, outs: { ...inputs, version: t.version } }; };
exports.read = async (id, props) => { const t = await call("GET", "/v1/targets/" + id); return { id, props: { ...props, version: t.version, description: t.description } }; };
exports.update = async (id, olds, news) => { const t = await call("PATCH", "/v1/targets/" + id + "?update_mask=description", { version: olds.version, description: news.description }); return { outs: { ...news, version: t.version } }; };
exports.delete = async (id) => { await call("DELETE", "/v1/targets/" + id); };
`;

/** Installs the floor provider as a package of the program, and returns its serialized `__provider`. */
async function floorProvider(program: string): Promise<string> {
  const dir = path.join(program, "node_modules", "floor-provider");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "floor-provider", main: "index.js" }));
  writeFileSync(path.join(dir, "index.js"), FLOOR);
  const pulumi = programRequire<typeof import("@pulumi/pulumi")>(program, "@pulumi/pulumi");
  const floor = programRequire<object>(program, "floor-provider");
  return (await pulumi.runtime.serializeFunction(() => floor, { allowSecrets: true })).text;
}

/** Runs `op` for i = 0..n-1, `concurrency` at a time; resolves with the wall time in ms. */
async function timed(n: number, concurrency: number, op: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < n; i = next++) await op(i);
  }));
  return performance.now() - started;
}

interface Phases {
  create: number;
  preview: number;
  refresh: number;
  update: number;
  delete: number;
  /** Bytes the engine stores for one Target (inputs and outputs, `__provider` in each). */
  stateBytes: number;
}

/** The five phases over N Targets through one engine client; `extra` is added to each program's inputs. */
async function phases(e: Engine, n: number, concurrency: number, extra: Record<string, unknown>): Promise<Phases> {
  const inputs: Record<string, unknown>[] = [];
  const ids: string[] = [];
  const outs: Record<string, unknown>[] = [];
  const create = await timed(n, concurrency, async (i) => {
    const checked = await e.check({ scopeId: PROJECT, name: `bench-${i}`, description: "v1", ...extra });
    inputs[i] = checked.inputs;
    const created = await e.create(checked.inputs);
    ids[i] = created.id;
    outs[i] = created.props;
  });
  const preview = await timed(n, concurrency, async (i) => {
    const checked = await e.check(inputs[i]!, inputs[i]!);
    await e.diff(ids[i]!, outs[i]!, checked.inputs);
  });
  const refresh = await timed(n, concurrency, async (i) => {
    outs[i] = (await e.read(ids[i]!, outs[i]!)).props;
  });
  const update = await timed(n, concurrency, async (i) => {
    const checked = await e.check({ ...inputs[i]!, description: "v2" }, inputs[i]!);
    await e.diff(ids[i]!, outs[i]!, checked.inputs);
    outs[i] = await e.update(ids[i]!, outs[i]!, checked.inputs, { oldInputs: inputs[i]! });
    inputs[i] = checked.inputs;
  });
  const stateBytes = Buffer.byteLength(JSON.stringify({ inputs: inputs[0], outputs: outs[0] }));
  const del = await timed(n, concurrency, async (i) => e.delete(ids[i]!, outs[i]!));
  return { create, preview, refresh, update, delete: del, stateBytes };
}

/** A fresh controller for one run, so no run sees another's Targets. */
async function withController<T>(run: (addr: string) => Promise<T>): Promise<T> {
  const c = await startController({ api: { host: "127.0.0.1", port: 0 }, ops: { host: "127.0.0.1", port: 0 }, token: TOKEN, gracefulShutdownWaitMs: 0, fixtures: defaultFixtures() });
  try {
    return await run(c.apiUrl);
  } finally {
    await c.shutdown();
  }
}

/** A dynamic provider (`__provider` text) through a fresh dynamic-provider host. */
function viaDynamicHost(program: string, providerText: string, n: number, concurrency: number): Promise<Phases> {
  return withController(async (addr) => {
    const host = await startHost(program);
    try {
      const e = engine(host, URN);
      await e.configure({ "boundary:addr": addr, "boundary:token": secret(TOKEN) });
      return await phases(e, n, concurrency, { __provider: providerText });
    } finally {
      await host.stop();
    }
  });
}

/** This package as a plugin, started by run-plugin. */
function viaPlugin(program: string, n: number, concurrency: number): Promise<Phases> {
  return withController(async (addr) => {
    const plugin = await startPlugin(program);
    try {
      const e = engine(plugin, URN.replace("pulumi-nodejs:dynamic/boundary:Target", "boundary:index:Target"));
      await e.configure({ addr, token: secret(TOKEN) });
      return await phases(e, n, concurrency, {});
    } finally {
      await plugin.stop();
    }
  });
}

/** Rows: each phase's wall time for the floor, the dynamic route and the plugin route, as ratios to the floor. */
export async function benchHost(root: string, n = Number(process.env.BENCH_TARGETS ?? 1000), concurrency = 16): Promise<{ rows: string[][]; providerBytes: number; stateBytes: number }> {
  const { program } = packAndInstall(root);
  const ours = serializedProvider(program);
  const floorText = await floorProvider(program);
  // a short pass of each first, so no route is measured cold (module loading, JIT) while another is warm
  const warm = Math.min(100, n);
  await viaDynamicHost(program, floorText, warm, concurrency);
  await viaDynamicHost(program, ours, warm, concurrency);
  await viaPlugin(program, warm, concurrency);
  const floor = await viaDynamicHost(program, floorText, n, concurrency);
  const dynamic = await viaDynamicHost(program, ours, n, concurrency);
  const plugin = await viaPlugin(program, n, concurrency);
  const rows = (["create", "preview", "refresh", "update", "delete"] as const).map((p) => [
    p === "preview" ? "preview, no change" : p === "update" ? "update one field" : p,
    floor[p].toFixed(0),
    dynamic[p].toFixed(0),
    (dynamic[p] / floor[p]).toFixed(2),
    plugin[p].toFixed(0),
    (plugin[p] / floor[p]).toFixed(2),
  ]);
  return { rows, providerBytes: Buffer.byteLength(ours), stateBytes: dynamic.stateBytes };
}
