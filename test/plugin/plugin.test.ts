/**
 * The package as a Pulumi plugin (`boundary:index:Target`), started the way the Node language host
 * runs a PulumiPlugin.yaml directory (`@pulumi/pulumi/cmd/run-plugin <dir> <engine>`, cwd = the
 * consumer) from the packed tarball, and driven over gRPC as the engine does.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { ADMIN_TOKEN, OTHER_PROJECT, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { SECRET_SIG, SECRET_VALUE, packedProgram, programRequire, startPlugin, type Host } from "../helpers/provider-host";

const URN = "urn:pulumi:dev::plugin-test::boundary:index:Target::web";
const secret = (value: unknown) => ({ [SECRET_SIG]: SECRET_VALUE, value });
let program: string;
let c: TestController;
let p: Host;
/** Every response seen, for the check that no secret ever leaves unwrapped. */
const responses: unknown[] = [];

async function rpc(host: Host, method: string, build: (req: any) => void, type: string): Promise<any> {
  const req = new host.proto[type]();
  build(req);
  const res = await host.call(method, req);
  responses.push(decoded(res));
  return res;
}
/** A response as the engine reads it: Structs decoded, failures as text. */
function decoded(res: any): unknown {
  const out: Record<string, unknown> = {};
  for (const getter of ["getInputs", "getProperties", "getReturn", "getSchema", "getVersion"]) {
    const v = res[getter]?.();
    if (v !== undefined) out[getter] = v?.toJavaScript ? v.toJavaScript() : v;
  }
  out.failures = res.getFailuresList?.().map((f: any) => `${f.getProperty()}: ${f.getReason()}`);
  return out;
}
const js = (s: any) => s?.toJavaScript();

async function configure(host: Host, addr: string, token: string) {
  await rpc(host, "configure", (r) => {
    r.getVariablesMap().set("boundary:addr", addr);
    r.setArgs(host.toStruct({ addr, token: secret(token) }));
    r.setAcceptsecrets(true);
  }, "ConfigureRequest");
}
const check = async (host: Host, news: object, olds: object = {}) => {
  const res = await rpc(host, "check", (r) => {
    r.setUrn(URN);
    r.setOlds(host.toStruct(olds));
    r.setNews(host.toStruct(news));
  }, "CheckRequest");
  return { inputs: js(res.getInputs()), failures: res.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })) };
};
const create = async (host: Host, inputs: object) => {
  const res = await rpc(host, "create", (r) => {
    r.setUrn(URN);
    r.setProperties(host.toStruct(inputs));
  }, "CreateRequest");
  return { id: res.getId() as string, props: js(res.getProperties()) };
};
const diff = async (host: Host, id: string, olds: object, news: object) => {
  const res = await rpc(host, "diff", (r) => {
    r.setId(id);
    r.setUrn(URN);
    r.setOlds(host.toStruct(olds));
    r.setNews(host.toStruct(news));
  }, "DiffRequest");
  const detailed: Record<string, number> = {};
  res.getDetaileddiffMap().forEach((v: any, k: string) => (detailed[k] = v.getKind()));
  return { changes: res.getChanges(), replaces: res.getReplacesList(), detailed, hasDetailed: res.getHasdetaileddiff() };
};

beforeAll(async () => {
  program = packedProgram();
  c = await startTestController();
  p = await startPlugin(program);
}, 60_000);
afterAll(async () => {
  await p?.stop();
  await c?.shutdown();
});

test("the tarball ships PulumiPlugin.yaml, and run-plugin serves the provider from the consumer's folder", async () => {
  expect(existsSync(path.join(program, "node_modules", "pulumi-boundary", "PulumiPlugin.yaml"))).toBe(true);
  const { Empty } = programRequire(program, "google-protobuf/google/protobuf/empty_pb");
  const info = await p.call("getPluginInfo", new Empty());
  expect(info.getVersion()).toBe(require("../../package.json").version);
  const hs = await rpc(p, "handshake", (r) => r.setEngineAddress("127.0.0.1:1"), "ProviderHandshakeRequest");
  expect(hs.getAcceptSecrets()).toBe(true);
});

