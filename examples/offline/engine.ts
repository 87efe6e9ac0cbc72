/**
 * Offline mode: runs a Pulumi program through the SDK's mock runtime, with mocks that do what the
 * engine and the dynamic-provider host do for each dynamic resource: load the serialized provider
 * from its `__provider` text, configure it, then check → diff → create/update/replace, and delete
 * what the program no longer declares; `preview` (with `refresh`, `expectNoChanges`) plans without
 * changing anything, `refresh` reads every resource back. The plugin's resources (the generated
 * SDK's `boundary:index:Target`) go to the plugin process over gRPC instead, and a resource with
 * the `import` option is adopted as the engine adopts it (Read by id, Check, Diff: no change
 * allowed). A run waits for every resource the program registered, whatever it exports. State
 * lives in memory for the engine's lifetime.
 *
 * It is the stand-in for `pulumi up` where the Pulumi CLI cannot be installed: every API call is
 * real (the real provider against a real controller); only the engine is simulated. Like the
 * engine, a resource that fails does not stop the run with an exception: a partial failure (the
 * provider's error carries the resource's `id` and `properties`) is recorded in state with them,
 * no new step starts after a failure, and the result says what failed, so the caller can still
 * destroy what exists.
 */
import * as pulumi from "@pulumi/pulumi";
import { PluginProcess, dynamicDriver, overTheWire, type Driver } from "./drivers";
import { fieldDiffs, settle, type FieldDiff, type PreviewResult, type Step, type StepOp, type UpResult } from "./steps";

export { fieldDiffs, type FieldDiff, type PreviewResult, type Step, type StepOp, type UpResult } from "./steps";

interface Recorded {
  id: string;
  type: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** A dynamic resource's serialized provider; empty for the plugin's resources. */
  providerText: string;
}
/** Where the program lives and which stack it is: what `pulumi` reads from Pulumi.yaml, the stack and its config. */
export interface OfflineEngineOptions {
  /** The program's folder: the serialized provider resolves `pulumi-boundary` from here, as the host does. */
  programDir: string;
  project: string;
  stack: string;
  /** Stack configuration with namespaced keys, e.g. `{"boundary:addr": …}`. */
  config?: Record<string, string>;
  /**
   * The plugin's directory (PulumiPlugin.yaml and the built package), for the plugin's resources
   * (`boundary:index:Target` declared through the generated SDK): started at the first one, driven
   * over gRPC; `close()` stops it.
   */
  pluginDir?: string;
}

/** What one run of the program does with each resource. */
type Mode = "up" | "preview";

/** `pulumi up`, `preview`, `refresh` and `destroy` for one stack held in memory; see the module comment. */
export class OfflineEngine {
  readonly state = new Map<string, Recorded>();
  private readonly providers = new Map<string, Promise<Driver>>();
  private plugin: PluginProcess | undefined;

  /** An empty stack (no resource recorded) for the program in `options.programDir`. */
  constructor(private readonly options: OfflineEngineOptions) {}

  /** Stops the plugin process, if one was started (the state stays). */
  async close(): Promise<void> {
    await this.plugin?.stop();
  }

  /** Runs `program` once (as `pulumi up`, `--refresh` first when asked): its outputs, the steps taken, and whether one failed. */
  async up(program: () => Record<string, unknown>, opts: { refresh?: boolean } = {}): Promise<UpResult> {
    const refreshed = opts.refresh ? await this.refreshInto(this.state) : [];
    const run = await this.run(program, "up", this.state);
    return { outputs: run.outputs, steps: [...refreshed, ...run.steps], failed: run.steps.some((s) => s.failed) || refreshed.some((s) => s.failed) };
  }

  /**
   * Plans `program` (as `pulumi preview`): no create, update or delete is made, and the state is
   * left as it was, refresh included (a preview never writes state).
   */
  async preview(program: () => Record<string, unknown>, opts: { refresh?: boolean; expectNoChanges?: boolean } = {}): Promise<PreviewResult> {
    const state = new Map([...this.state].map(([name, r]) => [name, { ...r }]));
    const refreshed = opts.refresh ? await this.refreshInto(state) : [];
    const { steps } = await this.run(program, "preview", state);
    const all = [...refreshed, ...steps];
    const changes = steps.some((s) => s.op !== "same");
    if (all.some((s) => s.failed)) return { steps: all, changes, error: "preview failed", exitCode: 1 };
    if (opts.expectNoChanges && changes) return { steps: all, changes, error: "no changes were expected for preview but changes were proposed", exitCode: 7 };
    return { steps: all, changes, exitCode: 0 };
  }

  /** Reads every resource back (as `pulumi refresh`) and records what the controller holds. */
  async refresh(): Promise<Step[]> {
    return this.refreshInto(this.state);
  }

  /** Deletes everything (as `pulumi destroy`); a failed delete leaves that resource in state, the others go on. */
  async destroy(): Promise<Step[]> {
    const steps: Step[] = [];
    for (const name of [...this.state.keys()].reverse()) steps.push(await this.remove(name, this.state));
    return steps;
  }

