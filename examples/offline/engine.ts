/**
 * Offline mode: runs a Pulumi program through the SDK's mock runtime, with mocks that do what the
 * engine and the dynamic-provider host do for each dynamic resource: load the serialized provider
 * from its `__provider` text, configure it, then check → diff → create/update/replace, and delete
 * what the program no longer declares. State lives in memory for the engine's lifetime.
 *
 * It is the stand-in for `pulumi up` where the Pulumi CLI cannot be installed: every API call is
 * real (the real provider against a real controller); only the engine is simulated.
 */
import Module from "node:module";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";

type Provider = Required<pulumi.dynamic.ResourceProvider>;
interface Recorded {
  id: string;
  type: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  providerText: string;
}
export type StepOp = "create" | "update" | "replace" | "same" | "delete";
export interface Step {
  name: string;
  op: StepOp;
}

export interface OfflineEngineOptions {
  /** The program's folder: the serialized provider resolves `pulumi-boundary` from here, as the host does. */
  programDir: string;
  project: string;
  stack: string;
  /** Stack configuration with namespaced keys, e.g. `{"boundary:addr": …}`. */
  config?: Record<string, string>;
}

export class OfflineEngine {
  readonly state = new Map<string, Recorded>();
  private readonly providers = new Map<string, Provider>();
  private steps: Step[] = [];
  private pending = new Set<Promise<unknown>>();

  constructor(private readonly options: OfflineEngineOptions) {}

  /** Runs `program` once (as `pulumi up`); returns its stack outputs and the steps taken. */
  async up(program: () => Record<string, unknown>): Promise<{ outputs: Record<string, unknown>; steps: Step[] }> {
    this.steps = [];
    const seen = new Set<string>();
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          seen.add(args.name);
          const step = this.register(args.type, args.name, args.inputs);
          this.pending.add(step);
          return step;
        },
        call: (args) => args.inputs,
      },
      this.options.project,
      this.options.stack,
      false,
    );
    const exported = program();
    const outputs: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(exported)) {
      const o = pulumi.output(value);
      outputs[key] = (await pulumi.isSecret(o)) ? "[secret]" : await settle(o);
    }
    while (this.pending.size > 0) {
      const all = [...this.pending];
      this.pending.clear();
      await Promise.all(all);
    }
    for (const name of [...this.state.keys()].filter((n) => !seen.has(n))) await this.remove(name);
    return { outputs, steps: this.steps };
  }

  /** Deletes everything (as `pulumi destroy`). */
  async destroy(): Promise<Step[]> {
    this.steps = [];
    for (const name of [...this.state.keys()].reverse()) await this.remove(name);
    return this.steps;
  }

  private async register(type: string, name: string, news: Record<string, unknown>): Promise<{ id: string; state: Record<string, unknown> }> {
    const providerText = news.__provider as string | undefined;
    if (!providerText) {
      // not a dynamic resource: nothing to call
      return { id: `${name}-id`, state: news };
    }
    const provider = await this.provider(providerText);
    const prior = this.state.get(name);
    const checked = overTheWire(await provider.check(prior?.inputs ?? {}, news));
    if (checked.failures?.length) {
      throw new Error(`${name}: ${checked.failures.map((f) => f.reason).join("; ")}`);
    }
    const inputs = { ...checked.inputs, __provider: providerText };
    let record: Recorded;
    if (!prior) {
      const r = overTheWire(await provider.create(inputs));
      record = { id: r.id, type, inputs, outputs: { ...r.outs, __provider: providerText }, providerText };
      this.steps.push({ name, op: "create" });
    } else {
      const d = await provider.diff(prior.id, prior.outputs, inputs);
      if (d.replaces?.length) {
        const r = overTheWire(await provider.create(inputs)); // create before delete, as the diff allows
        await provider.delete(prior.id, prior.outputs);
        record = { id: r.id, type, inputs, outputs: { ...r.outs, __provider: providerText }, providerText };
        this.steps.push({ name, op: "replace" });
      } else if (d.changes) {
        const r = overTheWire(await provider.update(prior.id, prior.outputs, inputs));
        record = { ...prior, inputs, outputs: { ...r.outs, __provider: providerText }, providerText };
        this.steps.push({ name, op: "update" });
      } else {
        record = { ...prior, inputs };
        this.steps.push({ name, op: "same" });
      }
    }
    this.state.set(name, record);
    return { id: record.id, state: record.outputs };
  }

  private async remove(name: string): Promise<void> {
    const r = this.state.get(name)!;
    const provider = await this.provider(r.providerText);
    await provider.delete(r.id, r.outputs);
    this.state.delete(name);
    this.steps.push({ name, op: "delete" });
  }

  /** Loads a serialized provider as the host does, once per distinct text, and configures it. */
  private async provider(text: string): Promise<Provider> {
    let p = this.providers.get(text);
    if (!p) {
      p = loadModule(text, path.join(this.options.programDir, "__provider.js")).handler() as Provider;
      const config = this.options.config ?? {};
      await p.configure?.({ config: { get: (k: string) => config[k], require: (k: string) => config[k]! } } as never);
      this.providers.set(text, p);
    }
    return p;
  }
}

/** Compiles module text as if it were a file at `filename` (what require-from-string does). */
function loadModule(text: string, filename: string): any {
  const M = Module as unknown as { new (id: string): any; _nodeModulePaths(dir: string): string[] };
  const m = new M(filename);
  m.filename = filename;
  m.paths = M._nodeModulePaths(path.dirname(filename));
  m._compile(text, filename);
  return m.exports;
}

/** What the engine receives: plain JSON, as over gRPC (a Struct), in this module's own realm. */
function overTheWire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/** The value of an Output once known, with secrets kept as they are. */
function settle<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => (resolve(v), v)));
}