test("GetSchema: a well-formed package schema whose every Target input Check accepts", async () => {
  const res = await rpc(p, "getSchema", (r) => r.setVersion(0), "GetSchemaRequest");
  const schema = JSON.parse(res.getSchema());
  expect(schema.name).toBe("boundary");
  expect(schema.config.variables.token).toMatchObject({ type: "string", secret: true, defaultInfo: { environment: ["BOUNDARY_TOKEN"] } });
  expect(schema.config.variables.addr.defaultInfo).toEqual({ environment: ["BOUNDARY_ADDR"] });
  const target = schema.resources["boundary:index:Target"];
  expect(target.requiredInputs).toEqual(["scopeId", "name"]);
  expect(schema.functions["boundary:index:authorizeSession"].outputs.properties.credentials.secret).toBe(true);
  expect(Object.keys(schema.functions)).toEqual(["boundary:index:authorizeSession", "boundary:index:getTargets"]);
  // every $ref resolves to a declared type
  const refs = JSON.stringify(schema).match(/#\/types\/[^"]+/g) ?? [];
  for (const r of refs) expect(schema.types).toHaveProperty([r.slice("#/types/".length)]);
  // every input property is accepted by Check; a property the schema lacks is refused
  const sample: Record<string, unknown> = {
    scopeId: PROJECT, name: "schema", description: "d", type: "tcp", hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"],
    sessionMaxSeconds: 60, sessionConnectionLimit: 2, workerFilter: '"dev" in "/tags/type"', defaultPort: 22,
  };
  expect(Object.keys(target.inputProperties).sort()).toEqual(Object.keys(sample).sort());
  expect((await check(p, sample)).failures).toEqual([]);
  expect((await check(p, { ...sample, colour: "red" })).failures).toEqual([{ property: "colour", reason: "colour is not an input of boundary:Target" }]);
});

test("CheckConfig names a bad addr and keeps the token secret", async () => {
  const res = await rpc(p, "checkConfig", (r) => {
    r.setUrn("urn:pulumi:dev::plugin-test::pulumi:providers:boundary::default");
    r.setOlds(p.toStruct({}));
    r.setNews(p.toStruct({ addr: "ftp://nowhere", token: ADMIN_TOKEN }));
  }, "CheckRequest");
  expect(res.getFailuresList().map((f: any) => f.getProperty())).toEqual(["addr"]);
  expect(js(res.getInputs()).token).toEqual(secret(ADMIN_TOKEN));
});

test("a whole lifecycle: Configure, Check, Create, Diff (detailed), Update, import by id, Delete", async () => {
  await configure(p, c.apiUrl, ADMIN_TOKEN);
  const bad = await check(p, { scopeId: "o_1234567890", name: "x" });
  expect(bad.failures).toEqual([{ property: "scopeId", reason: "scopeId must be a project scope id (p_…): targets live in projects" }]);

  const inputs = (await check(p, { scopeId: PROJECT, name: "web", description: "v1", hostSetIds: ["hsst_1234567890"], defaultPort: 22 })).inputs;
  const created = await create(p, inputs);
  expect(created.id).toMatch(/^ttcp_/);
  expect(created.props).toMatchObject({ name: "web", description: "v1", hostSetIds: ["hsst_1234567890"], defaultPort: 22, version: 1 });

  const Kind = p.proto.PropertyDiff.Kind;
  const news = { scopeId: PROJECT, name: "web", hostSetIds: ["hsst_1234567891"], defaultPort: 22, workerFilter: '"dev" in "/tags/type"' };
  const d = await diff(p, created.id, created.props, news);
  expect(d).toEqual({
    changes: p.proto.DiffResponse.DiffChanges.DIFF_SOME,
    replaces: [],
    hasDetailed: true,
    detailed: { description: Kind.DELETE, hostSetIds: Kind.UPDATE, workerFilter: Kind.ADD },
  });
  expect((await diff(p, created.id, created.props, { ...news, scopeId: OTHER_PROJECT })).detailed.scopeId).toBe(Kind.UPDATE_REPLACE);
  expect((await diff(p, created.id, created.props, inputs)).changes).toBe(p.proto.DiffResponse.DiffChanges.DIFF_NONE);

  const updated = js((await rpc(p, "update", (r) => {
    r.setId(created.id);
    r.setUrn(URN);
    r.setOlds(p.toStruct(created.props));
    r.setNews(p.toStruct(news));
  }, "UpdateRequest")).getProperties());
  expect(updated).toMatchObject({ hostSetIds: ["hsst_1234567891"], workerFilter: '"dev" in "/tags/type"', version: 3 });
  expect(updated.description).toBeUndefined();

  // `pulumi import boundary:index:Target web <id>`: Read with only the id
  const imported = await rpc(p, "read", (r) => {
    r.setId(created.id);
    r.setUrn(URN);
  }, "ReadRequest");
  expect(imported.getId()).toBe(created.id);
  const importedInputs = js(imported.getInputs());
  expect(importedInputs).toEqual({
    scopeId: PROJECT, name: "web", type: "tcp", hostSetIds: ["hsst_1234567891"], sessionMaxSeconds: 28800, sessionConnectionLimit: -1,
    workerFilter: '"dev" in "/tags/type"', defaultPort: 22,
  });
  // the generated program (these inputs) previews with no changes
  const recheck = await check(p, importedInputs, importedInputs);
  expect(recheck.failures).toEqual([]);
  expect((await diff(p, created.id, js(imported.getProperties()), recheck.inputs)).changes).toBe(p.proto.DiffResponse.DiffChanges.DIFF_NONE);

  await rpc(p, "delete", (r) => {
    r.setId(created.id);
    r.setUrn(URN);
    r.setProperties(p.toStruct(updated));
  }, "DeleteRequest");
  const gone = await rpc(p, "read", (r) => {
    r.setId(created.id);
    r.setUrn(URN);
    r.setProperties(p.toStruct(updated));
  }, "ReadRequest");
  expect(gone.getId()).toBe("");
});

test("Invoke: authorizeSession returns the token and credentials as secrets; getTargets lists", async () => {
  await configure(p, c.apiUrl, ADMIN_TOKEN);
  const t = await create(p, (await check(p, { scopeId: PROJECT, name: "db", hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"] })).inputs);
  const res = await rpc(p, "invoke", (r) => {
    r.setTok("boundary:index:authorizeSession");
    r.setArgs(p.toStruct({ targetId: t.id }));
  }, "InvokeRequest");
  const session = js(res.getReturn());
  expect(session).toMatchObject({ targetId: t.id, endpoint: "tcp://127.0.0.1", hostId: "hst_1234567890" });
  expect(session.authorizationToken[SECRET_SIG]).toBe(SECRET_VALUE);
  expect(session.credentials[SECRET_SIG]).toBe(SECRET_VALUE);
  expect(session.credentials.value[0].secret.decoded).toEqual({ username: "dev", password: "dev-password" });

  const listed = js((await rpc(p, "invoke", (r) => {
    r.setTok("boundary:index:getTargets");
    r.setArgs(p.toStruct({ scopeId: PROJECT, filter: '"/item/name" == "db"' }));
  }, "InvokeRequest")).getReturn());
  expect(listed.targets.map((x: any) => x.id)).toEqual([t.id]);
});

test("an explicit second provider manages targets on a second controller", async () => {
  const other = await startTestController();
  const second = await startPlugin(program);
  try {
    await configure(p, c.apiUrl, ADMIN_TOKEN);
    await configure(second, other.apiUrl, ADMIN_TOKEN);
    const a = await create(p, (await check(p, { scopeId: PROJECT, name: "on-first" })).inputs);
    const b = await create(second, (await check(second, { scopeId: PROJECT, name: "on-second" })).inputs);
    expect(c.store.getTarget(a.id).name).toBe("on-first");
    expect(other.store.getTarget(b.id).name).toBe("on-second");
    expect(() => c.store.getTarget(b.id)).toThrow();
  } finally {
    await second.stop();
    await other.shutdown();
  }
});

test("no response and no log line carries the token or a credential secret unwrapped", () => {
  const leaks: string[] = [];
  const walk = (v: unknown, where: string): void => {
    if (v !== null && typeof v === "object") {
      if ((v as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE) return; // wrapped: fine
      for (const [k, x] of Object.entries(v)) walk(x, `${where}.${k}`);
    } else if (typeof v === "string" && (v.includes(ADMIN_TOKEN) || v.includes("dev-password"))) leaks.push(where);
  };
  // responses as the engine decodes them (Structs to plain values)
  for (const r of responses) walk(r, "response");
  expect(responses.length).toBeGreaterThan(10);
  expect(leaks).toEqual([]);
  expect(p.output()).not.toContain(ADMIN_TOKEN);
  expect(p.output()).not.toContain("dev-password");
});
