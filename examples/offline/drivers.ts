/**
 * The offline engine's two ways to reach a provider, behind one interface: a dynamic resource's
 * serialized provider (loaded from its `__provider` text, as the dynamic-provider host does), and
 * the plugin (`boundary:index:Target`), run as the Node language host runs it (`run-plugin` on the
 * package's directory) and driven over gRPC as the engine drives it. Answers are plain JSON, as
 * over the wire.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import type * as pulumi from "@pulumi/pulumi";
import { engine as engineClient, type Engine } from "../../harness/engine";
import { startPlugin, type Host } from "../../harness/provider-host";

type Obj = Record<string, unknown>;

/** What the engine asks of a provider, for one resource type. */
export interface Driver {
  check(olds: Obj, news: Obj): Promise<{ inputs: Obj; failures: string[] }>;
  /** Whether the resource changes, and which inputs force a replacement. */
  diff(id: string, olds: Obj, news: Obj, oldInputs: Obj): Promise<{ changes: boolean; replaces: string[] }>;
  create(inputs: Obj): Promise<{ id: string; outs: Obj }>;
  update(id: string, olds: Obj, news: Obj, oldInputs: Obj): Promise<{ outs: Obj }>;
  /** Reads the resource back: an empty id when it is gone; `inputs` as a refresh (or an import, given none) records them. */
  read(id: string, props: Obj, inputs: Obj): Promise<{ id: string; props: Obj; inputs?: Obj }>;
  delete(id: string, props: Obj): Promise<void>;
}

/** A partial failure, as the engine records one: the resource exists with `id` and `properties`. */
export class PartialFailure extends Error {
  /** The resource `id` exists with `properties`; `reasons` say what failed. */
  constructor(
    readonly id: string,
    readonly properties: Obj,
    readonly reasons: string[],
  ) {
    super(reasons.join("; "));
  }
}

/** What the engine receives: plain JSON, as over gRPC (a Struct), in this module's own realm. */
export function overTheWire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/** A dynamic resource's provider, loaded from its serialized text as the host does, then configured with `config`. */
export async function dynamicDriver(text: string, programDir: string, config: Record<string, string>): Promise<Driver> {
  const handler = loadModule(text, path.join(programDir, "__provider.js")).handler;
  if (typeof handler !== "function") throw new Error("the serialized provider exports no handler");
  const p = handler() as Required<pulumi.dynamic.ResourceProvider>;
  await p.configure?.({ config: { get: (k: string) => config[k], require: (k: string) => config[k]! } } as never);
  return {
    check: async (olds, news) => {
      const r = overTheWire(await p.check(olds, news));
      return { inputs: r.inputs ?? {}, failures: (r.failures ?? []).map((f) => f.reason) };
    },
    diff: async (id, olds, news) => {
      const d = await p.diff(id, olds, news);
      return { changes: !!d.changes || !!d.replaces?.length, replaces: d.replaces ?? [] };
    },
    create: async (inputs) => overTheWire(await p.create(inputs)) as { id: string; outs: Obj },
    update: async (id, olds, news) => ({ outs: overTheWire((await p.update(id, olds, news)).outs ?? {}) }),
    read: async (id, props) => overTheWire(await p.read(id, props)) as { id: string; props: Obj; inputs?: Obj },
    delete: (id, props) => p.delete(id, props),
  };
}

/**
 * Runs CommonJS module text as if it were a file at `filename` (what require-from-string does for
 * the host): Node's module wrapper, with a `require` that resolves from that file's folder. Its exports.
 */
function loadModule(text: string, filename: string): Obj {
  const module = { exports: {} as Obj };
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${text}\n})`, { filename });
  (wrapper as (...args: unknown[]) => void)(module.exports, createRequire(filename), module, filename, path.dirname(filename));
  return module.exports;
}

/** The plugin process of one offline engine, started at the first plugin resource, configured once. */
export class PluginProcess {
  private host: Promise<Host> | undefined;

  /** The plugin at `pluginDir` (a directory holding PulumiPlugin.yaml and the built package), configured with `config`. */
  constructor(
    private readonly pluginDir: string,
    private readonly project: string,
    private readonly stack: string,
    private readonly config: Record<string, string>,
  ) {}

  /** The driver for resource `name` of `type`: every call carries its URN, as the engine's do. */
  async driver(type: string, name: string): Promise<Driver> {
    this.host ??= this.start();
    const e = engineClient(await this.host, `urn:pulumi:${this.stack}::${this.project}::${type}::${name}`);
    return pluginDriver(e);
  }

  /** Stops the plugin process, if it was started. */
  async stop(): Promise<void> {
    const host = this.host;
    this.host = undefined;
    if (host) await (await host).stop();
  }

  private async start(): Promise<Host> {
    const host = await startPlugin(this.pluginDir, { pluginDir: this.pluginDir });
    try {
      const args: Obj = {};
      const variables: Record<string, string> = {};
      for (const [key, value] of Object.entries(this.config)) {
        const [pkg, name] = key.split(":");
        if (pkg !== "boundary" || !name) continue;
        args[name] = value;
        variables[`boundary:config:${name}`] = value;
      }
      await engineClient(host, "").configure(args, variables);
      return host;
    } catch (err) {
      await host.stop();
      throw err;
    }
  }
}

/** The engine's calls to the plugin for one resource, in the Driver's shape; a gRPC error becomes its message, a partial failure a PartialFailure. */
function pluginDriver(e: Engine): Driver {
  const failing = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      let partial: { id: string; properties: Obj; reasons: string[] } | undefined;
      try {
        partial = e.initFailure(err);
      } catch {
        partial = undefined;
      }
      if (partial) throw new PartialFailure(partial.id, partial.properties, partial.reasons);
      throw new Error((err as { details?: string }).details ?? (err as Error).message);
    }
  };
  const SOME = e.proto.DiffResponse.DiffChanges.DIFF_SOME;
  return {
    check: (olds, news) =>
      failing(async () => {
        const checked = await e.check(news, olds);
        // the provider's reasons name their property already
        return { inputs: checked.inputs, failures: checked.failures.map((f) => f.reason) };
      }),
    diff: (id, olds, news, oldInputs) =>
      failing(async () => {
        const d = await e.diff(id, olds, news, { oldInputs });
        return { changes: d.changes === SOME || d.replaces.length > 0, replaces: d.replaces };
      }),
    create: (inputs) =>
      failing(async () => {
        const created = await e.create(inputs);
        return { id: created.id, outs: created.props };
      }),
    update: (id, olds, news, oldInputs) => failing(async () => ({ outs: await e.update(id, olds, news, { oldInputs }) })),
    read: (id, props, inputs) => failing(() => e.read(id, props, { inputs })),
    delete: (id, props) => failing(() => e.delete(id, props)),
  };
}
