/**
 * The plugin route's adapter: `pulumirpc.ResourceProvider` requests in, the core's calls, protocol
 * responses out. Only this file (with `server.ts`) knows gRPC messages, Structs and secret
 * wrappers; every rule lives in the core. Each RPC has the same shape: decode, call, encode.
 *
 * As the engine drives a provider that answers Handshake: Create and Update come during previews
 * too (`preview = true`) and must make no API call; secret inputs arrive wrapped and must leave
 * wrapped (the engine does not re-mark outputs of a provider that accepts secrets); warnings go
 * to the engine's Log service with the resource's URN. The engine's `timeout` (the resource's
 * `customTimeouts`) is each operation's deadline, `Cancel` aborts every operation in flight, and
 * `ignoreChanges` reaches Diff and Update.
 */
import type * as grpc from "@grpc/grpc-js";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import { ClientSettingsError } from "../client/errors";
import { ResourceInitError } from "../resource/errors";
import { resolveSettings } from "../client/settings";
import { CONFIG_KEYS, PACKAGE, PROVIDER_CONFIG, configKeyProblem, providerOptions, refuseUnknownConfigKeys, type ConfigKey } from "../config";
import { GetTargetsArgsSchema, SESSION_SECRET_FIELDS, decodeAuthorizeSessionArgs, getTargetsOn, sessionView } from "../functions";
import { Operation } from "../client";
import { TargetCore, type OperationContext } from "../resource/core";
import { UNKNOWN } from "../resource/inputs";
import type { Change } from "../resource/plan";
import { packageSchema } from "./schema";
import { EngineLog } from "./engine-log";
import { isSecret, rewrap, secretKeys, unwrapSecrets, wrapSecret } from "./secrets";
import { ListRefusal, listTargets } from "./list";
import { FunctionArgumentError, UnknownFunctionError } from "./errors";
import type { Sdk } from "./sdk";

type Obj = Record<string, unknown>;
type StructLike = { toJavaScript(): Obj } | undefined;

/** The login's config keys, and stand-ins for the others when one is judged alone. */
const LOGIN_KEYS: readonly ConfigKey[] = ["authMethodId", "authMethodLoginName", "authMethodPassword"];
const LOGIN_PLACEHOLDERS: Partial<Record<ConfigKey, string>> = { authMethodId: "ampw_0000000000", authMethodLoginName: "name", authMethodPassword: "password" };

/** What the client's settings parser says of one config value (its message names the key), or undefined when it takes it. */
function settingsProblem(key: ConfigKey, value: string): string | undefined {
  try {
    // an empty environment: only the value is judged
    // a login key is judged with the others of the login present (whether all three are given is the first call's to say)
    const login = LOGIN_KEYS.includes(key) ? LOGIN_PLACEHOLDERS : {};
    resolveSettings(
      providerOptions((k) => (k === key ? value : login[k])),
      {},
    );
    return undefined;
  } catch (err) {
    if (err instanceof ClientSettingsError) return err.message;
    throw err;
  }
}

/** A hidden input Check adds when it named the Target (autonaming): the name is not the program's. */
const AUTONAMED_KEY = "__autonamed";

/** The provider service of one plugin process (the engine starts one per provider instance). */
export class BoundaryProviderService {
  private core = new TargetCore();
  /** Configure has run: List refuses to guess an address before it. */
  private configured = false;
  /** Aborted by Cancel: every operation in flight ends, and any later one fails at once. */
  private readonly cancellation = new AbortController();
  /** Where warnings go: the engine's Log service. */
  readonly log: EngineLog;

  /** A service over the loaded SDK, answering as plugin `version`; warnings go to the engine at `engineAddress` once known. */
  constructor(
    private readonly s: Sdk,
    private readonly version: string,
    engineAddress?: string,
  ) {
    this.log = new EngineLog(s);
    this.log.connect(engineAddress);
  }

