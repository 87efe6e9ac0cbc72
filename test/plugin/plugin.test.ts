/**
 * The package as a Pulumi plugin (`boundary:index:Target`), started the way the Node language host
 * runs a PulumiPlugin.yaml directory (`@pulumi/pulumi/cmd/run-plugin <dir> <engine>`, cwd = the
 * consumer) from the packed tarball, and driven over gRPC as the engine does.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { ADMIN_TOKEN, OTHER_PROJECT, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { facts } from "../helpers/releases";
import { knows } from "../../wire/releases";
import { engine, isWrappedSecret, secret, type Engine } from "../../harness/engine";
import { packedProgram, programRequire, startPlugin, type Host } from "../../harness/provider-host";

const URN = "urn:pulumi:dev::plugin-test::boundary:index:Target::web";
let program: string;
let c: TestController;
let p: Host;
let e: Engine;

/** Configure as the engine sends it for an explicit provider: args, with the token secret. */
const configure = (on: Engine, addr: string, token: string) => on.configure({ addr, token: secret(token) }, { "boundary:config:addr": addr });

beforeAll(async () => {
  program = packedProgram();
  c = await startTestController();
  p = await startPlugin(program);
  e = engine(p, URN);
}, 60_000);
afterAll(async () => {
  await p?.stop();
  await c?.shutdown();
});

test("the tarball ships PulumiPlugin.yaml, and run-plugin serves the provider from the consumer's folder", async () => {
  expect(existsSync(path.join(program, "node_modules", "pulumi-boundary", "PulumiPlugin.yaml"))).toBe(true);
  const { Empty } = programRequire<typeof import("google-protobuf/google/protobuf/empty_pb")>(program, "google-protobuf/google/protobuf/empty_pb");
  const info = await p.call<import("@pulumi/pulumi/proto/plugin_pb").PluginInfo>("getPluginInfo", new Empty());
  expect(info.getVersion()).toBe(JSON.parse(readFileSync(path.join(__dirname, "../../package.json"), "utf8")).version);
  expect((await e.handshake()).getAcceptSecrets()).toBe(true);
});

