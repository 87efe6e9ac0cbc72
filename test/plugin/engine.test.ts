/**
 * The plugin as the real Pulumi engine drives it (read in the engine's source; see
 * shared/reference/pulumi-provider-facts.md): Handshake with the engine's address, Configure with
 * the engine's variable keys, Create/Update also during previews, secrets that must stay secret,
 * old inputs in Diff/Update, warnings through Engine/Log, and autonaming.
 */
import { PROJECT, ADMIN_TOKEN, startTestController, type TestController } from "../helpers/controller";
import { UNKNOWN, engine, isWrappedSecret, secret, type Engine } from "../../harness/engine";
import { startFakeEngine, type FakeEngine } from "../helpers/fake-engine";
import { countCalls } from "../helpers/metrics";
import { packedProgram, startPlugin, type Host } from "../../harness/provider-host";
import { until } from "../helpers/wait";

const URN = "urn:pulumi:dev::engine-test::boundary:index:Target::web";
let program: string;
let c: TestController;
let fake: FakeEngine;
let p: Host;
let e: Engine;
let n = 0;

beforeAll(async () => {
  program = packedProgram();
  c = await startTestController();
  fake = await startFakeEngine(program);
  p = await startPlugin(program, { engineAddress: fake.address });
  e = engine(p, URN);
  const hs = await e.handshake(fake.address);
  expect(hs.getAcceptSecrets()).toBe(true);
  expect(hs.getSupportsAutonamingConfiguration()).toBe(true);
  // the default provider: no args, the stack config as the engine keys it
  const res = await e.configure({}, { "boundary:config:addr": c.apiUrl, "boundary:config:token": ADMIN_TOKEN });
  expect(res.getSupportspreview()).toBe(true);
}, 60_000);
afterAll(async () => {
  await p?.stop();
  await fake?.stop();
  await c?.shutdown();
});

/** Check as the engine runs it, then the inputs it hands on. */
const checked = async (news: object, olds: object = {}) => {
  const r = await e.check(news, olds, { name: "web" });
  expect(r.failures).toEqual([]);
  return r.inputs;
};

describe("preview never writes", () => {
  test("a preview Create makes no API call and projects the inputs, with id and computed values unknown", async () => {
    const inputs = await checked({ scopeId: PROJECT, name: `preview-${++n}`, description: UNKNOWN, hostSetIds: ["hsst_1234567890"] });
    const { result, calls } = await countCalls(c.opsUrl, () => e.create(inputs, { preview: true }));
    expect(calls).toEqual({});
    expect(c.store.size).toBe(0);
    expect(result.id).toBe("");
    expect(result.props).toMatchObject({ scopeId: PROJECT, name: inputs.name, description: UNKNOWN, hostSetIds: ["hsst_1234567890"] });
    for (const computed of ["sessionMaxSeconds", "version", "createdTime", "hostSets", "authorizedActions"]) expect(result.props[computed]).toBe(UNKNOWN);
  });

  test("a preview Update makes no API call: the Target keeps its version; the projection shows the change", async () => {
    const inputs = await checked({ scopeId: PROJECT, name: `preview-update-${++n}`, description: "v1" });
    const created = await e.create(inputs);
    const news = await checked({ ...inputs, description: "v2", hostSetIds: ["hsst_1234567891"] }, inputs);
    const { result, calls } = await countCalls(c.opsUrl, () => e.update(created.id, created.props, news, { preview: true, oldInputs: inputs }));
    expect(calls).toEqual({});
    expect(c.store.getTarget(created.id)).toMatchObject({ version: 1, description: "v1" });
    expect(result).toMatchObject({
      description: "v2",
      hostSetIds: ["hsst_1234567891"],
      version: UNKNOWN,
      hostSets: UNKNOWN,
      createdTime: created.props.createdTime,
    });
    await e.delete(created.id, created.props);
  });
});