  /**
   * Runs an operation with a warn channel bound to its resource's URN, and answers only once every
   * warning has reached the engine (so the user sees it with the step it belongs to).
   */
  private async withWarnings<T>(urn: string, op: (warn: OperationContext["warn"]) => Promise<T>): Promise<T> {
    const pending: Promise<void>[] = [];
    try {
      return await op((m) => pending.push(this.log.warn(m, urn)));
    } finally {
      await Promise.all(pending);
    }
  }

  private toStruct(o: unknown) {
    // a Struct holds no undefined: drop them as JSON does
    return this.s.struct.Struct.fromJavaScript(JSON.parse(JSON.stringify(o ?? {})));
  }
  private fromStruct(s: StructLike): Obj {
    return unwrapSecrets(s?.toJavaScript() ?? {}) as Obj;
  }

  /** Handshake: records the engine's address (for warnings) and says what this provider supports (secrets, autonaming). */
  handshake(req: pb.ProviderHandshakeRequest): pb.ProviderHandshakeResponse {
    this.log.connect(req.getEngineAddress() || undefined);
    const r = new this.s.proto.ProviderHandshakeResponse();
    r.setAcceptSecrets(true);
    r.setAcceptResources(false);
    r.setSupportsAutonamingConfiguration(true);
    return r;
  }

  /** The plugin's version. */
  getPluginInfo() {
    const r = new this.s.plugin.PluginInfo();
    r.setVersion(this.version);
    return r;
  }

  /** The package schema of this version, as JSON. */
  getSchema(): pb.GetSchemaResponse {
    const r = new this.s.proto.GetSchemaResponse();
    r.setSchema(JSON.stringify(packageSchema(this.version)));
    return r;
  }

  /**
   * Provider config: each known key is judged by the client's own settings parser (an `addr` it
   * would refuse at the first call, an `apiGeneration` it does not know), unknown during preview
   * is fine; `token` stays wrapped.
   */
  checkConfig(req: pb.CheckRequest): pb.CheckResponse {
    const news = req.getNews()?.toJavaScript() ?? {};
    const failures = [];
    for (const key of CONFIG_KEYS) {
      const value = unwrapSecrets(news[key]);
      if (value === undefined || value === null || value === UNKNOWN || PROVIDER_CONFIG[key].secret) continue;
      const problem = typeof value === "string" ? settingsProblem(key, value) : `${key} must be a string, got ${JSON.stringify(value)}`;
      if (problem) failures.push(this.failure(key, problem));
    }
    for (const key of Object.keys(news)) {
      const problem = configKeyProblem(key);
      if (problem) failures.push(this.failure(key, problem));
    }
    // the token and the password stay secrets whatever the program sent
    const secrets = Object.fromEntries(
      CONFIG_KEYS.filter((k) => PROVIDER_CONFIG[k].secret && news[k] !== undefined && !isSecret(news[k])).map((k) => [k, wrapSecret(news[k])]),
    );
    const r = new this.s.proto.CheckResponse();
    r.setInputs(this.toStruct({ ...news, ...secrets }));
    r.setFailuresList(failures);
    return r;
  }

  /** Which config keys changed (every key of the provider's config: a new generation or address needs a new client). */
  diffConfig(req: pb.DiffRequest): pb.DiffResponse {
    const olds = this.fromStruct(req.getOlds());
    const news = this.fromStruct(req.getNews());
    const changed = CONFIG_KEYS.filter((k) => olds[k] !== news[k]);
    const r = new this.s.proto.DiffResponse();
    r.setChanges(changed.length ? this.s.proto.DiffResponse.DiffChanges.DIFF_SOME : this.s.proto.DiffResponse.DiffChanges.DIFF_NONE);
    r.setDiffsList(changed);
    return r;
  }

