/**
 * A stack of one Target as the engine keeps it, over either route (Pulumi's dynamic-provider host,
 * or the plugin over gRPC): `up`, `preview`, `refresh`, `destroy` and the `import` resource option
 * run the provider's calls in the engine's order and record state as the engine does, so a test can
 * run `pulumi up` twice and see what the second one does. What the engine does around the provider
 * is reproduced from its source (`pkg/resource/deploy/step_generator.go`, `step.go`): old values
 * copied into `ignoreChanges` paths before Check, `customTimeouts` forwarded as `timeout` in
 * seconds, `replaceOnChanges`, create-before-delete unless Diff or the options say otherwise, a
 * replacement checked without old inputs, a partial failure recorded with its id and updated at the
 * next `up`. Two stacks are two provider processes; they may share one controller.
 */
import { parseDuration } from "../common/duration";
import { engine, secret, type Engine } from "./engine";
import { startHost, startPlugin, type Host } from "./provider-host";

/** Inputs and outputs as the engine decodes them: JSON of any shape, read by tests field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- decoded wire JSON of any shape; tests index into it freely
type Obj = Record<string, any>;

/** The two ways Pulumi runs this provider. */
export type RouteKind = "dynamic" | "plugin";

/** One provider process, configured for a controller, and how a program's arguments reach it. */
export interface Route {
  readonly kind: RouteKind;
  readonly engine: Engine;
  readonly host: Host;
  /** The inputs the engine receives for `new Target(name, args, opts)` (the dynamic route adds what the Target class adds). */
  register(name: string, args: Obj, options: ResourceOptions): Obj;
  stop(): Promise<void>;
}

/** Where and how a route starts. */
export interface RouteOptions {
  /** The program that installed the packed tarball. */
  program: string;
  addr: string;
  token: string;
  /** Log in with this auth method instead of giving the token (`boundary:authMethodId`, …; the password a secret). */
  login?: { authMethodId: string; loginName: string; password: string };
  /** The serialized provider the SDK writes into a dynamic resource's inputs (see `serializedProvider`). */
  providerText?: string;
  /** The fake engine's address, for the plugin's warnings. */
  engineAddress?: string;
  env?: Record<string, string>;
}

/** The resource options the engine acts on for a Target. */
export interface ResourceOptions {
  ignoreChanges?: string[];
  customTimeouts?: { create?: string; update?: string; delete?: string; read?: string };
  replaceOnChanges?: string[];
  deleteBeforeReplace?: boolean;
}

/** Starts a provider process of `kind` and configures it as the engine does. */
export async function startRoute(kind: RouteKind, o: RouteOptions): Promise<Route> {
  if (kind === "dynamic") {
    const host = await startHost(o.program, o.env);
    const e = engine(host, "urn:pulumi:dev::stack-test::pulumi-nodejs:dynamic/boundary:Target::t");
    // the engine sends the whole stack config, namespaced, with secrets wrapped
    const credentials = o.login
      ? {
          "boundary:authMethodId": o.login.authMethodId,
          "boundary:authMethodLoginName": o.login.loginName,
          "boundary:authMethodPassword": secret(o.login.password),
        }
      : { "boundary:token": secret(o.token) };
    await e.configure({ "boundary:addr": o.addr, ...credentials });
    const providerText = o.providerText ?? "";
    return {
      kind,
      engine: e,
      host,
      // as the Target class registers them (harness/program.ts runs the class itself)
      register: (name, args, options) => ({
        ...args,
        ...(args.name === undefined && { __logicalName: name }),
        ...(options.customTimeouts && { __timeouts: { ...options.customTimeouts } }),
        __provider: providerText,
      }),
      stop: () => host.stop(),
    };
  }
  const host = await startPlugin(o.program, { env: o.env, engineAddress: o.engineAddress });
  const e = engine(host, "urn:pulumi:dev::stack-test::boundary:index:Target::t");
  if (o.engineAddress) await e.handshake(o.engineAddress);
  const credentials = o.login
    ? { authMethodId: o.login.authMethodId, authMethodLoginName: o.login.loginName, authMethodPassword: secret(o.login.password) }
    : { token: secret(o.token) };
  await e.configure({ addr: o.addr, ...credentials }, { "boundary:config:addr": o.addr });
  return { kind, engine: e, host, register: (_name, args) => ({ ...args }), stop: () => host.stop() };
}

