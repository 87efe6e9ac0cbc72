/**
 * The engine's side of the provider protocol, for tests: one client for both routes (the dynamic
 * provider host and the plugin), typed from the SDK's proto declarations and loaded from the
 * program's own node_modules, as the engine's messages would be. Every response is also kept, and
 * decoded as the engine would read it when a test asks (to search them for leaked secrets): a
 * benchmark driving thousands of calls pays for one decoding per response, as the engine does.
 */
import { specialSecretSig, specialSigKey, unknownValue } from "@pulumi/pulumi/runtime/rpc";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { Host } from "./provider-host";

/** The SDK's own unknown sentinel: what the engine sends for an input not known during a preview. */
export const UNKNOWN = unknownValue;
/** `value` wrapped as the engine wraps a secret input (the SDK's signature key and secret signature). */
export const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });
/** True when `v` is a secret wrapper as the engine encodes one (see `secret`). */
export const isWrappedSecret = (v: unknown): boolean =>
  v !== null && typeof v === "object" && (v as Record<string, unknown>)[specialSigKey] === specialSecretSig;

/** A decoded Struct: whatever JSON a provider sent back, which tests read field by field as the engine would. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- decoded wire JSON of any shape; tests index into it freely
type Obj = Record<string, any>;
type Struct = { toJavaScript(): Obj } | undefined;
const js = (s: Struct): Obj => s?.toJavaScript() ?? {};

/** What the engine adds to Check: the logical name, its autonaming settings, the random seed. */
export interface CheckOptions {
  name?: string;
  autonaming?: { proposedName: string; mode: "propose" | "enforce" | "disable" };
  randomSeed?: Uint8Array;
}

/** What the engine sends with a step beyond its data: the resource's `customTimeouts` (seconds) and `ignoreChanges`. */
export interface StepOptions {
  /** The operation's timeout in seconds, as the engine forwards `customTimeouts` (0 or unset: none). */
  timeout?: number;
  /** Property paths the engine was told to ignore (Diff and Update). */
  ignoreChanges?: string[];
}

/** Calls in the engine's shapes; `urn` names the resource every request is about. */
export interface Engine {
  proto: typeof pb;
  configure(args: Obj, variables?: Record<string, string>): Promise<pb.ConfigureResponse>;
  checkConfig(news: Obj): Promise<{ inputs: Obj; failures: string[] }>;
  /** DiffConfig as the engine sends it before re-configuring a provider: which config keys changed. */
  diffConfig(olds: Obj, news: Obj): Promise<{ changes: number; diffs: string[] }>;
  check(news: Obj, olds?: Obj, options?: CheckOptions): Promise<{ inputs: Obj; failures: { property: string; reason: string }[] }>;
  diff(
    id: string,
    olds: Obj,
    news: Obj,
    options?: { oldInputs?: Obj; ignoreChanges?: string[] },
  ): Promise<{ changes: number; replaces: string[]; deleteBeforeReplace: boolean; hasDetailed: boolean; detailed: Record<string, number> }>;
  create(inputs: Obj, options?: { preview?: boolean } & StepOptions): Promise<{ id: string; props: Obj }>;
  read(id: string, props?: Obj, options?: StepOptions & { inputs?: Obj }): Promise<{ id: string; props: Obj; inputs: Obj }>;
  update(id: string, olds: Obj, news: Obj, options?: { preview?: boolean; oldInputs?: Obj } & StepOptions): Promise<Obj>;
  delete(id: string, props: Obj, options?: StepOptions): Promise<void>;
  /** Ctrl-C: the engine asks the provider to abort what it is doing. */
  cancel(): Promise<void>;
  invoke(tok: string, args: Obj): Promise<Obj>;
  /** Handshake as the engine sends it, with the address of its own gRPC server. */
  handshake(engineAddress?: string): Promise<pb.ProviderHandshakeResponse>;
  getSchema(): Promise<Obj>;
  /**
   * The partial failure a failed call carries (`ErrorResourceInitFailed` in its gRPC status
   * details), as the engine records it: the resource's id, its properties and the reasons.
   */
  initFailure(err: unknown): { id: string; properties: Obj; reasons: string[] };
  /** Every response so far, decoded at each access (Structs as plain values, failures as text). */
  readonly responses: unknown[];
}

