/**
 * The plugin route's adapter: `pulumirpc.ResourceProvider` requests in, the core's calls, protocol
 * responses out. Only this file (with `server.ts`) knows gRPC messages, Structs and secret
 * wrappers; every rule lives in the core. Each RPC has the same shape: decode, call, encode.
 */
import type * as grpc from "@grpc/grpc-js";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import { PACKAGE, providerOptions } from "../config";
import { SESSION_SECRET_FIELDS, sessionView, targetSummary } from "../functions";
import { TargetCore } from "../resource/core";
import { ResourceInitError } from "../resource/errors";
import type { Change } from "../resource/plan";
import { packageSchema } from "./schema";
import { isSecret, unwrapSecrets, wrapSecret } from "./secrets";
import type { Sdk } from "./sdk";

type Obj = Record<string, unknown>;
type StructLike = { toJavaScript(): Obj } | undefined;

/** The provider service of one plugin process (the engine starts one per provider instance). */
export class BoundaryProviderService {
  private core = new TargetCore();

  constructor(
    private readonly s: Sdk,
    private readonly version: string,
  ) {}

  private toStruct(o: unknown) {
    // a Struct holds no undefined: drop them as JSON does
    return this.s.struct.Struct.fromJavaScript(JSON.parse(JSON.stringify(o ?? {})));
  }
  private fromStruct(s: StructLike): Obj {
    return unwrapSecrets(s?.toJavaScript() ?? {}) as Obj;
  }

  handshake(): pb.ProviderHandshakeResponse {
    const r = new this.s.proto.ProviderHandshakeResponse();
    r.setAcceptSecrets(true);
    r.setAcceptResources(false);
    return r;
  }

  getPluginInfo() {
    const r = new this.s.plugin.PluginInfo();
    r.setVersion(this.version);
    return r;
  }

  getSchema(): pb.GetSchemaResponse {
    const r = new this.s.proto.GetSchemaResponse();
    r.setSchema(JSON.stringify(packageSchema(this.version)));
    return r;
  }

  /** Provider config: `addr` must be an http(s) URL when given; `token` stays wrapped as a secret. */
  checkConfig(req: pb.CheckRequest): pb.CheckResponse {
    const news = req.getNews()?.toJavaScript() ?? {};
    const failures = [];
    const addr = unwrapSecrets(news.addr);
    if (addr !== undefined && (typeof addr !== "string" || !/^https?:\/\/[^/]/.test(addr))) {
      failures.push(this.failure("addr", `addr must be an http(s) URL such as http://127.0.0.1:9200, got ${JSON.stringify(addr)}`));
    }
    const token = news.token === undefined || isSecret(news.token) ? {} : { token: wrapSecret(news.token) };
    const r = new this.s.proto.CheckResponse();
    r.setInputs(this.toStruct({ ...news, ...token }));
    r.setFailuresList(failures);
    return r;
  }

  diffConfig(req: pb.DiffRequest): pb.DiffResponse {
    const olds = this.fromStruct(req.getOlds());
    const news = this.fromStruct(req.getNews());
    const changed = ["addr", "token"].filter((k) => olds[k] !== news[k]);
    const r = new this.s.proto.DiffResponse();
    r.setChanges(changed.length ? this.s.proto.DiffResponse.DiffChanges.DIFF_SOME : this.s.proto.DiffResponse.DiffChanges.DIFF_NONE);
    r.setDiffsList(changed);
    return r;
  }

  /** Configures the core from Configure's arguments, else its variables (`boundary:addr`). */
  configure(req: pb.ConfigureRequest): pb.ConfigureResponse {
    const args = this.fromStruct(req.getArgs());
    const vars = req.getVariablesMap();
    const value = (key: string) => (typeof args[key] === "string" ? (args[key] as string) : vars.get(`${PACKAGE}:${key}`));
    this.core = new TargetCore(providerOptions(value));
    const r = new this.s.proto.ConfigureResponse();
    r.setAcceptsecrets(true);
    r.setAcceptresources(false);
    r.setSupportspreview(false);
    return r;
  }

  check(req: pb.CheckRequest): pb.CheckResponse {
    const { inputs, failures } = this.core.check(this.fromStruct(req.getNews()));
    const r = new this.s.proto.CheckResponse();
    r.setInputs(this.toStruct(inputs));
    r.setFailuresList(failures.map((f) => this.failure(f.property, f.reason)));
    return r;
  }

  /** Per-property detailed diff from the core: update vs replace, add vs delete. */
  diff(req: pb.DiffRequest): pb.DiffResponse {
    const d = this.core.diff(this.fromStruct(req.getOlds()), this.fromStruct(req.getNews()));
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

  async create(req: pb.CreateRequest): Promise<pb.CreateResponse> {
    const { id, state } = await this.core.create(this.fromStruct(req.getProperties()));
    const r = new this.s.proto.CreateResponse();
    r.setId(id);
    r.setProperties(this.toStruct(state));
    return r;
  }

  /** Refresh, and import: given only an id, every field the controller shows becomes an input. */
  async read(req: pb.ReadRequest): Promise<pb.ReadResponse> {
    const found = await this.core.read(req.getId(), this.fromStruct(req.getProperties()));
    const r = new this.s.proto.ReadResponse();
    r.setId(found?.id ?? "");
    if (found) {
      r.setProperties(this.toStruct(found.state));
      r.setInputs(this.toStruct(found.inputs));
    }
    return r;
  }

  async update(req: pb.UpdateRequest): Promise<pb.UpdateResponse> {
    const state = await this.core.update(req.getId(), this.fromStruct(req.getOlds()), this.fromStruct(req.getNews()));
    const r = new this.s.proto.UpdateResponse();
    r.setProperties(this.toStruct(state));
    return r;
  }

  async delete(req: pb.DeleteRequest) {
    await this.core.delete(req.getId());
    return new this.s.empty.Empty();
  }

  /** The two functions, with the same mappers as the TypeScript ones; the secret fields wrapped. */
  async invoke(req: pb.InvokeRequest): Promise<pb.InvokeResponse> {
    const args = this.fromStruct(req.getArgs()) as Record<string, string | boolean | undefined>;
    const str = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
    const client = this.core.client;
    let ret: Obj;
    switch (req.getTok()) {
      case "boundary:index:authorizeSession": {
        const name = str("name") ?? "";
        const scopeId = str("scopeId");
        const targetId = str("targetId");
        const identity = targetId ? { targetId } : scopeId ? { name, scopeId } : { name, scopeName: str("scopeName") ?? "" };
        ret = sessionView(await client.authorizeSession(identity, str("hostId")));
        for (const k of SESSION_SECRET_FIELDS) ret[k] = wrapSecret(ret[k]);
        break;
      }
      case "boundary:index:getTargets":
        ret = { targets: (await client.listTargets({ scopeId: str("scopeId") ?? "", recursive: args.recursive === true, filter: str("filter") })).map(targetSummary) };
        break;
      default:
        throw new Error(`unknown function ${req.getTok()}: this provider has boundary:index:authorizeSession and boundary:index:getTargets`);
    }
    const r = new this.s.proto.InvokeResponse();
    r.setReturn(this.toStruct(ret));
    return r;
  }

  cancel() {
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
    return { code: this.s.grpc.status.UNKNOWN, details: message, metadata };
  }
}