test("secret inputs stay secret: wrapped in Check's inputs, Create's and Read's outputs", async () => {
  const news = { scopeId: PROJECT, name: `secret-${++n}`, description: secret("internal db for payroll") };
  const inputs = await checked(news);
  expect(isWrappedSecret(inputs.description)).toBe(true);
  const created = await e.create(inputs);
  expect(isWrappedSecret(created.props.description)).toBe(true);
  expect(created.props.description.value).toBe("internal db for payroll");
  const read = await e.read(created.id, created.props);
  expect(isWrappedSecret(read.props.description)).toBe(true);
  expect(isWrappedSecret(read.inputs.description)).toBe(true);
  const updated = await e.update(created.id, created.props, { ...inputs, sessionMaxSeconds: 60 });
  expect(isWrappedSecret(updated.description)).toBe(true);
  await e.delete(created.id, updated);
});

test("CheckConfig skips an addr not known yet (preview) and still rejects a malformed known one", async () => {
  expect((await e.checkConfig({ addr: UNKNOWN, token: secret(ADMIN_TOKEN) })).failures).toEqual([]);
  expect((await e.checkConfig({ addr: "not a url" })).failures).toEqual(["addr"]);
});

test("a warning (changed outside Pulumi) reaches the engine's Log service with the resource's URN", async () => {
  const inputs = await checked({ scopeId: PROJECT, name: `warned-${++n}` });
  const created = await e.create(inputs);
  await c.call("PATCH", `/v1/targets/${created.id}`, { version: 1, description: "edited in the UI" });
  await e.update(created.id, created.props, { ...inputs, sessionMaxSeconds: 60 }, { oldInputs: inputs });
  const line = await until(() => fake.logs.find((l) => l.message.includes(created.id)), "the warning at the engine");
  expect(line).toEqual({
    severity: fake.severity.WARNING,
    urn: URN,
    message: `target ${created.id} was changed outside Pulumi (version 1 → 2; changed: description); retrying once from the current version.`,
  });
  expect(p.output()).not.toContain("changed outside Pulumi");
});

test("a field newly set to the server's value, then removed, is reset (the engine's old inputs say it was set)", async () => {
  const inputs = await checked({ scopeId: PROJECT, name: `old-inputs-${++n}` });
  const created = await e.create(inputs);
  await c.call("PATCH", `/v1/targets/${created.id}`, { version: 1, description: "set by hand" });
  const refreshed = await e.read(created.id, created.props);
  // the program adopts the server's value: nothing to change, so no apply records it as managed
  const adopted = await checked({ ...inputs, description: "set by hand" }, inputs);
  expect((await e.diff(created.id, refreshed.props, adopted, { oldInputs: inputs })).changes).toBe(e.proto.DiffResponse.DiffChanges.DIFF_NONE);
  // then removes it: the old inputs had it, so it goes back to the controller's default
  const removed = await checked(inputs, adopted);
  const d = await e.diff(created.id, refreshed.props, removed, { oldInputs: adopted });
  expect(d.detailed).toEqual({ description: e.proto.PropertyDiff.Kind.DELETE });
  const updated = await e.update(created.id, refreshed.props, removed, { oldInputs: adopted });
  expect(updated.description).toBeUndefined();
  expect(c.store.getTarget(created.id).description).toBeUndefined();
});