  private async run(
    program: () => Record<string, unknown>,
    mode: Mode,
    state: Map<string, Recorded>,
  ): Promise<{ outputs: Record<string, unknown>; steps: Step[] }> {
    const steps: Step[] = [];
    const seen = new Set<string>();
    const pending: Promise<unknown>[] = [];
    let failed = false;
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          seen.add(args.name);
          const step = this.register(args.type, args.name, args.inputs, args.id || undefined, mode, state, () => failed).then(({ result, step }) => {
            steps.push(step);
            if (step.failed) failed = true;
            return result;
          });
          pending.push(step);
          return step;
        },
        call: (args) => args.inputs,
      },
      this.options.project,
      this.options.stack,
      mode === "preview",
    );
    const exported = program() ?? {};
    const outputs: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(exported)) outputs[key] = await settle(pulumi.output(value));
    // every resource the program declared, whatever it exports: the SDK registers each one once its
    // inputs are known, later than the program returns; disconnecting waits for every registration
    await pulumi.runtime.disconnect();
    for (let done = 0; done < pending.length;) {
      const batch = pending.slice(done);
      done = pending.length;
      await Promise.allSettled(batch);
    }
    // what the program no longer declares goes, unless a step failed (the engine starts nothing after a failure)
    for (const name of [...state.keys()].filter((n) => !seen.has(n))) {
      if (failed) steps.push({ name, op: "skipped" });
      else if (mode === "preview") steps.push({ name, op: "delete" });
      else steps.push(await this.remove(name, state));
    }
    return { outputs, steps };
  }

  /** One resource's check, diff and (for `up`) import, create or update. Never rejects: a failure is in the step. */
  private async register(
    type: string,
    name: string,
    news: Record<string, unknown>,
    importId: string | undefined,
    mode: Mode,
    state: Map<string, Recorded>,
    failedBefore: () => boolean,
  ): Promise<{ result: { id: string; state: Record<string, unknown> }; step: Step }> {
    const providerText = news.__provider as string | undefined;
    const prior = state.get(name);
    const unchanged = { id: prior?.id ?? "", state: prior?.outputs ?? news };
    // neither a dynamic resource nor the plugin's (a component, the stack): nothing to call
    if (!providerText && !type.startsWith("boundary:")) return { result: { id: `${name}-id`, state: news }, step: { name, op: "same" } };
    if (failedBefore()) return { result: unchanged, step: { name, op: "skipped" } };
    const own = (o: Record<string, unknown>) => (providerText ? { ...o, __provider: providerText } : o);
    try {
      const driver = await this.driver(type, name, providerText);
      if (!prior && importId) return await this.adopt({ name, type, importId, news, mode, state, driver });
      const checked = await driver.check(prior?.inputs ?? {}, news);
      if (checked.failures.length) throw new Error(checked.failures.join("; "));
      const inputs = own(checked.inputs);
      const record = (id: string, outs: Record<string, unknown>) => ({ id, type, inputs, outputs: own(outs), providerText: providerText ?? "" });
      if (!prior) {
        if (mode === "preview") return { result: { id: "", state: inputs }, step: { name, op: "create", diffs: fieldDiffs({}, inputs) } };
        return this.applied(name, type, inputs, "create", undefined, state, async () => {
          const r = await driver.create(inputs);
          return record(r.id, r.outs);
        });
      }
      const d = await driver.diff(prior.id, prior.outputs, inputs, prior.inputs);
      const diffs = fieldDiffs(prior.inputs, inputs);
      if (!d.changes) {
        state.set(name, { ...prior, inputs });
        return { result: unchanged, step: { name, op: "same" } };
      }
      const op = d.replaces.length ? "replace" : "update";
      if (mode === "preview") return { result: unchanged, step: { name, op, diffs } };
      if (op === "update") {
        return this.applied(name, type, inputs, "update", diffs, state, async () =>
          record(prior.id, (await driver.update(prior.id, prior.outputs, inputs, prior.inputs)).outs),
        );
      }
      // create before delete, as the diff allows
      const replaced = await this.applied(name, type, inputs, "replace", diffs, state, async () => {
        const r = await driver.create(inputs);
        return record(r.id, r.outs);
      });
      if (!replaced.step.failed) await driver.delete(prior.id, prior.outputs);
      return replaced;
    } catch (err) {
      return { result: unchanged, step: { name, op: prior ? "update" : importId ? "import" : "create", failed: (err as Error).message } };
    }
  }

  /**
   * The `import` option, as the engine does it: Read with only the id, Check the program's inputs
   * against what Read returned, Diff; a difference fails the step (the engine's "inputs to import do
   * not match the existing resource"), else `up` records the resource as it is, changing nothing.
   */
  private async adopt(a: {
    name: string;
    type: string;
    importId: string;
    news: Record<string, unknown>;
    mode: Mode;
    state: Map<string, Recorded>;
    driver: Driver;
  }): Promise<{ result: { id: string; state: Record<string, unknown> }; step: Step }> {
    const { name, driver } = a;
    const read = await driver.read(a.importId, {}, {});
    if (!read.id) throw new Error(`resource '${a.importId}' does not exist`);
    const readInputs = read.inputs ?? {};
    const checked = await driver.check(readInputs, a.news);
    if (checked.failures.length) throw new Error(checked.failures.join("; "));
    const d = await driver.diff(read.id, read.props, checked.inputs, readInputs);
    const diffs = fieldDiffs(readInputs, checked.inputs);
    if (d.changes) {
      const fields = diffs.map((x) => x.field).join(", ") || "(unknown)";
      return {
        result: { id: read.id, state: read.props },
        step: { name, op: "import", diffs, failed: `inputs to import do not match the existing resource: ${fields}` },
      };
    }
    if (a.mode === "up") a.state.set(name, { id: read.id, type: a.type, inputs: checked.inputs, outputs: read.props, providerText: "" });
    return { result: { id: read.id, state: read.props }, step: { name, op: "import" } };
  }

  /** Runs a create or update and records its result; a partial failure is recorded with the id and properties it carries. */
  private async applied(
    name: string,
    type: string,
    inputs: Record<string, unknown>,
    op: StepOp,
    diffs: FieldDiff[] | undefined,
    state: Map<string, Recorded>,
    call: () => Promise<Recorded>,
  ): Promise<{ result: { id: string; state: Record<string, unknown> }; step: Step }> {
    const prior = state.get(name);
    try {
      const record = await call();
      state.set(name, record);
      return { result: { id: record.id, state: record.outputs }, step: { name, op, ...(diffs ? { diffs } : {}) } };
    } catch (err) {
      const partial = err as { id?: unknown; properties?: unknown; reasons?: unknown; message?: string };
      const reasons = Array.isArray(partial.reasons) && partial.reasons.length > 0 ? partial.reasons.join("; ") : String(partial.message ?? err);
      if (typeof partial.id === "string" && partial.id !== "" && partial.properties && typeof partial.properties === "object") {
        // the resource exists: record it as the provider left it, so the next up finishes it and destroy removes it
        const providerText = inputs.__provider as string | undefined;
        const props = overTheWire(partial.properties as Record<string, unknown>);
        const outputs = providerText ? { ...props, __provider: providerText } : props;
        state.set(name, { id: partial.id, type, inputs, outputs, providerText: providerText ?? "" });
        return { result: { id: partial.id, state: outputs }, step: { name, op, failed: `partial failure: ${reasons}` } };
      }
      return { result: { id: prior?.id ?? "", state: prior?.outputs ?? inputs }, step: { name, op, failed: reasons } };
    }
  }

  /** Reads each resource of `state` back: gone ones leave it, changed ones are recorded as the controller holds them. */
  private async refreshInto(state: Map<string, Recorded>): Promise<Step[]> {
    const steps: Step[] = [];
    for (const [name, r] of [...state]) {
      try {
        const driver = await this.driver(r.type, name, r.providerText);
        const read = await driver.read(r.id, r.outputs, r.inputs);
        if (!read.id) {
          state.delete(name);
          steps.push({ name, op: "refresh", diffs: [{ field: "(the resource)", old: r.id, new: undefined }] });
          continue;
        }
        const own = (o: Record<string, unknown>) => (r.providerText ? { ...o, __provider: r.providerText } : o);
        const inputs = read.inputs ? own(read.inputs) : r.inputs;
        const diffs = fieldDiffs(r.inputs, inputs);
        state.set(name, { ...r, id: read.id, inputs, outputs: own(read.props) });
        steps.push({ name, op: diffs.length > 0 ? "refresh" : "same", ...(diffs.length > 0 ? { diffs } : {}) });
      } catch (err) {
        steps.push({ name, op: "refresh", failed: (err as Error).message });
      }
    }
    return steps;
  }

  private async remove(name: string, state: Map<string, Recorded>): Promise<Step> {
    const r = state.get(name)!;
    try {
      const driver = await this.driver(r.type, name, r.providerText);
      await driver.delete(r.id, r.outputs);
      state.delete(name);
      return { name, op: "delete" };
    } catch (err) {
      return { name, op: "delete", failed: (err as Error).message };
    }
  }

  /** The provider of a resource: its serialized dynamic provider (loaded once per text), else the plugin. */
  private driver(type: string, name: string, providerText: string | undefined): Promise<Driver> {
    if (!providerText) {
      if (!this.options.pluginDir) throw new Error(`${type} ${name}: a plugin resource, and this engine was given no pluginDir`);
      this.plugin ??= new PluginProcess(this.options.pluginDir, this.options.project, this.options.stack, this.options.config ?? {});
      return this.plugin.driver(type, name);
    }
    let p = this.providers.get(providerText);
    if (!p) this.providers.set(providerText, (p = dynamicDriver(providerText, this.options.programDir, this.options.config ?? {})));
    return p;
  }
}