  /**
   * Configures the core from Configure's arguments, else its variables, keyed as the engine keys
   * them (`boundary:config:addr`). `pulumi do` sends only Configure (no CheckConfig), with every
   * key it has no value for as null (`"null"` in the variables): unset, so the environment and then
   * the default apply. A key the provider does not have (a misspelt `boundary:address`) is refused,
   * naming the nearest known one.
   */
  configure(req: pb.ConfigureRequest): pb.ConfigureResponse {
    const args = this.fromStruct(req.getArgs());
    const vars = req.getVariablesMap();
    const prefix = `${PACKAGE}:config:`;
    const varKeys = vars
      .toArray()
      .map(([k]) => k)
      .filter((k) => k.startsWith(prefix));
    refuseUnknownConfigKeys(new Set([...Object.keys(args), ...varKeys.map((k) => k.slice(prefix.length))]));
    const value = (key: string) => (typeof args[key] === "string" ? (args[key] as string) : vars.get(`${PACKAGE}:config:${key}`));
    this.core = new TargetCore(providerOptions(value));
    this.configured = true;
    const r = new this.s.proto.ConfigureResponse();
    r.setAcceptsecrets(true);
    r.setAcceptresources(false);
    r.setSupportspreview(true);
    r.setSupportsAutonamingConfiguration(true);
    return r;
  }

  /** Validates and names the Target (autonaming from the engine's settings); secret inputs stay wrapped. */
  check(req: pb.CheckRequest): pb.CheckResponse {
    const wrapped = req.getNews()?.toJavaScript() ?? {};
    const olds = this.fromStruct(req.getOlds());
    const autonaming = req.getAutonaming();
    const Mode = this.s.proto.CheckRequest.AutonamingOptions.Mode;
    const { inputs, failures, autonamed } = this.core.check(unwrapSecrets(wrapped) as Obj, {
      logicalName: req.getName() || req.getUrn().split("::").pop(),
      oldName: typeof olds.name === "string" ? olds.name : undefined,
      autonaming: autonaming && {
        proposedName: autonaming.getProposedName(),
        mode: autonaming.getMode() === Mode.ENFORCE ? "enforce" : autonaming.getMode() === Mode.DISABLE ? "disable" : "propose",
      },
      randomSeed: req.getRandomseed_asU8(),
    });
    const r = new this.s.proto.CheckResponse();
    r.setInputs(this.toStruct(rewrap(autonamed ? { ...inputs, [AUTONAMED_KEY]: true } : inputs, secretKeys(wrapped))));
    r.setFailuresList(failures.map((f) => this.failure(f.property, f.reason)));
    return r;
  }

  /** Per-property detailed diff from the core: update vs replace, add vs delete; `ignoreChanges` honoured. */
  async diff(req: pb.DiffRequest): Promise<pb.DiffResponse> {
    const news = this.fromStruct(req.getNews());
    const d = await this.core.diff(this.fromStruct(req.getOlds()), news, {
      priorInputs: Object.keys(this.fromStruct(req.getOldInputs())),
      ignoreChanges: req.getIgnorechangesList(),
      autonamed: news[AUTONAMED_KEY] === true,
    });
    const { DiffChanges } = this.s.proto.DiffResponse;
    const r = new this.s.proto.DiffResponse();
    r.setChanges(d.changes ? DiffChanges.DIFF_SOME : DiffChanges.DIFF_NONE);
    r.setReplacesList(d.replaces);
    r.setDiffsList(d.changed.map((c) => c.field));
    r.setDeletebeforereplace(d.deleteBeforeReplace);
    r.setHasdetaileddiff(true);
    const detailed = r.getDetaileddiffMap();
    for (const c of d.changed) {
      const p = new this.s.proto.PropertyDiff();
      p.setKind(this.kind(c));
      p.setInputdiff(true);
      detailed.set(c.field, p);
    }
    return r;
  }

