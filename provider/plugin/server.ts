/**
 * `boundary` as a Pulumi resource provider plugin: `pulumirpc.ResourceProvider` implemented with
 * the SDK's own grpc-js and protos (its `provider.main` never calls Configure, drops detailed diffs
 * and lacks Handshake). Every RPC has the same shape: unwrap the request, call the shared Target
 * provider and plan, translate the answer. No rule lives here.
 */
import * as path from "node:path";
import { sessionView, targetSummary } from "../functions";
import { diffTarget } from "../target/plan";
import { ResourceInitError, TargetProvider } from "../target/provider";
import type { TargetState } from "../target/state";
import { packageSchema } from "./schema";
import { isSecret, unwrapSecrets, wrapSecret } from "./secrets";

/** This package's version, from its package.json (found upwards, so sources and dist/ agree). */
function packageVersion(): string {
  const fs = require("node:fs") as typeof import("node:fs");
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
      if (pkg.name === "pulumi-boundary") return pkg.version;
    }
  }
  return "0.0.0";
}
const VERSION = packageVersion();

/** The SDK's own copies of grpc-js and google-protobuf, so messages and the server agree. */
function sdk() {
  const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const from = (id: string) => require(require.resolve(id, { paths: [sdkDir] }));
  return {
    grpc: from("@grpc/grpc-js"),
    services: require("@pulumi/pulumi/proto/provider_grpc_pb"),
    proto: require("@pulumi/pulumi/proto/provider_pb"),
    plugin: require("@pulumi/pulumi/proto/plugin_pb"),
    status: require("@pulumi/pulumi/proto/status_pb"),
    struct: from("google-protobuf/google/protobuf/struct_pb"),
    empty: from("google-protobuf/google/protobuf/empty_pb"),
    any: from("google-protobuf/google/protobuf/any_pb"),
  };
}

type Sdk = ReturnType<typeof sdk>;
type Obj = Record<string, any>;

export class BoundaryProviderService {
  private provider = new TargetProvider();

  constructor(private readonly s: Sdk) {}

  private toStruct(o: unknown) {
    // a Struct holds no undefined: drop them as JSON does
    return this.s.struct.Struct.fromJavaScript(JSON.parse(JSON.stringify(o ?? {})));
  }
  private fromStruct(s: any): Obj {
    return unwrapSecrets(s?.toJavaScript() ?? {}) as Obj;
  }

  handshake() {
    const r = new this.s.proto.ProviderHandshakeResponse();
    r.setAcceptSecrets(true);
    r.setAcceptResources(false);
    return r;
  }

  getPluginInfo() {
    const r = new this.s.plugin.PluginInfo();
    r.setVersion(VERSION);
    return r;
  }

  getSchema() {
    const r = new this.s.proto.GetSchemaResponse();
    r.setSchema(JSON.stringify(packageSchema(VERSION)));
    return r;
  }

  /** Provider config: `addr` must be an http(s) URL when given; `token` stays wrapped as a secret. */
  checkConfig(req: any) {
    const news = req.getNews()?.toJavaScript() ?? {};
    const failures = [];
    const addr = unwrapSecrets(news.addr);
    if (addr !== undefined && (typeof addr !== "string" || !/^https?:\/\/[^/]/.test(addr))) {
      failures.push(this.failure("addr", `addr must be an http(s) URL such as http://127.0.0.1:9200, got ${JSON.stringify(addr)}`));
    }
    if (news.token !== undefined && !isSecret(news.token)) news.token = wrapSecret(news.token);
    const r = new this.s.proto.CheckResponse();
    r.setInputs(this.s.struct.Struct.fromJavaScript(news));
    r.setFailuresList(failures);
    return r;
  }

  diffConfig(req: any) {
    const olds = this.fromStruct(req.getOlds());
    const news = this.fromStruct(req.getNews());
    const changed = ["addr", "token"].filter((k) => olds[k] !== news[k]);
    const r = new this.s.proto.DiffResponse();
    r.setChanges(changed.length ? this.s.proto.DiffResponse.DiffChanges.DIFF_SOME : this.s.proto.DiffResponse.DiffChanges.DIFF_NONE);
    r.setDiffsList(changed);
    return r;
  }

  /** One configured provider per plugin process: the engine starts one per provider instance. */
  configure(req: any) {
    const args = this.fromStruct(req.getArgs());
    const vars = req.getVariablesMap();
    const addr = args.addr ?? vars.get("boundary:addr");
    const token = args.token ?? vars.get("boundary:token");
    this.provider = new TargetProvider({ addr: addr || undefined, token: token || undefined });
    const r = new this.s.proto.ConfigureResponse();
    r.setAcceptsecrets(true);
    r.setAcceptresources(false);
    r.setSupportspreview(false);
    return r;
  }

  async check(req: any) {
    const { inputs, failures } = await this.provider.check(this.fromStruct(req.getOlds()), this.fromStruct(req.getNews()));
    const r = new this.s.proto.CheckResponse();
    r.setInputs(this.toStruct(inputs));
    r.setFailuresList((failures ?? []).map((f) => this.failure(f.property, f.reason)));
    return r;
  }

