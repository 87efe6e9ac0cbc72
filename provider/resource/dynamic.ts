/**
 * The dynamic-provider route: the entry the serialized proxy loads inside Pulumi's dynamic-provider
 * host (`require("pulumi-boundary/dynamic").providerFor(this)`), and the adapter from
 * `pulumi.dynamic.ResourceProvider` to the core. Only this file knows `__provider`: the host needs
 * it in the properties of a partial failure, or later Read/Delete could not load the provider.
 *
 * The host gives no URN and no old inputs past Check, and drops the engine's timeouts, so hidden
 * inputs carry what the core needs: `__logicalName` (set by the Target class when the program gives
 * no name, for autonaming; its presence also says the name is not the program's),
 * `__priorInputs` (written here by Check from the old inputs: the fields the program set at its
 * previous run and has removed since, so such a field is reset even if no apply ever recorded it;
 * absent when none was removed) and
 * `__timeouts` (the resource's `customTimeouts`, copied by the Target class and kept in the outputs,
 * so refresh and destroy, which get only the outputs, honour them too).
 *
 * Stacks deployed by any earlier version store a proxy that calls `providerFor(this)` and then one
 * of the methods below: keep both.
 */
// first: an unsupported Node.js fails here with one line, before any dependency loads
import "../node-version";
// next: zod's translations wait for a first use (see the module), before anything loads zod
import "../zod-locales";
import type * as pulumi from "@pulumi/pulumi";
import { parseDuration } from "../../common/duration";
import type { BoundaryClientOptions } from "../client";
import { PACKAGE, providerOptions, refuseUnknownConfigKeys } from "../config";
import { TargetCore, type OperationContext } from "./core";
import { ResourceInitError } from "./errors";
import { INPUT_FIELDS, type InputField } from "../../wire/target-fields";
import { isSet } from "./inputs";

const PROVIDER_KEY = "__provider";
const LOGICAL_NAME_KEY = "__logicalName";
const PRIOR_INPUTS_KEY = "__priorInputs";
/** The resource's `customTimeouts` (`{create?, update?, delete?, read?}`, Go durations), as the Target class copies them. */
export const TIMEOUTS_KEY = "__timeouts";

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
    // the host's Config keeps the whole stack config, namespaced, in `rawConfig`: a misspelt boundary:… key is named
    const raw = "rawConfig" in req.config ? req.config.rawConfig : undefined;
    const keys = typeof raw === "object" && raw !== null ? Object.keys(raw) : [];
    refuseUnknownConfigKeys(keys.flatMap((k) => (k.startsWith(`${PACKAGE}:`) ? [k.slice(PACKAGE.length + 1)] : [])));
    await this.core.configure(providerOptions((key) => req.config.get(`boundary:${key}`)));
  }

  /** Validates the program's inputs (no API call). */
  async check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
    const logicalName = news[LOGICAL_NAME_KEY];
    const { inputs, failures } = this.core.check(news, {
      logicalName: typeof logicalName === "string" ? logicalName : undefined,
      oldName: typeof olds.name === "string" ? olds.name : undefined,
    });
    const removed = removedFields(olds, news);
    // the usual run removes nothing: no key, so the inputs (stored, then sent on every later step) carry nothing extra
    if (removed.length > 0) return { inputs: { ...inputs, [PRIOR_INPUTS_KEY]: removed }, failures };
    if (!(PRIOR_INPUTS_KEY in inputs)) return { inputs, failures };
    const { [PRIOR_INPUTS_KEY]: _stale, ...rest } = inputs;
    return { inputs: rest, failures };
  }

  /** What changed; `replaces` lists the fields that force a new Target. */
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
    // the Target class sets __logicalName only when the program gives no name
    const d = await this.core.diff(olds, news, { priorInputs: priorInputs(news), autonamed: news[LOGICAL_NAME_KEY] !== undefined });
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
  }

  /** Creates the Target within its create timeout; a later failure is a partial failure carrying its id. */
  async create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
    const { id, state } = await withProvider(inputs, () => this.core.create(inputs, timeouts(inputs, "create")));
    return { id, outs: withTimeouts(state, inputs) };
  }

  /** Refresh: one GET within the read timeout; an empty id when the Target is gone. */
  async read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
    const found = await this.core.read(id, props, timeouts(props, "read"));
    return found ? { id: found.id, props: withTimeouts(found.state, props), inputs: withTimeouts(found.inputs, props) } : { id: "" };
  }

  /** Applies the plan with the fewest calls, within the update timeout. */
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> {
    const outs = await withProvider(news, () => this.core.update(id, olds, news, { priorInputs: priorInputs(news), ...timeouts(news, "update") }));
    return { outs: withTimeouts(outs, news) };
  }

  /** Deletes the Target within the delete timeout; one already gone (Boundary's own NotFound) counts as deleted. */
  async delete(id: string, props: Record<string, unknown> = {}): Promise<void> {
    await this.core.delete(id, timeouts(props, "delete"));
  }
}