  private kind(c: Change): pb.PropertyDiff.Kind {
    const K = this.s.proto.PropertyDiff.Kind;
    if (c.kind === "add") return c.replace ? K.ADD_REPLACE : K.ADD;
    if (c.kind === "delete") return c.replace ? K.DELETE_REPLACE : K.DELETE;
    return c.replace ? K.UPDATE_REPLACE : K.UPDATE;
  }

  /** Creates the Target; in a preview, projects it with no API call (id and computed values unknown). */
  async create(req: pb.CreateRequest): Promise<pb.CreateResponse> {
    const wrapped = req.getProperties()?.toJavaScript() ?? {};
    const news = unwrapSecrets(wrapped) as Obj;
    const r = new this.s.proto.CreateResponse();
    if (req.getPreview()) {
      r.setProperties(this.toStruct(rewrap(this.core.previewCreate(news), secretKeys(wrapped))));
      return r;
    }
    const { id, state } = await this.withWarnings(req.getUrn(), (warn) => this.core.create(news, { warn, ...this.bounds(req.getTimeout(), "create") }));
    r.setId(id);
    r.setProperties(this.toStruct(rewrap(state, secretKeys(wrapped))));
    return r;
  }

  /** Refresh, and import: given only an id, every field the controller shows becomes an input. */
  async read(req: pb.ReadRequest): Promise<pb.ReadResponse> {
    const props = req.getProperties()?.toJavaScript() ?? {};
    const secret = secretKeys(props, req.getInputs()?.toJavaScript() ?? {});
    const found = await this.core.read(req.getId(), unwrapSecrets(props) as Obj, this.bounds(req.getTimeout(), "read"));
    const r = new this.s.proto.ReadResponse();
    r.setId(found?.id ?? "");
    if (found) {
      r.setProperties(this.toStruct(rewrap(found.state, secret)));
      r.setInputs(this.toStruct(rewrap(found.inputs, secret)));
    }
    return r;
  }

  /** Updates the Target; in a preview, projects the result with no API call. */
  async update(req: pb.UpdateRequest): Promise<pb.UpdateResponse> {
    const wrappedNews = req.getNews()?.toJavaScript() ?? {};
    const wrappedOlds = req.getOlds()?.toJavaScript() ?? {};
    const secret = secretKeys(wrappedNews, wrappedOlds);
    const [olds, news] = [unwrapSecrets(wrappedOlds) as Obj, unwrapSecrets(wrappedNews) as Obj];
    const priorInputs = Object.keys(this.fromStruct(req.getOldInputs()));
    const r = new this.s.proto.UpdateResponse();
    const ignoreChanges = req.getIgnorechangesList();
    const state = req.getPreview()
      ? this.core.previewUpdate(olds, news, { priorInputs, ignoreChanges })
      : await this.withWarnings(req.getUrn(), (warn) =>
          this.core.update(req.getId(), olds, news, { warn, priorInputs, ignoreChanges, ...this.bounds(req.getTimeout(), "update") }),
        );
    r.setProperties(this.toStruct(rewrap(state, secret)));
    return r;
  }

  /** Deletes the Target through the core, within the engine's timeout and Cancel. */
  async delete(req: pb.DeleteRequest) {
    await this.core.delete(req.getId(), this.bounds(req.getTimeout(), "delete"));
    return new this.s.empty.Empty();
  }

  /** An operation's deadline (the engine's `timeout`, in seconds: the resource's customTimeouts; 0 when none) and the Cancel signal. */
  private bounds(timeoutSeconds: number, op: string): { timeoutMs?: number; timeoutSource?: string; signal: AbortSignal } {
    const signal = this.cancellation.signal;
    return timeoutSeconds > 0 ? { timeoutMs: timeoutSeconds * 1000, timeoutSource: `customTimeouts ${op} ${timeoutSeconds}s`, signal } : { signal };
  }

