/**
 * The dynamic-provider route: the entry the serialized proxy loads inside Pulumi's dynamic-provider
 * host (`require("pulumi-boundary/dynamic").providerFor(this)`), and the adapter from
 * `pulumi.dynamic.ResourceProvider` to the core. Only this file knows `__provider`: the host needs
 * it in the properties of a partial failure, or later Read/Delete could not load the provider.
 *
 * The host gives no URN and no old inputs past Check, so two hidden inputs carry what the core
 * needs: `__logicalName` (set by the Target class when the program gives no name, for autonaming)
 * and `__priorInputs` (written here by Check from the old inputs: the fields the program set at its
 * previous run, so a field removed since is reset even if no apply ever recorded it).
 *
 * Stacks deployed by any earlier version store a proxy that calls `providerFor(this)` and then one
 * of the methods below: keep both.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { BoundaryClientOptions } from "../client";
import { providerOptions } from "../config";
import { TargetCore } from "./core";
import { ResourceInitError } from "./errors";
import { managedFields } from "./state";

const PROVIDER_KEY = "__provider";
const LOGICAL_NAME_KEY = "__logicalName";
const PRIOR_INPUTS_KEY = "__priorInputs";

/** `pulumi.dynamic.ResourceProvider` over the core; warnings go to stderr, the host's only channel. */
export class DynamicTargetProvider implements pulumi.dynamic.ResourceProvider {
  /** The shared core; tests reach its client through it. */
  readonly core: TargetCore;

  /** Options for the client; `configure` (stack config) overrides them. */
  constructor(options: BoundaryClientOptions = {}) {
    this.core = new TargetCore(options);
  }

  /** Stack config `boundary:addr` / `boundary:token`; unset keys fall back to BOUNDARY_ADDR / BOUNDARY_TOKEN. */
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    await this.core.configure(providerOptions((key) => req.config.get(`boundary:${key}`)));
  }

  /** Validates the program's inputs (no API call). */
  async check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
    const logicalName = news[LOGICAL_NAME_KEY];
    const { inputs, failures } = this.core.check(news, {
      logicalName: typeof logicalName === "string" ? logicalName : undefined,
      oldName: typeof olds.name === "string" ? olds.name : undefined,
    });
    return { inputs: { ...inputs, [PRIOR_INPUTS_KEY]: managedFields(olds) }, failures };
  }

  /** What changed; `replaces` lists the fields that force a new Target. */
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
    const d = this.core.diff(olds, news, { priorInputs: priorInputs(news) });
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
  }

  /** Creates the Target; a later failure is a partial failure carrying its id. */
  async create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
    const { id, state } = await withProvider(inputs, () => this.core.create(inputs));
    return { id, outs: state };
  }

  /** Refresh: one GET; an empty id when the Target is gone. */
  async read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
    const found = await this.core.read(id, props);
    return found ? { id: found.id, props: found.state, inputs: found.inputs } : { id: "" };
  }

  /** Applies the plan with the fewest calls. */
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> {
    return { outs: await withProvider(news, () => this.core.update(id, olds, news, { priorInputs: priorInputs(news) })) };
  }

  /** Deletes the Target; one already gone counts as deleted. */
  async delete(id: string): Promise<void> {
    await this.core.delete(id);
  }
}

/** The fields the program set at its previous run, as Check recorded them. */
function priorInputs(news: Record<string, unknown>): string[] {
  const prior = news[PRIOR_INPUTS_KEY];
  return Array.isArray(prior) ? prior.filter((f): f is string => typeof f === "string") : [];
}

/** Runs `op`; a partial failure gets the inputs' `__provider` in its properties, as the host needs. */
async function withProvider<T>(inputs: Record<string, unknown>, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof ResourceInitError) throw new ResourceInitError(err.id, { ...err.properties, [PROVIDER_KEY]: inputs[PROVIDER_KEY] }, err.reasons);
    throw err;
  }
}

// ---- the entry module as a provider (what an installed package serializes into state) ----

let shared: DynamicTargetProvider | undefined;
const entry = () => (shared ??= new DynamicTargetProvider());

/**
 * This module is itself a `pulumi.dynamic.ResourceProvider`: when the package is installed (in
 * `node_modules`), the Target passes the module, and the SDK serializes it as
 * `require("pulumi-boundary/dynamic")`, a few hundred bytes of state instead of a proxy's code.
 * The host configures it once per `__provider` text, which all Targets share.
 */
export const configure = (req: pulumi.dynamic.ConfigureRequest) => entry().configure(req);
export const check = (olds: Record<string, unknown>, news: Record<string, unknown>) => entry().check(olds, news);
export const diff = (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => entry().diff(id, olds, news);
export const create = (inputs: Record<string, unknown>) => entry().create(inputs);
export const read = (id: string, props: Record<string, unknown>) => entry().read(id, props);
export const update = (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => entry().update(id, olds, news);
const remove = (id: string) => entry().delete(id);
export { remove as delete };

// ---- the proxies of earlier versions and of uninstalled checkouts ----

const providers = new WeakMap<object, DynamicTargetProvider>();

/**
 * The provider for one serialized proxy object, made at its first call and kept here rather than on
 * the proxy, so that no runtime state (a configured token) can ever be serialized into state.
 */
export function providerFor(proxy: object): DynamicTargetProvider {
  let p = providers.get(proxy);
  if (!p) providers.set(proxy, (p = new DynamicTargetProvider()));
  return p;
}
