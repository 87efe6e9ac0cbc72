/**
 * `boundary.Target`: a Pulumi dynamic resource for a Boundary Target.
 *
 * Pulumi serializes the resource's provider into every Target's state (`__provider`), twice (inputs
 * and outputs). An installed package passes its `pulumi-boundary/dynamic` module, which the SDK
 * serializes as a bare `require` (~250 bytes). From a checkout or a linked package the SDK would copy
 * that module by value, which cannot work, so the stateless proxy below is passed instead: each
 * method `require`s the implementation inside the host. No token, address or client is captured.
 */
import * as pulumi from "@pulumi/pulumi";
import { INPUT_FIELDS } from "../../wire/target-fields";
import * as entry from "./dynamic";
import type { TargetInputDocs } from "./input-docs";
import { TIMEOUTS_KEY } from "./dynamic";
import type { TargetInputs } from "./inputs";
import { OUTPUT_FIELDS, type TargetState } from "./state";

/**
 * @internal Serialized by value into state; keep every method self-contained. Each method loads the
 * installed `pulumi-boundary/dynamic` inside the host and hands the call to it unchanged.
 */
/* eslint-disable jsdoc/require-jsdoc, @typescript-eslint/no-require-imports --
   the SDK serializes these methods' source text: a require inside each is the only import that
   survives, and each method does exactly what ResourceProvider's method of the same name says */
export class TargetProviderProxy implements pulumi.dynamic.ResourceProvider {
  async configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("pulumi-boundary/dynamic").providerFor(this).configure(req);
  }
  async check(olds: Record<string, unknown>, news: Record<string, unknown>) {
    return require("pulumi-boundary/dynamic").providerFor(this).check(olds, news);
  }
  async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return require("pulumi-boundary/dynamic").providerFor(this).diff(id, olds, news);
  }
  async create(inputs: Record<string, unknown>) {
    return require("pulumi-boundary/dynamic").providerFor(this).create(inputs);
  }
  async read(id: string, props: Record<string, unknown>) {
    return require("pulumi-boundary/dynamic").providerFor(this).read(id, props);
  }
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    return require("pulumi-boundary/dynamic").providerFor(this).update(id, olds, news);
  }
  async delete(id: string, props: Record<string, unknown>) {
    return require("pulumi-boundary/dynamic").providerFor(this).delete(id, props);
  }
}
/* eslint-enable jsdoc/require-jsdoc, @typescript-eslint/no-require-imports */

/** The module when this package is installed (the SDK then references it), else the proxy. */
const provider: pulumi.dynamic.ResourceProvider = /[\\/]node_modules[\\/]/.test(__filename)
  ? (entry as pulumi.dynamic.ResourceProvider)
  : new TargetProviderProxy();

/** A program's value for a field: an Input, and for a list an Input of Inputs (not distributed: `Input<"tcp" | "ssh">`). */
type ArgValue<T> = [T] extends [readonly (infer E)[]] ? pulumi.Input<pulumi.Input<E>[]> : pulumi.Input<T>;

/**
 * Inputs of a Target, from the field table (see docs/provider.md's inputs table or the package schema for
 * each field). Fields left out are not managed: the controller's value is kept as is. Mapped over
 * TargetInputDocs (generated from the table's docs) so that each field shows its doc on hover.
 */
export type TargetArgs = { [K in keyof TargetInputDocs]: ArgValue<Exclude<TargetInputs[K], undefined>> };

/** Every field of the state as an Output: the controller's values, and what it computes. */
type TargetOutputs = {
  readonly [K in keyof TargetState as string extends K ? never : K extends "__managed" ? never : K]-?: pulumi.Output<TargetState[K]>;
};

/** Interface merged into the class: its outputs, typed from the state schema. */
// Pulumi's own resources declare outputs as class fields; here they come from the state schema, and
// only a merged interface can add a mapped type's members to a class (the dynamic base sets them)
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Target extends TargetOutputs {}

/** A Boundary Target. The resource id is the Boundary id (`ttcp_…`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class Target extends pulumi.dynamic.Resource {
  /**
   * Registers a Target named `name` (the logical name; also the Boundary name when `args.name` is
   * unset) with the given inputs and resource options.
   */
  constructor(name: string, args: TargetArgs, opts?: pulumi.CustomResourceOptions) {
    // every field is registered, so each output exists whether or not the program set it; a key
    // that is no field goes too, so that check names it (plain JavaScript has no type check)
    const props: Record<string, unknown> = {};
    for (const key of [...INPUT_FIELDS, ...OUTPUT_FIELDS, ...Object.keys(args ?? {})]) props[key] = (args as Record<string, unknown>)[key];
    // with no name, the provider names the Target after this resource (autonaming)
    if (args.name === undefined) props.__logicalName = name;
    // the dynamic-provider host drops the engine's timeouts: the provider reads them from here
    if (opts?.customTimeouts) props[TIMEOUTS_KEY] = { ...opts.customTimeouts };
    super(provider, name, props, opts, "boundary", "Target");
  }
}
