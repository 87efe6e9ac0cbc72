/**
 * The provider as Pulumi runs it: serialized by the SDK from a program that installed the packed
 * tarball, loaded by the real dynamic-provider host, driven over gRPC in the engine's order
 * (Configure → Check → Diff → Create → Read → Update → Delete), against the real controller.
 */
import { UNKNOWN } from "../../provider/resource/inputs";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";
import { SECRET_SIG, SECRET_VALUE, packedProgram, programRequire, serializedProvider, startHost, type Host } from "../helpers/provider-host";

const URN = "urn:pulumi:dev::host-test::pulumi-nodejs:dynamic/boundary:Target::web";
let program: string;
let providerText: string;
let c: TestController;
let host: Host;

beforeAll(async () => {
  program = packedProgram();
  providerText = serializedProvider(program);
  c = await startTestController({ ignoreCreateAssociations: true });
  host = await startHost(program);
  const req = new host.proto.ConfigureRequest();
  // the engine sends the whole stack config, namespaced, with secrets wrapped
  req.setArgs(host.toStruct({ "boundary:addr": c.apiUrl, "boundary:token": { [SECRET_SIG]: SECRET_VALUE, value: ADMIN_TOKEN } }));
  await host.call("configure", req);
}, 60_000);
afterAll(async () => {
  await host?.stop();
  await c?.shutdown();
});

const js = (s: any) => s?.toJavaScript();

