/**
 * The engine's side of a policy pack, for tests (there is no Pulumi CLI here). The pack is started
 * as the Node language host's RunPlugin starts an analyzer (pulumi-language-nodejs): `node
 * <@pulumi/pulumi/cmd/run-policy-pack, resolved from the pack> <engine address> <pack dir>`, in the
 * pack's folder, with the stack's names in PULUMI_NODEJS_* and PULUMI_CONFIG; the port is the first
 * line it prints. The calls are shaped as the engine's analyzer plugin (analyzer_plugin.go) sends
 * them: Analyze and AnalyzeStack without any top-level `__` key (SkipInternalKeys), Remediate with
 * them; unknowns as the engine's sentinel; Configure with the config reconciled as the engine does
 * (each policy's schema defaults, then the given config, checked against the schema first).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import Ajv from "ajv";
import type * as apb from "@pulumi/pulumi/proto/analyzer_pb";
import { packedProgram, portOf, programRequire } from "../../harness/provider-host";
import { useForSuite } from "./suite";

/** The pack as users run it: `pulumi preview --policy-pack node_modules/pulumi-boundary/policy-pack`. */
export const installedPack = (): string => path.join(packedProgram(), "node_modules", "pulumi-boundary", "policy-pack");

/** An enforcement level as the pack's config and the engine's display spell it. */
export type Level = "advisory" | "mandatory" | "disabled" | "remediate";
const LEVELS: readonly Level[] = ["advisory", "mandatory", "disabled", "remediate"]; // the proto enum's order

/** One resource as the engine describes it to the analyzer. */
export interface AnalyzedResource {
  urn: string;
  type: string;
  name: string;
  /** Its properties as the engine holds them (`__` keys included: the calls drop them where the engine does). */
  props: Record<string, unknown>;
}

/** One diagnostic the pack reported: the policy, its message, the level it was reported at, the URN when the policy gave one. */
export interface Diagnostic {
  policy: string;
  message: string;
  level: Level;
  urn: string;
}

/** What Analyze or AnalyzeStack answered. */
export interface Analysis {
  diagnostics: Diagnostic[];
  /** The policies that said they do not apply, with their reasons. */
  notApplicable: { policy: string; reason: string }[];
}

/** A policy as GetAnalyzerInfo describes it. */
export interface PolicyInfo {
  name: string;
  description: string;
  level: Level;
  type: "resource" | "stack" | "unknown";
  schema: { properties: Record<string, Record<string, unknown>>; required: string[] };
}

/** The pack's config as a user writes it in `--policy-pack-config`: a level, or an object of a level and settings, per policy (or `all`). */
export type PackConfig = Record<string, Level | ({ enforcementLevel?: Level } & Record<string, unknown>)>;

/** A started pack and the engine's calls to it. */
export interface PolicyPackRun {
  pid: number;
  /** What the pack printed after its port (the engine shows it as diagnostics). */
  output(): string;
  pluginInfo(): Promise<string>;
  /** Handshake as the engine sends it first (the pack folder as root and program directory): the gRPC status code it ends with, 0 for OK. */
  handshake(dir: string): Promise<number>;
  analyzerInfo(): Promise<{ name: string; version: string; description: string; supportsConfig: boolean; policies: PolicyInfo[] }>;
  /** ConfigureStack, as the engine sends it first. */
  configureStack(stack: string, project: string, dryRun: boolean): Promise<void>;
  /**
   * The config reconciled as the engine does (defaults, then `config`), refused as the engine would
   * when it breaks a schema, then Configure. `unchecked`: sent as given, as a pack configured by
   * other means than the engine's could be.
   */
  configure(config?: PackConfig, options?: { unchecked?: boolean }): Promise<Record<string, { level: Level; props: Record<string, unknown> }>>;
  analyze(r: AnalyzedResource): Promise<Analysis>;
  analyzeStack(rs: readonly AnalyzedResource[]): Promise<Analysis>;
  /** Remediate: the number of remediations the pack returned. */
  remediate(r: AnalyzedResource): Promise<number>;
  stop(): Promise<void>;
}

/** The properties without their top-level `__` keys, as the engine marshals them for Analyze and AnalyzeStack. */
export const withoutInternalKeys = (props: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(props).filter(([k]) => !k.startsWith("__")));