/** What `up` did to the resource. */
export type Step = "create" | "update" | "same" | "replace";

/** A failed step, with the reasons the engine shows, after the state was recorded. */
export class StepFailed extends Error {
  /** `step` failed with `cause` (a gRPC error); the message shows `reasons` when given, else the cause's details. */
  constructor(
    readonly step: string,
    override readonly cause: unknown,
    /** The partial failure's reasons, when the provider reported one (the resource is then recorded). */
    readonly reasons: string[] | undefined,
  ) {
    super(`${step} failed: ${reasons?.join("; ") ?? (cause instanceof Error ? ((cause as { details?: string }).details ?? cause.message) : String(cause))}`);
  }
}

/** One Target in one stack; see the module comment. */
export class Stack {
  id: string | undefined;
  inputs: Obj | undefined;
  outputs: Obj | undefined;
  /** The reasons of a partial failure: the engine updates such a resource at the next `up`, changed or not. */
  initErrors: string[] = [];

  /** A resource named `name` that does not exist yet, driven through `route` with the resource options `options`. */
  constructor(
    readonly route: Route,
    readonly name: string,
    readonly options: ResourceOptions = {},
  ) {}

  private get e(): Engine {
    return this.route.engine;
  }

  /** The engine's `timeout` for an operation: the resource's customTimeouts, in seconds. */
  private timeout(op: "create" | "update" | "delete" | "read"): number | undefined {
    const v = this.options.customTimeouts?.[op];
    return v ? parseDuration(`customTimeouts.${op}`, v) / 1000 : undefined;
  }