async function check(olds: object, news: object) {
  const req = new host.proto.CheckRequest();
  req.setUrn(URN);
  req.setOlds(host.toStruct(olds));
  req.setNews(host.toStruct({ ...news, __provider: providerText }));
  const res = await host.call("check", req);
  return { inputs: js(res.getInputs()), failures: res.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })) };
}
async function diff(id: string, olds: object, news: object) {
  const req = new host.proto.DiffRequest();
  req.setId(id);
  req.setUrn(URN);
  req.setOlds(host.toStruct(olds));
  req.setNews(host.toStruct(news));
  const res = await host.call("diff", req);
  return { changes: res.getChanges(), replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
}
async function create(inputs: object) {
  const req = new host.proto.CreateRequest();
  req.setUrn(URN);
  req.setProperties(host.toStruct(inputs));
  const res = await host.call("create", req);
  return { id: res.getId() as string, outs: js(res.getProperties()) };
}
async function read(id: string, props: object) {
  const req = new host.proto.ReadRequest();
  req.setId(id);
  req.setUrn(URN);
  req.setProperties(host.toStruct(props));
  const res = await host.call("read", req);
  return { id: res.getId() as string, props: js(res.getProperties()), inputs: js(res.getInputs()) };
}
async function update(id: string, olds: object, news: object) {
  const req = new host.proto.UpdateRequest();
  req.setId(id);
  req.setUrn(URN);
  req.setOlds(host.toStruct(olds));
  req.setNews(host.toStruct(news));
  return js((await host.call("update", req)).getProperties());
}
async function del(id: string, props: object) {
  const req = new host.proto.DeleteRequest();
  req.setId(id);
  req.setUrn(URN);
  req.setProperties(host.toStruct(props));
  await host.call("delete", req);
}

test("the serialized provider is small, holds no credential and only requires the installed package", () => {
  expect(Buffer.byteLength(providerText)).toBeLessThanOrEqual(4096);
  expect(providerText).toContain('require("pulumi-boundary/dynamic")');
  expect(providerText).not.toContain(ADMIN_TOKEN);
  expect(providerText).not.toMatch(/127\.0\.0\.1|BOUNDARY_TOKEN|zod|undici/);
});

test("a whole lifecycle over gRPC, with the fewest API calls", async () => {
  const program1 = { scopeId: PROJECT, name: "web", description: "v1", hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"] };
  const checked = await check({}, program1);
  expect(checked.failures).toEqual([]);
  expect(checked.inputs).toEqual({ ...program1, __provider: providerText });

  // create (v0.4 behaviour: POST, then the two set-* calls)
  const { result: created, calls: createCalls } = await countCalls(c.opsUrl, () => create(checked.inputs));
  expect(createCalls).toEqual({ "POST /v1/targets": 1, "POST /v1/targets/{id}:set-host-sets": 1, "POST /v1/targets/{id}:set-credential-libraries": 1 });
  expect(created.id).toMatch(/^ttcp_/);
  expect(created.outs).toMatchObject({ name: "web", version: 3, hostSetIds: ["hsst_1234567890"], __provider: providerText });

  // an unchanged program: no change, no call
  const { result: same, calls: sameCalls } = await countCalls(c.opsUrl, () => diff(created.id, created.outs, checked.inputs));
  expect(same.changes).toBe(host.proto.DiffResponse.DiffChanges.DIFF_NONE);
  expect(sameCalls).toEqual({});

  // refresh: one GET; refreshed inputs carry the managed fields
  const { result: refreshed, calls: readCalls } = await countCalls(c.opsUrl, () => read(created.id, created.outs));
  expect(readCalls).toEqual({ "GET /v1/targets/{id}": 1 });
  expect(refreshed.id).toBe(created.id);
  expect(refreshed.inputs).toEqual({ ...program1, __provider: providerText });

  // update: a description and the host sets
  const program2 = { ...program1, description: "v2", hostSetIds: ["hsst_1234567891"] };
  const checked2 = await check(checked.inputs, program2);
  const d = await diff(created.id, refreshed.props, checked2.inputs);
  expect(d).toEqual({ changes: host.proto.DiffResponse.DiffChanges.DIFF_SOME, replaces: [], deleteBeforeReplace: false });
  const { result: updated, calls: updateCalls } = await countCalls(c.opsUrl, () => update(created.id, refreshed.props, checked2.inputs));
  expect(updateCalls).toEqual({ "PATCH /v1/targets/{id}": 1, "POST /v1/targets/{id}:set-host-sets": 1 });
  expect(updated).toMatchObject({ description: "v2", hostSetIds: ["hsst_1234567891"], version: 5, __provider: providerText });

  // a new project replaces the target
  const moved = await diff(created.id, updated, { ...checked2.inputs, scopeId: "p_0987654321" });
  expect(moved.replaces).toEqual(["scopeId"]);

  // delete: one DELETE; a read afterwards says it is gone
  const { calls: deleteCalls } = await countCalls(c.opsUrl, () => del(created.id, updated));
  expect(deleteCalls).toEqual({ "DELETE /v1/targets/{id}": 1 });
  expect((await read(created.id, updated)).id).toBe("");

  // the token was never in any state the engine received, nor in anything the host printed
  for (const state of [checked.inputs, created.outs, refreshed.props, refreshed.inputs, updated]) expect(JSON.stringify(state)).not.toContain(ADMIN_TOKEN);
  expect(host.output()).not.toContain(ADMIN_TOKEN);
});

test("check names each bad field and skips values unknown during preview", async () => {
  const bad = await check({}, { scopeId: "o_1234567890", name: "x", hostSetIds: ["hs_1"], sessionConnectionLimit: 0 });
  expect(bad.failures.map((f: any) => f.property)).toEqual(["scopeId", "hostSetIds[0]", "sessionConnectionLimit"]);
  const preview = await check({}, { scopeId: UNKNOWN, name: "x", hostSetIds: [UNKNOWN], description: UNKNOWN });
  expect(preview.failures).toEqual([]);
  expect(preview.inputs.scopeId).toBe(UNKNOWN);
  // a diff with an unknown scope plans a replacement, as a preview must show
  const created = await create((await check({}, { scopeId: PROJECT, name: "previewed" })).inputs);
  const d = await diff(created.id, created.outs, preview.inputs);
  expect(d.replaces).toEqual(["scopeId"]);
  await del(created.id, created.outs);
});

test("a failure after create reaches the engine as a partial failure carrying id, state and reason", async () => {
  const inputs = (await check({}, { scopeId: PROJECT, name: "half", hostSetIds: ["hsst_zzzzzzzzzz"] })).inputs;
  let err: any;
  try {
    await create(inputs);
  } catch (e) {
    err = e;
  }
  expect(err).toBeDefined();
  const statusProto = programRequire(program, "@pulumi/pulumi/proto/status_pb");
  const status = statusProto.Status.deserializeBinary(err.metadata.get("grpc-status-details-bin")[0]);
  const detail = status.getDetailsList()[0].unpack(host.proto.ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
  const id = detail.getId();
  const props = js(detail.getProperties());
  expect(id).toMatch(/^ttcp_/);
  expect(props).toMatchObject({ name: "half", hostSetIds: [], __provider: providerText });
  expect(detail.getReasonsList()[0]).toContain(`target ${id} was created, but setting host sets failed`);
  // what the engine recorded is usable: the next up fixes it, destroy removes it
  const fixed = (await check(inputs, { scopeId: PROJECT, name: "half", hostSetIds: ["hsst_1234567890"] })).inputs;
  const updated = await update(id, props, fixed);
  expect(updated.hostSetIds).toEqual(["hsst_1234567890"]);
  await del(id, updated);
  expect(c.store.size).toBe(0);
});