/** Starts the pack in `dir` as the language host does and connects the engine's analyzer client. */
export async function startPolicyPack(dir: string = installedPack(), env: Record<string, string> = {}): Promise<PolicyPackRun> {
  const runPolicyPack = require.resolve("@pulumi/pulumi/cmd/run-policy-pack", { paths: [dir] });
  const child: ChildProcess = spawn(process.execPath, [runPolicyPack, "127.0.0.1:1", dir], {
    cwd: dir,
    env: { ...process.env, PULUMI_NODEJS_PROJECT: "policy-test", PULUMI_NODEJS_STACK: "dev", PULUMI_NODEJS_DRY_RUN: "true", PULUMI_CONFIG: "{}", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { port, output } = await portOf(child, "the policy pack");
  try {
    return connect(child, port, dir, output);
  } catch (err) {
    child.kill();
    throw err;
  }
}

/** The engine's analyzer client of a pack listening on `port`, with the protos the pack itself loads. */
function connect(child: ChildProcess, port: string, dir: string, output: () => string): PolicyPackRun {
  const grpc = programRequire<typeof import("@grpc/grpc-js")>(dir, "@grpc/grpc-js");
  const services = programRequire<typeof import("@pulumi/pulumi/proto/analyzer_grpc_pb")>(dir, "@pulumi/pulumi/proto/analyzer_grpc_pb");
  const pb = programRequire<typeof apb>(dir, "@pulumi/pulumi/proto/analyzer_pb");
  const struct = programRequire<typeof import("google-protobuf/google/protobuf/struct_pb")>(dir, "google-protobuf/google/protobuf/struct_pb");
  const empty = programRequire<typeof import("google-protobuf/google/protobuf/empty_pb")>(dir, "google-protobuf/google/protobuf/empty_pb");
  const client = new services.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = <T>(method: string, request: unknown) =>
    new Promise<T>((resolve, reject) => {
      const fn = Reflect.get(client, method) as (req: unknown, cb: (err: unknown, res: T) => void) => void;
      fn.call(client, request, (err, res) => (err ? reject(err) : resolve(res)));
    });
  const toStruct = (o: Record<string, unknown>) => struct.Struct.fromJavaScript(o as Record<string, never>);
  const request = <R extends apb.AnalyzeRequest | apb.AnalyzerResource>(r: R, res: AnalyzedResource, props: Record<string, unknown>): R => {
    r.setUrn(res.urn);
    r.setType(res.type);
    r.setName(res.name);
    r.setProperties(toStruct(props));
    r.setOptions(new pb.AnalyzerResourceOptions()); // the engine always sends options; the pack refuses a request without
    return r;
  };
  const analysis = (res: apb.AnalyzeResponse): Analysis => ({
    diagnostics: res.getDiagnosticsList().map((d) => ({
      policy: d.getPolicyname(),
      message: d.getMessage(),
      level: LEVELS[d.getEnforcementlevel()]!,
      urn: d.getUrn(),
    })),
    notApplicable: res.getNotApplicableList().map((n) => ({ policy: n.getPolicyName(), reason: n.getReason() })),
  });
  const info = async () => {
    const res = await call<apb.AnalyzerInfo>("getAnalyzerInfo", new empty.Empty());
    return {
      name: res.getName(),
      version: res.getVersion(),
      description: res.getDescription(),
      supportsConfig: res.getSupportsconfig(),
      policies: res.getPoliciesList().map((p): PolicyInfo => ({
        name: p.getName(),
        description: p.getDescription(),
        level: LEVELS[p.getEnforcementlevel()]!,
        type: (["unknown", "resource", "stack"] as const)[p.getPolicyType()]!,
        schema: {
          properties: (p.getConfigschema()?.getProperties()?.toJavaScript() ?? {}) as Record<string, Record<string, unknown>>,
          required: p.getConfigschema()?.getRequiredList() ?? [],
        },
      })),
    };
  };
  return {
    pid: child.pid!,
    output,
    pluginInfo: async () => (await call<import("@pulumi/pulumi/proto/plugin_pb").PluginInfo>("getPluginInfo", new empty.Empty())).getVersion(),
    analyzerInfo: info,
    async handshake(packDir) {
      const r = new pb.AnalyzerHandshakeRequest();
      r.setEngineAddress("127.0.0.1:1");
      r.setRootDirectory(packDir);
      r.setProgramDirectory(packDir);
      return call("handshake", r).then(
        () => 0,
        (err: { code?: number }) => err.code ?? -1,
      );
    },
    async configureStack(stack, project, dryRun) {
      const r = new pb.AnalyzerStackConfigureRequest();
      r.setStack(stack);
      r.setProject(project);
      r.setDryRun(dryRun);
      await call("configureStack", r);
    },
    async configure(config = {}, options = {}) {
      const reconciled = reconcile((await info()).policies, config, options.unchecked);
      const r = new pb.ConfigureAnalyzerRequest();
      for (const [name, c] of Object.entries(reconciled)) {
        const pc = new pb.PolicyConfig();
        pc.setEnforcementlevel(LEVELS.indexOf(c.level) as apb.EnforcementLevel);
        pc.setProperties(toStruct(c.props));
        r.getPolicyconfigMap().set(name, pc);
      }
      await call("configure", r);
      return reconciled;
    },
    analyze: async (res) => analysis(await call("analyze", request(new pb.AnalyzeRequest(), res, withoutInternalKeys(res.props)))),
    async analyzeStack(rs) {
      const r = new pb.AnalyzeStackRequest();
      r.setResourcesList(rs.map((res) => request(new pb.AnalyzerResource(), res, withoutInternalKeys(res.props))));
      return analysis(await call("analyzeStack", r));
    },
    remediate: async (res) => (await call<apb.RemediateResponse>("remediate", request(new pb.AnalyzeRequest(), res, res.props))).getRemediationsList().length,
    stop: async () => {
      client.close();
      if (child.exitCode === null) {
        child.kill();
        await new Promise((r) => child.once("exit", r));
      }
    },
  };
}

/**
 * The engine's ReconcilePolicyPackConfig (pkg/resource/analyzer/config.go): each policy at its level
 * with its schema's defaults, then `all`'s level, then each policy's given level and settings; the
 * result checked against each policy's schema, a breach refused before the pack is configured.
 */
export function reconcile(
  policies: readonly PolicyInfo[],
  config: PackConfig,
  unchecked = false,
): Record<string, { level: Level; props: Record<string, unknown> }> {
  const result: Record<string, { level: Level; props: Record<string, unknown> }> = {};
  for (const p of policies) {
    const defaults = Object.entries(p.schema.properties).flatMap(([k, v]) => ("default" in v ? [[k, v.default] as const] : []));
    result[p.name] = { level: p.level, props: Object.fromEntries(defaults) };
  }
  const given = (v: PackConfig[string]) =>
    typeof v === "string" ? { level: v, props: {} } : (({ enforcementLevel, ...props }) => ({ level: enforcementLevel, props }))(v);
  if (config.all !== undefined) for (const r of Object.values(result)) r.level = given(config.all).level ?? r.level;
  for (const [name, v] of Object.entries(config)) {
    if (name === "all") continue;
    const { level, props } = given(v);
    const prior = result[name] ?? { level: "advisory" as Level, props: {} };
    result[name] = { level: level ?? prior.level, props: { ...prior.props, ...props } };
  }
  if (unchecked) return result;
  const ajv = new Ajv({ allErrors: true, strict: false });
  const errors = policies.flatMap((p) => {
    const validate = ajv.compile({ type: "object", properties: p.schema.properties, required: p.schema.required });
    return validate(result[p.name]!.props) ? [] : (validate.errors ?? []).map((e) => `${p.name}: ${e.instancePath.slice(1)} ${e.message}`);
  });
  if (errors.length) throw new Error(`policy pack configuration is invalid: ${errors.join(", ")}`);
  return result;
}

/** A pack for the enclosing `describe` (or the file), started as the engine starts it in `beforeAll`, stopped in `afterAll`. */
export function usePolicyPack(dir?: string): PolicyPackRun {
  return useForSuite(
    "policy pack",
    () => startPolicyPack(dir),
    (run) => run.stop(),
    60_000,
  );
}