  /**
   * Check as the engine runs it: for a resource that exists, its old inputs' values first copied
   * into the ignored paths (or the path removed, where the old inputs had none); a create uses the
   * program's values. Failures throw, naming them.
   */
  private async check(args: Obj, olds: Obj): Promise<Obj> {
    const news = this.route.register(this.name, args, this.options);
    for (const path of this.id ? (this.options.ignoreChanges ?? []) : []) {
      const key = path.split(/[.[]/)[0]!;
      if (key in this.inputs!) news[key] = this.inputs![key];
      else delete news[key];
    }
    const r = await this.e.check(news, olds, { name: this.name });
    if (r.failures.length > 0)
      throw new StepFailed(
        "check",
        undefined,
        r.failures.map((f) => `${f.property}: ${f.reason}`),
      );
    return r.inputs;
  }

  /** Runs a step that may end in a partial failure; the engine records the resource then, and shows the reasons. */
  private async step<T>(name: string, inputs: Obj, fn: () => Promise<T>): Promise<T> {
    try {
      const out = await fn();
      this.initErrors = [];
      return out;
    } catch (err) {
      let partial: { id: string; properties: Obj; reasons: string[] } | undefined;
      try {
        partial = this.e.initFailure(err);
      } catch {
        partial = undefined;
      }
      if (partial) {
        this.id = partial.id;
        this.outputs = partial.properties;
        this.inputs = inputs;
        this.initErrors = partial.reasons;
      }
      throw new StepFailed(name, err, partial?.reasons);
    }
  }

  private async create(inputs: Obj): Promise<void> {
    const r = await this.step("create", inputs, () => this.e.create(inputs, { timeout: this.timeout("create") }));
    this.id = r.id;
    this.outputs = r.props;
    this.inputs = inputs;
  }

  /** What the engine would do with `args`, without doing it (`pulumi preview`). */
  async preview(args: Obj): Promise<{ step: Step; replaces: string[]; deleteBeforeReplace: boolean; detailed: Record<string, number> }> {
    if (!this.id) {
      await this.check(args, {});
      return { step: "create", replaces: [], deleteBeforeReplace: false, detailed: {} };
    }
    const inputs = await this.check(args, this.inputs!);
    const d = await this.diff(inputs);
    const step = d.replaceKeys.length > 0 ? "replace" : d.changes || this.initErrors.length > 0 ? "update" : "same";
    return { step, replaces: d.replaceKeys, deleteBeforeReplace: d.deleteBeforeReplace, detailed: d.detailed };
  }

  private async diff(inputs: Obj): Promise<{ changes: boolean; replaceKeys: string[]; deleteBeforeReplace: boolean; detailed: Record<string, number> }> {
    const d = await this.e.diff(this.id!, this.outputs!, inputs, { oldInputs: this.inputs, ignoreChanges: this.options.ignoreChanges });
    const changes = d.changes === this.e.proto.DiffResponse.DiffChanges.DIFF_SOME;
    // replaceOnChanges: the changed keys (the detailed diff's, else the inputs that differ) that it names
    const changed = d.hasDetailed
      ? Object.keys(d.detailed)
      : Object.keys({ ...this.inputs, ...inputs }).filter((k) => !k.startsWith("__") && JSON.stringify(this.inputs![k]) !== JSON.stringify(inputs[k]));
    const forced = changes ? changed.filter((k) => this.options.replaceOnChanges?.some((p) => p === "*" || p === k)) : [];
    return {
      changes,
      replaceKeys: [...new Set([...d.replaces, ...forced])],
      deleteBeforeReplace: this.options.deleteBeforeReplace ?? d.deleteBeforeReplace,
      detailed: d.detailed,
    };
  }

  /**
   * `pulumi up` of a program declaring this Target with `args`; `replace` is `pulumi up --replace`
   * (no Diff: create-before-delete unless the deleteBeforeReplace option says otherwise).
   */
  async up(args: Obj, opts: { replace?: boolean } = {}): Promise<Step> {
    if (!this.id) {
      await this.create(await this.check(args, {}));
      return "create";
    }
    const inputs = await this.check(args, this.inputs!);
    if (opts.replace) {
      await this.replace(args, this.options.deleteBeforeReplace ?? false);
      return "replace";
    }
    const d = await this.diff(inputs);
    if (d.replaceKeys.length > 0) {
      await this.replace(args, d.deleteBeforeReplace);
      return "replace";
    }
    if (!d.changes && this.initErrors.length === 0) return "same";
    this.outputs = await this.step("update", inputs, () =>
      this.e.update(this.id!, this.outputs!, inputs, { oldInputs: this.inputs, ignoreChanges: this.options.ignoreChanges, timeout: this.timeout("update") }),
    );
    this.inputs = inputs;
    return "update";
  }

  /** A replacement: checked without old inputs; the old one deleted first or last. */
  private async replace(args: Obj, deleteFirst: boolean): Promise<void> {
    const inputs = await this.check(args, {});
    const old = { id: this.id!, outputs: this.outputs! };
    if (deleteFirst) await this.e.delete(old.id, old.outputs, { timeout: this.timeout("delete") });
    await this.create(inputs);
    if (!deleteFirst) await this.e.delete(old.id, old.outputs, { timeout: this.timeout("delete") });
  }

  /** `pulumi refresh`: the resource read again; dropped from the stack when the provider says it is gone. */
  async refresh(): Promise<"same" | "gone"> {
    const r = await this.e.read(this.id!, this.outputs, { inputs: this.inputs, timeout: this.timeout("read") });
    if (r.id === "") {
      this.id = this.inputs = this.outputs = undefined;
      return "gone";
    }
    this.outputs = r.props;
    if (Object.keys(r.inputs).length > 0) this.inputs = r.inputs;
    return "same";
  }

  /** `pulumi destroy`. */
  async destroy(): Promise<void> {
    await this.e.delete(this.id!, this.outputs!, { timeout: this.timeout("delete") });
    this.id = this.inputs = this.outputs = undefined;
  }

  /**
   * The `import` resource option: Read with only the id, Check the program against what it found,
   * Diff; the engine refuses the import when Diff shows any change.
   */
  async importExisting(id: string, args: Obj): Promise<void> {
    const r = await this.e.read(id);
    if (r.id === "") throw new Error(`import: ${id} does not exist`);
    const inputs = await this.check(args, r.inputs);
    const d = await this.e.diff(id, r.props, inputs, { oldInputs: r.inputs, ignoreChanges: this.options.ignoreChanges });
    if (d.changes === this.e.proto.DiffResponse.DiffChanges.DIFF_SOME) {
      throw new Error(`import: inputs to import do not match the existing resource: ${Object.keys(d.detailed).join(", ") || d.replaces.join(", ")}`);
    }
    this.id = id;
    this.outputs = r.props;
    this.inputs = inputs;
  }

  /** This stack records the same Target as `other` (as after importing it): two stacks, one Target. */
  recordSame(other: Stack): void {
    this.id = other.id;
    this.inputs = structuredClone(other.inputs);
    this.outputs = structuredClone(other.outputs);
  }
}
