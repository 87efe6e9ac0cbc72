/**
 * `boundary.Target`: a Pulumi dynamic resource for a Boundary Target.
 *
 * Pulumi serializes the resource's provider into every Target's state (`__provider`). That provider
 * is the proxy below: stateless, a few hundred bytes, each method `require`s the implementation from
 * the installed package inside the host. No token, address or client is ever captured in it.
 */
import * as pulumi from "@pulumi/pulumi";

/** @internal Serialized by value into state; keep every method self-contained. */
export class TargetProviderProxy implements pulumi.dynamic.ResourceProvider {
  async configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("pulumi-boundary/dynamic").providerFor(this).configure(req);
  }
  async check(olds: any, news: any) {
    return require("pulumi-boundary/dynamic").providerFor(this).check(olds, news);
  }
  async diff(id: string, olds: any, news: any) {
    return require("pulumi-boundary/dynamic").providerFor(this).diff(id, olds, news);
  }
  async create(inputs: any) {
    return require("pulumi-boundary/dynamic").providerFor(this).create(inputs);
  }
  async read(id: string, props: any) {
    return require("pulumi-boundary/dynamic").providerFor(this).read(id, props);
  }
  async update(id: string, olds: any, news: any) {
    return require("pulumi-boundary/dynamic").providerFor(this).update(id, olds, news);
  }
  async delete(id: string, props: any) {
    return require("pulumi-boundary/dynamic").providerFor(this).delete(id, props);
  }
}

const provider = new TargetProviderProxy();

/** Inputs of a Target. Fields left out are not managed: the controller's value is kept as is. */
export interface TargetArgs {
  /** Project scope id (`p_…`). Changing it replaces the Target. */
  scopeId: pulumi.Input<string>;
  /** Name, unique within the project. */
  name: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** Only "tcp" exists (the default). Changing it replaces the Target. */
  type?: pulumi.Input<"tcp">;
  /** Host set ids (`hsst_…`), compared as a set. Reconciled with `:set-host-sets`. */
  hostSetIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Credential library ids (`clvlt_…`), compared as a set. Reconciled with `:set-credential-libraries`. */
  applicationCredentialLibraryIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Maximum session lifetime in seconds (controller default 28800). */
  sessionMaxSeconds?: pulumi.Input<number>;
  /** Maximum connections per session; -1 means unlimited. */
  sessionConnectionLimit?: pulumi.Input<number>;
  /** Boolean expression selecting the workers that may handle sessions. */
  workerFilter?: pulumi.Input<string>;
  /** The tcp `attributes.default_port`. */
  defaultPort?: pulumi.Input<number>;
}

const OUTPUTS = [
  "version",
  "createdTime",
  "updatedTime",
  "scope",
  "hostSets",
  "applicationCredentialLibraries",
  "authorizedActions",
] as const;

/** A Boundary Target. The resource id is the Boundary id (`ttcp_…`). */
export class Target extends pulumi.dynamic.Resource {
  declare readonly scopeId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly type: pulumi.Output<string>;
  declare readonly hostSetIds: pulumi.Output<string[]>;
  declare readonly applicationCredentialLibraryIds: pulumi.Output<string[]>;
  declare readonly sessionMaxSeconds: pulumi.Output<number>;
  declare readonly sessionConnectionLimit: pulumi.Output<number>;
  declare readonly workerFilter: pulumi.Output<string | undefined>;
  declare readonly defaultPort: pulumi.Output<number | undefined>;
  /** The Target's version after the last change Pulumi made or saw. */
  declare readonly version: pulumi.Output<number>;
  declare readonly createdTime: pulumi.Output<string>;
  declare readonly updatedTime: pulumi.Output<string>;
  declare readonly scope: pulumi.Output<{ id: string; type: string; name?: string; description?: string; parentScopeId?: string }>;
  declare readonly hostSets: pulumi.Output<{ id: string; hostCatalogId?: string }[]>;
  declare readonly applicationCredentialLibraries: pulumi.Output<{ id: string; credentialStoreId?: string }[]>;
  declare readonly authorizedActions: pulumi.Output<string[]>;

  constructor(name: string, args: TargetArgs, opts?: pulumi.CustomResourceOptions) {
    const props: Record<string, unknown> = { ...args };
    for (const key of OUTPUTS) props[key] = undefined;
    super(provider, name, props, opts, "boundary", "Target");
  }
}