describe("autonaming", () => {
  const seed = new Uint8Array([1, 2, 3, 4]);

  test("no name: the logical name plus a suffix, stable at the next Check, fresh for a replacement", async () => {
    const first = await e.check({ scopeId: PROJECT }, {}, { name: "web", randomSeed: seed });
    expect(first.failures).toEqual([]);
    expect(first.inputs.name).toMatch(/^web-[0-9a-f]{7}$/);
    // the same seed gives the same name (deterministic previews)
    expect((await e.check({ scopeId: PROJECT }, {}, { name: "web", randomSeed: seed })).inputs.name).toBe(first.inputs.name);
    // an update keeps the name from the old inputs, whatever the seed
    expect((await e.check({ scopeId: PROJECT, description: "x" }, first.inputs, { name: "web", randomSeed: new Uint8Array([9]) })).inputs.name).toBe(
      first.inputs.name,
    );
    // a replacement is checked without old inputs: a new name, so create-before-delete does not collide
    const replacement = await e.check({ scopeId: PROJECT }, {}, { name: "web", randomSeed: new Uint8Array([5, 6]) });
    expect(replacement.inputs.name).toMatch(/^web-[0-9a-f]{7}$/);
    expect(replacement.inputs.name).not.toBe(first.inputs.name);
  });

  test("create-before-delete of an autonamed Target in the same project succeeds", async () => {
    const old = await e.create((await e.check({ scopeId: PROJECT }, {}, { name: "web" })).inputs);
    const replacement = await e.create((await e.check({ scopeId: PROJECT }, {}, { name: "web" })).inputs);
    expect(replacement.props.name).not.toBe(old.props.name);
    await e.delete(old.id, old.props);
    await e.delete(replacement.id, replacement.props);
  });

  test("an explicit name is used verbatim; the engine's autonaming settings are honoured", async () => {
    expect((await e.check({ scopeId: PROJECT, name: "Exactly This" }, {}, { name: "web" })).inputs.name).toBe("Exactly This");
    const propose = await e.check({ scopeId: PROJECT }, {}, { name: "web", autonaming: { proposedName: "dev-web-xyz", mode: "propose" } });
    expect(propose.inputs.name).toBe("dev-web-xyz");
    const enforce = await e.check({ scopeId: PROJECT }, {}, { name: "web", autonaming: { proposedName: "web", mode: "enforce" } });
    expect(enforce.inputs.name).toBe("web");
    const disabled = await e.check({ scopeId: PROJECT }, {}, { name: "web", autonaming: { proposedName: "web", mode: "disable" } });
    expect(disabled.failures).toEqual([{ property: "name", reason: "name is required: automatic naming is disabled for this stack" }]);
  });
});

describe("a controller answering as Boundary v0.21, with boundary:apiGeneration set to current", () => {
  let current: TestController;
  let cp: Host;
  let ce: Engine;
  beforeAll(async () => {
    current = await startTestController({ emulation: "0.21" });
    cp = await startPlugin(program, { engineAddress: fake.address });
    ce = engine(cp, URN);
    await ce.handshake(fake.address);
    await ce.configure({}, { "boundary:config:addr": current.apiUrl, "boundary:config:token": ADMIN_TOKEN, "boundary:config:apiGeneration": "current" });
  }, 60_000);
  afterAll(async () => {
    await cp?.stop();
    await current?.shutdown();
  });

  test("create, then each list through its current set action; read and delete once each; nothing left behind", async () => {
    const news = {
      scopeId: PROJECT,
      name: `current-${n++}`,
      defaultPort: 22,
      hostSetIds: ["hsst_1234567890"],
      applicationCredentialLibraryIds: ["clvlt_1234567890"],
    };
    const r = await ce.check(news, {}, { name: "web" });
    expect(r.failures).toEqual([]);
    const { result: created, calls } = await countCalls(current.opsUrl, () => ce.create(r.inputs));
    expect(calls).toEqual({ "POST /v1/targets": 1, "POST /v1/targets/{id}:set-host-sources": 1, "POST /v1/targets/{id}:set-credential-sources": 1 });
    expect(created.props).toMatchObject({ hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"], version: 3 });
    const stored = current.store.getTarget(created.id);
    expect(stored.version).toBe(3);

    const { result: read, calls: readCalls } = await countCalls(current.opsUrl, () => ce.read(created.id, created.props));
    expect(readCalls).toEqual({ "GET /v1/targets/{id}": 1 });
    expect(read.props).toMatchObject({ hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"] });

    const { calls: deleteCalls } = await countCalls(current.opsUrl, () => ce.delete(created.id, read.props));
    expect(deleteCalls).toEqual({ "DELETE /v1/targets/{id}": 1 });
    expect(current.store.listTargets(PROJECT, false)).toHaveLength(0);
    expect(cp.output()).not.toContain(ADMIN_TOKEN);
  });
});