  /** The two functions, with the same mappers as the TypeScript ones; the secret fields wrapped. */
  async invoke(req: pb.InvokeRequest): Promise<pb.InvokeResponse> {
    const args = this.fromStruct(req.getArgs());
    const client = this.core.client;
    let ret: Obj;
    switch (req.getTok()) {
      case "boundary:index:authorizeSession": {
        const { hostId, ...identity } = decodeAuthorizeSessionArgs(args);
        ret = sessionView(await client.authorizeSession(identity, hostId));
        for (const k of SESSION_SECRET_FIELDS) ret[k] = wrapSecret(ret[k]);
        break;
      }
      case "boundary:index:getTargets": {
        const parsed = GetTargetsArgsSchema.safeParse(args);
        if (!parsed.success) throw new FunctionArgumentError(`getTargets: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
        ret = { targets: await getTargetsOn(client, parsed.data) };
        break;
      }
      default:
        throw new UnknownFunctionError(`unknown function ${req.getTok()}: this provider has boundary:index:authorizeSession and boundary:index:getTargets`);
    }
    const r = new this.s.proto.InvokeResponse();
    r.setReturn(this.toStruct(ret));
    return r;
  }

  /**
   * `List` (`pulumi do boundary:index:Target list`), a server stream: the Targets of one page, then
   * the continuation token (see `list.ts`), or one Computed when the query is not known yet. Each
   * call is one operation of the client (its pacing, the default deadline, Cancel).
   */
  async *list(req: pb.ListRequest): AsyncGenerator<pb.ListResponse> {
    if (!this.configured) throw new ListRefusal("FailedPrecondition", "the provider is not configured: the engine sends Configure before List");
    const { ListResponse } = this.s.proto;
    const client = this.core.client.within(new Operation({ signal: this.cancellation.signal }));
    const items = listTargets(client, {
      type: req.getToken(),
      query: this.fromStruct(req.getQuery()),
      limit: req.getLimit(),
      pageSize: req.getPageSize(),
      continuationToken: req.getContinuationToken(),
    });
    for await (const item of items) {
      const r = new ListResponse();
      if ("computed" in item) r.setComputed(new ListResponse.Computed());
      else if ("result" in item) r.setResult(new ListResponse.Result().setId(item.result.id).setName(item.result.name));
      else r.setContinuation(new ListResponse.Continuation().setContinuationToken(item.continuation));
      yield r;
    }
  }

  /**
   * The engine's Ctrl-C: aborts every operation in flight (each then ends as it must: a create whose
   * POST was sent is looked for and recorded, see `create.ts`), and any later one fails at once.
   */
  cancel() {
    this.cancellation.abort();
    return new this.s.empty.Empty();
  }

  private failure(property: string, reason: string): pb.CheckFailure {
    const f = new this.s.proto.CheckFailure();
    f.setProperty(property);
    f.setReason(reason);
    return f;
  }

  /** A thrown error as gRPC sees it; a partial failure carries `ErrorResourceInitFailed` as the dynamic host does. */
  grpcError(err: unknown): Partial<grpc.StatusObject> & { code: grpc.status; details: string; metadata: grpc.Metadata } {
    const message = err instanceof Error ? err.message : String(err);
    const metadata = new this.s.grpc.Metadata();
    if (err instanceof ResourceInitError) {
      const detail = new this.s.proto.ErrorResourceInitFailed();
      detail.setId(err.id);
      detail.setProperties(this.toStruct(err.properties));
      detail.setReasonsList(err.reasons);
      const any = new this.s.any.Any();
      any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
      const status = new this.s.status.Status();
      status.setCode(this.s.grpc.status.UNKNOWN);
      status.setMessage(message);
      status.addDetails(any);
      metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    }
    const code = err instanceof ListRefusal ? this.s.grpc.status[err.status === "InvalidArgument" ? "INVALID_ARGUMENT" : "FAILED_PRECONDITION"] : undefined;
    return { code: code ?? this.s.grpc.status.UNKNOWN, details: message, metadata };
  }
}