/** The operation's budget from the `customTimeouts` the Target class copied (an unreadable one is left to the default). */
function timeouts(props: Record<string, unknown>, op: "create" | "read" | "update" | "delete"): OperationContext {
  const value = (props[TIMEOUTS_KEY] as Record<string, unknown> | undefined)?.[op];
  if (typeof value !== "string" || value === "") return {};
  try {
    return { timeoutMs: parseDuration(`customTimeouts.${op}`, value), timeoutSource: `customTimeouts ${op} ${value}` };
  } catch {
    return {};
  }
}

/** The outputs with the resource's `customTimeouts` kept, so refresh and destroy see them. */
function withTimeouts<T extends object>(outs: T, from: Record<string, unknown>): T {
  return from[TIMEOUTS_KEY] === undefined ? outs : { ...outs, [TIMEOUTS_KEY]: from[TIMEOUTS_KEY] };
}

/**
 * The input fields the previous program set (`olds`) that the program no longer sets (`news`): what
 * Check records as `__priorInputs`. Only those can matter: the diff, the plan and the release
 * verdicts read `__managed` only for a field the inputs leave unset, so a field still set adds
 * nothing. A string of white space counts as unset here (normalising may make it so), which at
 * worst records a field the state already manages, as every field was recorded before.
 */
export function removedFields(olds: Record<string, unknown>, news: Record<string, unknown>): InputField[] {
  const out: InputField[] = [];
  // by index: on every check, mostly before V8 optimises it
  for (let i = 0; i < INPUT_FIELDS.length; i++) {
    const f = INPUT_FIELDS[i]!;
    if (olds[f] === undefined) continue;
    const v = news[f];
    if (!isSet(v) || (typeof v === "string" && v.trim() === "")) out.push(f);
  }
  return out;
}

/** The fields the program set at its previous run and no longer sets, as Check recorded them (earlier versions recorded every field it set). */
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
/** `ResourceProvider.check` of the module's one provider: the program's inputs checked, normalised and autonamed. */
export const check = (olds: Record<string, unknown>, news: Record<string, unknown>) => entry().check(olds, news);
/** `ResourceProvider.diff`: what changes between the state and the program, and what replaces the Target. */
export const diff = (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => entry().diff(id, olds, news);
/** `ResourceProvider.create`: creates the Target; a failure once it exists records it (a partial failure). */
export const create = (inputs: Record<string, unknown>) => entry().create(inputs);
/** `ResourceProvider.read`: the Target as the controller holds it now, or none when it is gone. */
export const read = (id: string, props: Record<string, unknown>) => entry().read(id, props);
/** `ResourceProvider.update`: applies the planned changes in place, threading `version`. */
export const update = (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => entry().update(id, olds, news);
const remove = (id: string, props?: Record<string, unknown>) => entry().delete(id, props);
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