test("GetSchema: a well-formed package schema whose every Target input Check accepts", async () => {
  const schema = await e.getSchema();
  expect(schema.name).toBe("boundary");
  expect(schema.config.variables.token).toMatchObject({ type: "string", secret: true, defaultInfo: { environment: ["BOUNDARY_TOKEN"] } });
  expect(schema.config.variables.addr.defaultInfo).toEqual({ environment: ["BOUNDARY_ADDR"] });
  const target = schema.resources["boundary:index:Target"];
  expect(target.requiredInputs).toEqual(["scopeId"]); // name: autonamed when left out
  expect(schema.functions["boundary:index:authorizeSession"].outputs.properties.credentials.secret).toBe(true);
  expect(Object.keys(schema.functions)).toEqual(["boundary:index:authorizeSession", "boundary:index:getTargets"]);
  // every $ref resolves to a declared type
  const refs = JSON.stringify(schema).match(/#\/types\/[^"]+/g) ?? [];
  for (const r of refs) expect(schema.types).toHaveProperty([r.slice("#/types/".length)]);
  // every input property is accepted by Check (in two programs: some fields exclude each other); a property the schema lacks is refused
  const sample: Record<string, unknown> = {
    scopeId: PROJECT,
    name: "schema",
    description: "d",
    type: "tcp",
    hostSetIds: ["hsst_1234567890"],
    applicationCredentialLibraryIds: ["clvlt_1234567890"],
    sessionMaxSeconds: 60,
    sessionConnectionLimit: 2,
    workerFilter: '"dev" in "/tags/type"',
    defaultPort: 22,
  };
  const newer: Record<string, unknown> = {
    scopeId: PROJECT,
    name: "schema",
    egressWorkerFilter: '"dev" in "/tags/type"',
    ingressWorkerFilter: '"edge" in "/tags/type"',
    address: "db.internal",
    defaultClientPort: 2222,
    injectedApplicationCredentialSourceIds: ["credup_1234567890"],
  };
  expect(Object.keys(target.inputProperties).sort()).toEqual([...new Set([...Object.keys(sample), ...Object.keys(newer)])].sort());
  expect((await e.check(sample)).failures).toEqual([]);
  expect((await e.check(newer)).failures).toEqual([]);
  expect((await e.check({ ...sample, colour: "red" })).failures).toEqual([{ property: "colour", reason: "colour is not an input of boundary:Target" }]);
});

test("CheckConfig names a bad addr and keeps the token secret", async () => {
  const res = await e.checkConfig({ addr: "ftp://nowhere", token: ADMIN_TOKEN });
  expect(res.failures).toEqual(["addr"]);
  expect(res.inputs.token).toEqual(secret(ADMIN_TOKEN));
});

test("a whole lifecycle: Configure, Check, Create, Diff (detailed), Update, import by id, Delete", async () => {
  await configure(e, c.apiUrl, ADMIN_TOKEN);
  const bad = await e.check({ scopeId: "o_1234567890", name: "x" });
  expect(bad.failures).toEqual([{ property: "scopeId", reason: "scopeId must be a project scope id (p_…): targets live in projects" }]);

  const inputs = (await e.check({ scopeId: PROJECT, name: "web", description: "v1", hostSetIds: ["hsst_1234567890"], defaultPort: 22 })).inputs;
  const created = await e.create(inputs);
  expect(created.id).toMatch(/^ttcp_/);
  expect(created.props).toMatchObject({ name: "web", description: "v1", hostSetIds: ["hsst_1234567890"], defaultPort: 22, version: 1 });

  const Kind = e.proto.PropertyDiff.Kind;
  const news = { scopeId: PROJECT, name: "web", hostSetIds: ["hsst_1234567891"], defaultPort: 22, workerFilter: '"dev" in "/tags/type"' };
  const d = await e.diff(created.id, created.props, news);
  expect(d).toEqual({
    changes: e.proto.DiffResponse.DiffChanges.DIFF_SOME,
    replaces: [],
    // the name is the program's: were the engine to replace it (replaceOnChanges), the old one must go first
    deleteBeforeReplace: true,
    hasDetailed: true,
    detailed: { description: Kind.DELETE, hostSetIds: Kind.UPDATE, workerFilter: Kind.ADD },
  });
  expect((await e.diff(created.id, created.props, { ...news, scopeId: OTHER_PROJECT })).detailed.scopeId).toBe(Kind.UPDATE_REPLACE);
  expect((await e.diff(created.id, created.props, inputs)).changes).toBe(e.proto.DiffResponse.DiffChanges.DIFF_NONE);

  const updated = await e.update(created.id, created.props, news);
  expect(updated).toMatchObject({ hostSetIds: ["hsst_1234567891"], workerFilter: '"dev" in "/tags/type"', version: 3 });
  expect(updated.description).toBeUndefined();

  // `pulumi import boundary:index:Target web <id>`: Read with only the id
  const imported = await e.read(created.id);
  expect(imported.id).toBe(created.id);
  const importedInputs = imported.inputs;
  expect(importedInputs).toEqual({
    scopeId: PROJECT,
    name: "web",
    type: "tcp",
    hostSetIds: ["hsst_1234567891"],
    sessionMaxSeconds: 28800,
    sessionConnectionLimit: 1,
    workerFilter: '"dev" in "/tags/type"',
    defaultPort: 22,
  });
  // the generated program (these inputs) previews with no changes
  const recheck = await e.check(importedInputs, importedInputs);
  expect(recheck.failures).toEqual([]);
  expect((await e.diff(created.id, imported.props, recheck.inputs)).changes).toBe(e.proto.DiffResponse.DiffChanges.DIFF_NONE);

  await e.delete(created.id, updated);
  expect((await e.read(created.id, updated)).id).toBe("");
});

/** Creates a Target with a host and a credential library, and authorizes a session on it. */
async function sessionOn(on: Engine, name: string) {
  const t = await on.create(
    (await on.check({ scopeId: PROJECT, name, hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"] })).inputs,
  );
  return { target: t, session: await on.invoke("boundary:index:authorizeSession", { targetId: t.id }) };
}

test("Invoke: authorizeSession returns the token and credentials as secrets; getTargets lists", async () => {
  await configure(e, c.apiUrl, ADMIN_TOKEN);
  const { target: t, session } = await sessionOn(e, "db");
  expect(session).toMatchObject({ targetId: t.id, endpoint: "tcp://127.0.0.1", hostId: "hst_1234567890" });
  expect(isWrappedSecret(session.authorizationToken)).toBe(true);
  expect(isWrappedSecret(session.credentials)).toBe(true);
  expect(session.credentials.value[0].secret.decoded).toEqual({ username: "dev", password: "dev-password" });

  const listed = await e.invoke("boundary:index:getTargets", { scopeId: PROJECT, filter: '"/item/name" == "db"' });
  expect(listed.targets.map((x: { id: string }) => x.id)).toEqual([t.id]);
});

test("an explicit second provider manages targets on a second controller", async () => {
  const other = await startTestController();
  const second = await startPlugin(program);
  const e2 = engine(second, URN);
  try {
    await configure(e, c.apiUrl, ADMIN_TOKEN);
    await configure(e2, other.apiUrl, ADMIN_TOKEN);
    const a = await e.create((await e.check({ scopeId: PROJECT, name: "on-first" })).inputs);
    const b = await e2.create((await e2.check({ scopeId: PROJECT, name: "on-second" })).inputs);
    expect(c.store.getTarget(a.id).name).toBe("on-first");
    expect(other.store.getTarget(b.id).name).toBe("on-second");
    expect(() => c.store.getTarget(b.id)).toThrow();
  } finally {
    await second.stop();
    await other.shutdown();
  }
});

test("no response and no log line carries the token or a credential secret unwrapped", async () => {
  // its own client of the file's plugin, so every response it searches comes from this test; the
  // process's output searched is all of it, every earlier test's included
  const o = engine(p, URN);
  await configure(o, c.apiUrl, ADMIN_TOKEN);
  await o.checkConfig({ addr: c.apiUrl, token: ADMIN_TOKEN });
  const { target } = await sessionOn(o, "secrets");
  await o.read(target.id, target.props);
  await o.invoke("boundary:index:getTargets", { scopeId: PROJECT });
  const leaks: string[] = [];
  const walk = (v: unknown, where: string): void => {
    if (isWrappedSecret(v)) return; // wrapped: fine
    if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${where}.${k}`);
    else if (typeof v === "string" && (v.includes(ADMIN_TOKEN) || v.includes("dev-password"))) leaks.push(where);
  };
  o.responses.forEach((r, i) => walk(r, `response[${i}]`));
  expect(o.responses.length).toBeGreaterThanOrEqual(7);
  expect(leaks).toEqual([]);
  expect(p.output()).not.toContain(ADMIN_TOKEN);
  expect(p.output()).not.toContain("dev-password");
});

describe.each(["0.4", "0.21"] as const)("the lifecycle over gRPC against --emulate %s (the release learned, nothing configured)", (mode) => {
  const f = facts(mode);
  const [filter, connectionLimit] = [f.filter === "worker_filter" ? "workerFilter" : "egressWorkerFilter", f.connectionLimit];
  let mc: TestController;
  let mp: Host;
  let me: Engine;
  beforeAll(async () => {
    mc = await startTestController({ emulation: mode });
    mp = await startPlugin(program);
    me = engine(mp, URN);
    await configure(me, mc.apiUrl, ADMIN_TOKEN);
  }, 60_000);
  afterAll(async () => {
    await mp?.stop();
    await mc?.shutdown();
  });

  test("create with lists, update each kind of field, drift, a version conflict, import, delete", async () => {
    const program1 = {
      scopeId: PROJECT,
      name: `grpc-${mode}`,
      description: "v1",
      defaultPort: 22,
      hostSetIds: ["hsst_1234567890"],
      applicationCredentialLibraryIds: ["clvlt_1234567890"],
    };
    const checked = await me.check(program1);
    const created = await me.create(checked.inputs);
    expect(created.props).toMatchObject({
      hostSetIds: ["hsst_1234567890"],
      applicationCredentialLibraryIds: ["clvlt_1234567890"],
      version: 3,
      sessionConnectionLimit: connectionLimit,
    });

    // each kind of field: a scalar, a nested attribute, a filter and both lists, in one update
    const news = {
      ...program1,
      description: "v2",
      defaultPort: 2222,
      [filter]: '"dev" in "/tags/type"',
      hostSetIds: ["hsst_1234567891"],
      applicationCredentialLibraryIds: [],
    };
    const updated = await me.update(created.id, created.props, (await me.check(news, checked.inputs)).inputs);
    expect(updated).toMatchObject({
      description: "v2",
      defaultPort: 2222,
      [filter]: '"dev" in "/tags/type"',
      hostSetIds: ["hsst_1234567891"],
      applicationCredentialLibraryIds: [],
      version: 6,
    });

    // drift, then a version conflict on the next update
    expect((await mc.call("PATCH", `/v1/targets/${created.id}?update_mask=description`, { version: 6, description: "edited" })).status).toBe(200);
    const refreshed = await me.read(created.id, updated);
    expect(refreshed.inputs.description).toBe("edited");
    expect((await me.diff(created.id, refreshed.props, news)).detailed).toEqual({ description: e.proto.PropertyDiff.Kind.UPDATE });
    expect((await mc.call("PATCH", `/v1/targets/${created.id}?update_mask=session_max_seconds`, { version: 7, session_max_seconds: 60 })).status).toBe(200);
    const again = await me.update(created.id, refreshed.props, news);
    expect(again).toMatchObject({ description: "v2", sessionMaxSeconds: 60, version: 9 });

    // `pulumi import`: Read with only the id; the generated program previews with no changes
    const imported = await me.read(created.id);
    expect(imported.inputs).toMatchObject({
      name: `grpc-${mode}`,
      description: "v2",
      defaultPort: 2222,
      [filter]: '"dev" in "/tags/type"',
      hostSetIds: ["hsst_1234567891"],
    });
    // 0.12+ answer "address": "" beside the host sources: no address, so no check failure
    expect(imported.inputs).not.toHaveProperty("address");
    const recheck = await me.check(imported.inputs, imported.inputs);
    expect((await me.diff(created.id, imported.props, recheck.inputs)).changes).toBe(me.proto.DiffResponse.DiffChanges.DIFF_NONE);

    await me.delete(created.id, again);
    expect(mc.store.size).toBe(0);
  });

  if (knows(f.r, "address")) {
    test("the newer fields over gRPC: address, egress filter, client port; imported as they are", async () => {
      const inputs = {
        scopeId: PROJECT,
        name: "grpc-newer",
        defaultPort: 5432,
        address: "db.internal",
        defaultClientPort: 15432,
        egressWorkerFilter: '"dev" in "/tags/type"',
      };
      const created = await me.create((await me.check(inputs)).inputs);
      expect(mc.store.getTarget(created.id)).toMatchObject({
        address: "db.internal",
        attributes: { default_port: 5432, default_client_port: 15432 },
      });
      const imported = await me.read(created.id);
      expect(imported.inputs).toMatchObject(inputs);
      await me.delete(created.id, created.props);
    });

    test("a release that drops a newer field (--emulate 0.11): Create is a partial failure naming the field and its release, the Target recorded", async () => {
      const older = await startTestController({ emulation: "0.11" });
      const own = await startPlugin(program);
      const o = engine(own, URN);
      try {
        await configure(o, older.apiUrl, ADMIN_TOKEN);
        const inputs = { scopeId: PROJECT, name: "grpc-older", defaultPort: 22, egressWorkerFilter: '"dev" in "/tags/type"' };
        const err = await o.create((await o.check(inputs)).inputs).then(
          () => undefined,
          (x: unknown) => x,
        );
        if (!err) throw new Error("expected the create to fail");
        const { id, properties, reasons } = o.initFailure(err);
        expect(reasons[0]).toContain("egressWorkerFilter was not kept: the controller took it without an error but does not know it (Boundary 0.12 added it)");
        // recorded as the controller holds it (the POST dropped the field: no later call tried it again)
        expect(properties).toMatchObject({ name: "grpc-older", version: older.store.getTarget(id).version });
        expect(properties.egressWorkerFilter).toBeUndefined();
        expect(older.store.getTarget(id).egress_worker_filter).toBeUndefined();
        await o.delete(id, properties);
      } finally {
        await own.stop();
        await older.shutdown();
      }
    });

    test("a release whose attributes lack a newer one (--emulate 0.12): Create names defaultClientPort and 0.13; then Check refuses it, before any call", async () => {
      const older = await startTestController({ emulation: "0.12" });
      const own = await startPlugin(program);
      const o = engine(own, URN);
      try {
        await configure(o, older.apiUrl, ADMIN_TOKEN);
        const inputs = { scopeId: PROJECT, name: "grpc-client-port", defaultPort: 22, defaultClientPort: 15432 };
        const err = await o.create((await o.check(inputs)).inputs).then(
          () => undefined,
          (x: unknown) => String(x),
        );
        expect(err).toMatch(/attributes: Attribute fields do not match the expected format/);
        expect(err).toMatch(
          /defaultClientPort \(attributes\.default_client_port\) needs Boundary 0\.13 or later: the controller refused it, so it is Boundary 0\.5–0\.12/,
        );
        expect(older.store.size).toBe(0);
        const again = await o.check(inputs);
        expect(again.failures).toEqual([
          {
            property: "defaultClientPort",
            reason: expect.stringMatching(/^defaultClientPort needs Boundary 0\.13 or later, but this controller is Boundary 0\.5–0\.12/),
          },
        ]);
      } finally {
        await own.stop();
        await older.shutdown();
      }
    });
  }
});

test("DiffConfig shows a change of any config key (apiGeneration too), and only of those", async () => {
  const DiffChanges = e.proto.DiffResponse.DiffChanges;
  const base = { addr: c.apiUrl, token: ADMIN_TOKEN, apiGeneration: "v0.4" };
  expect(await e.diffConfig(base, { ...base })).toEqual({ changes: DiffChanges.DIFF_NONE, diffs: [] });
  // the bug: a change of apiGeneration was never shown, so the engine kept a provider of the old generation
  expect(await e.diffConfig(base, { ...base, apiGeneration: "current" })).toEqual({ changes: DiffChanges.DIFF_SOME, diffs: ["apiGeneration"] });
  expect(await e.diffConfig(base, { ...base, addr: "http://127.0.0.1:1", token: "at_other" })).toEqual({
    changes: DiffChanges.DIFF_SOME,
    diffs: ["addr", "token"],
  });
  // a key the provider does not take is not a change of the provider
  expect((await e.diffConfig(base, { ...base, version: "9.9.9" })).diffs).toEqual([]);
});

test("CheckConfig judges addr and apiGeneration with the client's own settings parser", async () => {
  // the old regex took a URL the client then refused at the first call
  expect((await e.checkConfig({ addr: "http://[::1" })).failures).toEqual(["addr"]);
  expect((await e.checkConfig({ addr: "https://boundary.example.com:9200/base" })).failures).toEqual([]);
  expect((await e.checkConfig({ apiGeneration: "v0.5" })).failures).toEqual(["apiGeneration"]);
  expect((await e.checkConfig({ apiGeneration: "current" })).failures).toEqual([]);
});

test("Invoke decodes authorizeSession's arguments with the functions' own schema: a name without a scope is refused before any call", async () => {
  await configure(e, c.apiUrl, ADMIN_TOKEN);
  await expect(e.invoke("boundary:index:authorizeSession", { name: "db" })).rejects.toThrow(/scopeId or scopeName is required with name/);
  await expect(e.invoke("boundary:index:authorizeSession", { targetId: 7 })).rejects.toThrow(/authorizeSession: targetId/);
  await expect(e.invoke("boundary:index:getTargets", { recursive: true })).rejects.toThrow(/getTargets: scopeId/);
});