/** An engine client for a started provider process. */
export function engine(host: Host, urn: string): Engine {
  const proto = host.proto as typeof pb;
  const raw: unknown[] = [];
  const toStruct = (o: Obj) => host.toStruct(o);
  async function rpc<Req, Res>(method: string, request: Req): Promise<Res> {
    const res = await host.call<Res>(method, request);
    raw.push(res);
    return res;
  }
  const withUrn = <T extends { setUrn(u: string): unknown }>(r: T): T => (r.setUrn(urn), r);

  return {
    proto,
    get responses() {
      return raw.map(decoded);
    },
    async configure(args, variables = {}) {
      const r = new proto.ConfigureRequest();
      for (const [k, v] of Object.entries(variables)) r.getVariablesMap().set(k, v);
      r.setArgs(toStruct(args));
      r.setAcceptsecrets(true);
      return rpc("configure", r);
    },
    async checkConfig(news) {
      const r = new proto.CheckRequest();
      r.setUrn("urn:pulumi:dev::test::pulumi:providers:boundary::default");
      r.setOlds(toStruct({}));
      r.setNews(toStruct(news));
      const res = await rpc<pb.CheckRequest, pb.CheckResponse>("checkConfig", r);
      return { inputs: js(res.getInputs()), failures: res.getFailuresList().map((f) => f.getProperty()) };
    },
    async diffConfig(olds, news) {
      const r = new proto.DiffRequest();
      r.setUrn("urn:pulumi:dev::test::pulumi:providers:boundary::default");
      r.setOlds(toStruct(olds));
      r.setNews(toStruct(news));
      const res = await rpc<pb.DiffRequest, pb.DiffResponse>("diffConfig", r);
      return { changes: res.getChanges(), diffs: res.getDiffsList() };
    },
    async check(news, olds = {}, options = {}) {
      const r = withUrn(new proto.CheckRequest());
      r.setOlds(toStruct(olds));
      r.setNews(toStruct(news));
      if (options.name) r.setName(options.name);
      if (options.randomSeed) r.setRandomseed(options.randomSeed);
      if (options.autonaming) {
        const a = new proto.CheckRequest.AutonamingOptions();
        const Mode = proto.CheckRequest.AutonamingOptions.Mode;
        a.setProposedName(options.autonaming.proposedName);
        a.setMode({ propose: Mode.PROPOSE, enforce: Mode.ENFORCE, disable: Mode.DISABLE }[options.autonaming.mode]);
        r.setAutonaming(a);
      }
      const res = await rpc<pb.CheckRequest, pb.CheckResponse>("check", r);
      return { inputs: js(res.getInputs()), failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })) };
    },
    async diff(id, olds, news, options = {}) {
      const r = withUrn(new proto.DiffRequest());
      r.setId(id);
      r.setOlds(toStruct(olds));
      r.setNews(toStruct(news));
      if (options.oldInputs) r.setOldInputs(toStruct(options.oldInputs));
      if (options.ignoreChanges) r.setIgnorechangesList(options.ignoreChanges);
      const res = await rpc<pb.DiffRequest, pb.DiffResponse>("diff", r);
      const detailed: Record<string, number> = {};
      res.getDetaileddiffMap().forEach((v, k) => (detailed[k] = v.getKind()));
      return {
        changes: res.getChanges(),
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
        hasDetailed: res.getHasdetaileddiff(),
        detailed,
      };
    },
    async create(inputs, options = {}) {
      const r = withUrn(new proto.CreateRequest());
      r.setProperties(toStruct(inputs));
      r.setPreview(options.preview ?? false);
      if (options.timeout) r.setTimeout(options.timeout);
      const res = await rpc<pb.CreateRequest, pb.CreateResponse>("create", r);
      return { id: res.getId(), props: js(res.getProperties()) };
    },
    async read(id, props, options = {}) {
      const r = withUrn(new proto.ReadRequest());
      r.setId(id);
      if (props) r.setProperties(toStruct(props));
      if (options.inputs) r.setInputs(toStruct(options.inputs));
      if (options.timeout) r.setTimeout(options.timeout);
      const res = await rpc<pb.ReadRequest, pb.ReadResponse>("read", r);
      return { id: res.getId(), props: js(res.getProperties()), inputs: js(res.getInputs()) };
    },
    async update(id, olds, news, options = {}) {
      const r = withUrn(new proto.UpdateRequest());
      r.setId(id);
      r.setOlds(toStruct(olds));
      r.setNews(toStruct(news));
      r.setPreview(options.preview ?? false);
      if (options.oldInputs) r.setOldInputs(toStruct(options.oldInputs));
      if (options.timeout) r.setTimeout(options.timeout);
      if (options.ignoreChanges) r.setIgnorechangesList(options.ignoreChanges);
      return js((await rpc<pb.UpdateRequest, pb.UpdateResponse>("update", r)).getProperties());
    },
    async delete(id, props, options = {}) {
      const r = withUrn(new proto.DeleteRequest());
      r.setId(id);
      r.setProperties(toStruct(props));
      if (options.timeout) r.setTimeout(options.timeout);
      await rpc("delete", r);
    },
    async cancel() {
      await host.call("cancel", new host.empty.Empty());
    },
    async invoke(tok, args) {
      const r = new proto.InvokeRequest();
      r.setTok(tok);
      r.setArgs(toStruct(args));
      return js((await rpc<pb.InvokeRequest, pb.InvokeResponse>("invoke", r)).getReturn());
    },
    async handshake(engineAddress = "127.0.0.1:1") {
      const r = new proto.ProviderHandshakeRequest();
      r.setEngineAddress(engineAddress);
      return rpc("handshake", r);
    },
    initFailure(err) {
      const bin = (err as { metadata?: { get(key: string): unknown[] } }).metadata?.get("grpc-status-details-bin")[0];
      if (!(bin instanceof Uint8Array)) throw new Error(`not a partial failure: ${String(err)}`);
      const detail = host.status.Status.deserializeBinary(bin)
        .getDetailsList()[0]
        ?.unpack(proto.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
      if (!detail) throw new Error(`not a partial failure: ${String(err)}`);
      return { id: detail.getId(), properties: js(detail.getProperties()), reasons: detail.getReasonsList() };
    },
    async getSchema() {
      const r = new proto.GetSchemaRequest();
      r.setVersion(0);
      return JSON.parse((await rpc<pb.GetSchemaRequest, pb.GetSchemaResponse>("getSchema", r)).getSchema());
    },
  };
}

/** A response as the engine reads it: Structs decoded, failures as text. */
function decoded(res: unknown): unknown {
  const r = res as Record<string, (() => unknown) | undefined>;
  const out: Record<string, unknown> = {};
  for (const getter of ["getInputs", "getProperties", "getReturn", "getSchema", "getVersion"]) {
    const v = r[getter]?.call(res) as Struct | string | undefined;
    if (v !== undefined) out[getter] = typeof v === "object" && v !== null && "toJavaScript" in v ? v.toJavaScript() : v;
  }
  const failures = r.getFailuresList?.call(res) as pb.CheckFailure[] | undefined;
  if (failures) out.failures = failures.map((f) => `${f.getProperty()}: ${f.getReason()}`);
  return out;
}