  /** Per-property detailed diff from the shared plan: update vs replace, add vs delete. */
  diff(req: any) {
    const olds = this.fromStruct(req.getOlds()) as TargetState;
    const news = this.fromStruct(req.getNews());
    const d = diffTarget(olds, news);
    const Kind = this.s.proto.PropertyDiff.Kind;
    const r = new this.s.proto.DiffResponse();
    r.setChanges(d.changes ? this.s.proto.DiffResponse.DiffChanges.DIFF_SOME : this.s.proto.DiffResponse.DiffChanges.DIFF_NONE);
    r.setReplacesList(d.replaces);
    r.setDiffsList(d.changed.map((c) => c.field));
    r.setDeletebeforereplace(d.deleteBeforeReplace);
    r.setHasdetaileddiff(true);
    const detailed = r.getDetaileddiffMap();
    for (const c of d.changed) {
      const replace = d.replaces.includes(c.field);
      const kind = c.reset ? (replace ? Kind.DELETE_REPLACE : Kind.DELETE) : c.from === undefined ? (replace ? Kind.ADD_REPLACE : Kind.ADD) : replace ? Kind.UPDATE_REPLACE : Kind.UPDATE;
      const p = new this.s.proto.PropertyDiff();
      p.setKind(kind);
      p.setInputdiff(true);
      detailed.set(c.field, p);
    }
    return r;
  }

  async create(req: any) {
    const { id, outs } = await this.provider.create(this.fromStruct(req.getProperties()) as never);
    const r = new this.s.proto.CreateResponse();
    r.setId(id);
    r.setProperties(this.toStruct(outs));
    return r;
  }

  /** Refresh, and import: given only an id, every field the controller shows becomes an input. */
  async read(req: any) {
    const props = this.fromStruct(req.getProperties());
    const result = await this.provider.read(req.getId(), props as never);
    const r = new this.s.proto.ReadResponse();
    r.setId(result.id ?? "");
    if (result.id) {
      r.setProperties(this.toStruct(result.props));
      r.setInputs(this.toStruct(result.inputs));
    }
    return r;
  }

  async update(req: any) {
    const { outs } = await this.provider.update(req.getId(), this.fromStruct(req.getOlds()) as TargetState, this.fromStruct(req.getNews()) as never);
    const r = new this.s.proto.UpdateResponse();
    r.setProperties(this.toStruct(outs));
    return r;
  }

  async delete(req: any) {
    await this.provider.delete(req.getId());
    return new this.s.empty.Empty();
  }

  /** The two functions, with the same mappers as the TypeScript ones; secrets wrapped. */
  async invoke(req: any) {
    const args = this.fromStruct(req.getArgs());
    const client = this.provider.client;
    let ret: Obj;
    switch (req.getTok()) {
      case "boundary:index:authorizeSession": {
        const identity = args.targetId ? { targetId: args.targetId } : args.scopeId ? { name: args.name, scopeId: args.scopeId } : { name: args.name, scopeName: args.scopeName };
        const v = sessionView(await client.authorizeSession(identity, args.hostId));
        ret = { ...v, authorizationToken: wrapSecret(v.authorizationToken), credentials: wrapSecret(v.credentials) };
        break;
      }
      case "boundary:index:getTargets":
        ret = { targets: (await client.listTargets({ scopeId: args.scopeId, recursive: args.recursive, filter: args.filter })).map(targetSummary) };
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

  private failure(property: string, reason: string) {
    const f = new this.s.proto.CheckFailure();
    f.setProperty(property);
    f.setReason(reason);
    return f;
  }

  /** A thrown error as gRPC sees it; a partial failure carries `ErrorResourceInitFailed` as the dynamic host does. */
  grpcError(err: unknown) {
    const e = err as Error;
    const metadata = new this.s.grpc.Metadata();
    if (err instanceof ResourceInitError) {
      const detail = new this.s.proto.ErrorResourceInitFailed();
      detail.setId(err.id);
      const { __provider, ...properties } = err.properties;
      detail.setProperties(this.toStruct(properties));
      detail.setReasonsList(err.reasons);
      const any = new this.s.any.Any();
      any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
      const status = new this.s.status.Status();
      status.setCode(this.s.grpc.status.UNKNOWN);
      status.setMessage(e.message);
      status.addDetails(any);
      metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    }
    return { code: this.s.grpc.status.UNKNOWN, details: e?.message ?? String(err), metadata };
  }
}

const IMPLEMENTED = ["handshake", "getPluginInfo", "getSchema", "checkConfig", "diffConfig", "configure", "check", "diff", "create", "read", "update", "delete", "invoke", "cancel"] as const;

/** Serves the provider on a loopback port; prints the port as the first stdout line (the plugin protocol). */
export async function serve(): Promise<{ port: number; stop: () => void }> {
  const s = sdk();
  const service = new BoundaryProviderService(s);
  const handlers: Record<string, unknown> = {};
  for (const name of Object.keys(s.services.ResourceProviderService)) {
    handlers[name] = (IMPLEMENTED as readonly string[]).includes(name)
      ? (call: { request: unknown }, callback: (err: unknown, res?: unknown, trailer?: unknown) => void) => {
          Promise.resolve()
            .then(() => (service as any)[name](call.request))
            .then(
              (res) => callback(null, res),
              (err) => {
                const g = service.grpcError(err);
                callback(g, null, g.metadata);
              },
            );
        }
      : (call: any, callback?: (err: unknown) => void) => {
          const err = { code: s.grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by the boundary provider` };
          if (callback) callback(err);
          else call.emit?.("error", err);
        };
  }
  const server = new s.grpc.Server();
  server.addService(s.services.ResourceProviderService, handlers);
  const port: number = await new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", s.grpc.ServerCredentials.createInsecure(), (err: Error | null, p: number) => (err ? reject(err) : resolve(p))),
  );
  process.stdout.write(`${port}\n`);
  return { port, stop: () => server.forceShutdown() };
}
