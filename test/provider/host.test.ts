/**
 * The provider as Pulumi runs it: serialized by the SDK from a program that installed the packed
 * tarball, loaded by the real dynamic-provider host, driven over gRPC in the engine's order
 * (Configure → Check → Diff → Create → Read → Update → Delete), against the real controller.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ADMIN_TOKEN, PROJECT } from "../helpers/controller";
import { UNKNOWN } from "../../harness/engine";
import { useHostedProvider } from "../helpers/dynamic-host";
import { countCalls } from "../helpers/metrics";
import { facts } from "../helpers/releases";

const URN = "urn:pulumi:dev::host-test::pulumi-nodejs:dynamic/boundary:Target::web";
const h = useHostedProvider(URN, { ignoreCreateAssociations: true });

/** Check as the engine calls it for a dynamic resource, the previous inputs first: the program's inputs plus `__provider`. */
const check = (olds: object, news: object) => h.check(news, olds);
/** The dynamic host answers Diff without detailed diffs: only these three fields. */
const diff = (id: string, olds: object, news: object) =>
  h.e.diff(id, olds, news).then(({ changes, replaces, deleteBeforeReplace }) => ({ changes, replaces, deleteBeforeReplace }));
const create = (inputs: object) => h.e.create(inputs).then(({ id, props }) => ({ id, outs: props }));
const read = (id: string, props: object) => h.e.read(id, props);
const update = (id: string, olds: object, news: object) => h.e.update(id, olds, news);
const del = (id: string, props: object) => h.e.delete(id, props);

test("the serialized provider is small, holds no credential and only requires the installed package", () => {
  // the installed package's entry module, referenced: a bare require, not the provider's code
  expect(Buffer.byteLength(h.providerText)).toBeLessThanOrEqual(1024);
  expect(h.providerText).toContain('require("pulumi-boundary/dynamic")');
  expect(h.providerText).not.toContain("providerFor");
  expect(h.providerText).not.toContain(ADMIN_TOKEN);
  expect(h.providerText).not.toMatch(/127\.0\.0\.1|BOUNDARY_TOKEN|zod|undici/);
});

test("a whole lifecycle over gRPC, with the fewest API calls", async () => {
  const program1 = { scopeId: PROJECT, name: "web", description: "v1", hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"] };
  const checked = await check({}, program1);
  expect(checked.failures).toEqual([]);
  // Check records the fields the previous program set and this one removed (none: no key, nothing extra in the inputs)
  expect(checked.inputs).toEqual({ ...program1, __provider: h.providerText });

  // create (v0.4 behaviour: POST, then the two set-* calls)
  const { result: created, calls: createCalls } = await countCalls(h.c.opsUrl, () => create(checked.inputs));
  expect(createCalls).toEqual({ "POST /v1/targets": 1, "POST /v1/targets/{id}:set-host-sets": 1, "POST /v1/targets/{id}:set-credential-libraries": 1 });
  expect(created.id).toMatch(/^ttcp_/);
  expect(created.outs).toMatchObject({ name: "web", version: 3, hostSetIds: ["hsst_1234567890"], __provider: h.providerText });

  // an unchanged program: no change, no call
  const { result: same, calls: sameCalls } = await countCalls(h.c.opsUrl, () => diff(created.id, created.outs, checked.inputs));
  expect(same.changes).toBe(h.e.proto.DiffResponse.DiffChanges.DIFF_NONE);
  expect(sameCalls).toEqual({});

  // refresh: one GET; refreshed inputs carry the managed fields
  const { result: refreshed, calls: readCalls } = await countCalls(h.c.opsUrl, () => read(created.id, created.outs));
  expect(readCalls).toEqual({ "GET /v1/targets/{id}": 1 });
  expect(refreshed.id).toBe(created.id);
  expect(refreshed.inputs).toEqual({ ...program1, __provider: h.providerText });

  // update: a description and the host sets
  const program2 = { ...program1, description: "v2", hostSetIds: ["hsst_1234567891"] };
  const checked2 = await check(checked.inputs, program2);
  const d = await diff(created.id, refreshed.props, checked2.inputs);
  // the name is the program's: were the engine to replace it (replaceOnChanges), the old one must go first
  expect(d).toEqual({ changes: h.e.proto.DiffResponse.DiffChanges.DIFF_SOME, replaces: [], deleteBeforeReplace: true });
  const { result: updated, calls: updateCalls } = await countCalls(h.c.opsUrl, () => update(created.id, refreshed.props, checked2.inputs));
  expect(updateCalls).toEqual({ "PATCH /v1/targets/{id}": 1, "POST /v1/targets/{id}:set-host-sets": 1 });
  expect(updated).toMatchObject({ description: "v2", hostSetIds: ["hsst_1234567891"], version: 5, __provider: h.providerText });

  // a new project replaces the target
  const moved = await diff(created.id, updated, { ...checked2.inputs, scopeId: "p_0987654321" });
  expect(moved.replaces).toEqual(["scopeId"]);

  // delete: one DELETE; a read afterwards says it is gone
  const { calls: deleteCalls } = await countCalls(h.c.opsUrl, () => del(created.id, updated));
  expect(deleteCalls).toEqual({ "DELETE /v1/targets/{id}": 1 });
  expect((await read(created.id, updated)).id).toBe("");

  // what the engine stores per Target: inputs and outputs, each with __provider
  const stateBytes = Buffer.byteLength(JSON.stringify({ inputs: checked2.inputs, outputs: updated }));
  expect(stateBytes).toBeLessThanOrEqual(2560);

  // the token was never in any state the engine received, nor in anything the host printed
  for (const state of [checked.inputs, created.outs, refreshed.props, refreshed.inputs, updated]) expect(JSON.stringify(state)).not.toContain(ADMIN_TOKEN);
  expect(h.host.output()).not.toContain(ADMIN_TOKEN);
});

test("check names each bad field and skips values unknown during preview", async () => {
  const bad = await check({}, { scopeId: "o_1234567890", name: "x", hostSetIds: ["hx_1"], sessionConnectionLimit: 0 });
  expect(bad.failures.map((f) => f.property)).toEqual(["scopeId", "hostSetIds[0]", "sessionConnectionLimit"]);
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
  const err = await create(inputs).then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!err) throw new Error("expected the create to fail");
  const { id, properties: props, reasons } = h.e.initFailure(err);
  expect(id).toMatch(/^ttcp_/);
  expect(props).toMatchObject({ name: "half", hostSetIds: [], __provider: h.providerText });
  expect(reasons[0]).toContain(`target ${id} was created, but setting host sets failed`);
  // what the engine recorded is usable: the next up fixes it, destroy removes it
  const fixed = (await check(inputs, { scopeId: PROJECT, name: "half", hostSetIds: ["hsst_1234567890"] })).inputs;
  const updated = await update(id, props, fixed);
  expect(updated.hostSetIds).toEqual(["hsst_1234567890"]);
  await del(id, updated);
  expect(h.c.store.size).toBe(0);
});

test("autonaming: no name in the program gives the logical name plus a suffix, kept at the next Check", async () => {
  const first = await check({}, { scopeId: PROJECT, __logicalName: "api" });
  expect(first.failures).toEqual([]);
  expect(first.inputs.name).toMatch(/^api-[0-9a-f]{7}$/);
  expect((await check(first.inputs, { scopeId: PROJECT, __logicalName: "api", description: "d" })).inputs.name).toBe(first.inputs.name);
  // a replacement is checked without old inputs: a fresh name
  expect((await check({}, { scopeId: PROJECT, __logicalName: "api" })).inputs.name).not.toBe(first.inputs.name);
});

test("a field newly set to the server's value, then removed, is reset: Check carries the previous program's fields", async () => {
  const v1 = (await check({}, { scopeId: PROJECT, name: "adopted" })).inputs;
  const created = await create(v1);
  await h.c.call("PATCH", `/v1/targets/${created.id}`, { version: created.outs.version, description: "set by hand" });
  const refreshed = await read(created.id, created.outs);
  const v2 = (await check(v1, { scopeId: PROJECT, name: "adopted", description: "set by hand" })).inputs;
  expect((await diff(created.id, refreshed.props, v2)).changes).toBe(h.e.proto.DiffResponse.DiffChanges.DIFF_NONE);
  // fields the program still sets are not recorded: only a removed one can be reset
  expect(v2).not.toHaveProperty("__priorInputs");
  const v3 = (await check(v2, { scopeId: PROJECT, name: "adopted" })).inputs;
  expect(v3.__priorInputs).toEqual(["description"]);
  expect((await diff(created.id, refreshed.props, v3)).changes).toBe(h.e.proto.DiffResponse.DiffChanges.DIFF_SOME);
  const updated = await update(created.id, refreshed.props, v3);
  expect(updated.description).toBeUndefined();
  await del(created.id, updated);
});

describe("a stack deployed with version 0.1.0 keeps working after the upgrade", () => {
  // exactly what 0.1.0 wrote into state: its serialized provider and a Target's outputs
  const oldProvider = readFileSync(path.join(__dirname, "..", "fixtures", "provider-0.1.0.js.txt"), "utf8");
  const oldState = JSON.parse(readFileSync(path.join(__dirname, "..", "fixtures", "state-0.1.0.json"), "utf8"));

  test("the stored __provider loads pulumi-boundary/dynamic; its state diffs clean, updates, refreshes and deletes", async () => {
    expect(oldProvider).toContain('require("pulumi-boundary/dynamic").providerFor(this)');
    // the Target that state describes, on this controller (v0.4 create: lists set afterwards)
    const made = await h.c.call("POST", "/v1/targets", {
      scope_id: PROJECT,
      name: "web",
      description: "made by 0.1.0",
      type: "tcp",
      session_connection_limit: 4,
      attributes: { default_port: 22 },
    });
    const withHosts = await h.c.call("POST", `/v1/targets/${made.body.id}:set-host-sets`, { version: 1, host_set_ids: ["hsst_1234567890"] });
    const withLibs = await h.c.call("POST", `/v1/targets/${made.body.id}:set-credential-libraries`, {
      version: withHosts.body.version,
      application_credential_library_ids: ["clvlt_1234567890"],
    });
    const id: string = withLibs.body.id;
    const state = { ...oldState, version: withLibs.body.version, __provider: oldProvider };
    // the program that deployed it, as the engine hands it on (inputs plus the stored provider)
    const inputs: Record<string, unknown> = { __provider: oldProvider };
    for (const f of oldState.__managed as string[]) inputs[f] = oldState[f];

    const checked = await h.e.check(inputs, inputs);
    expect(checked.failures).toEqual([]);
    expect((await diff(id, state, checked.inputs)).changes).toBe(h.e.proto.DiffResponse.DiffChanges.DIFF_NONE);

    const changed = await h.e.check({ ...inputs, description: "changed after the upgrade" }, inputs);
    const updated = await update(id, state, changed.inputs);
    expect(updated).toMatchObject({
      description: "changed after the upgrade",
      version: state.version + 1,
      __provider: oldProvider,
      __managed: oldState.__managed,
    });

    const refreshed = await read(id, updated);
    expect(refreshed.props).toMatchObject({ description: "changed after the upgrade", __provider: oldProvider });
    await del(id, refreshed.props);
    expect((await read(id, refreshed.props)).id).toBe("");
  });
});

/** The slow suites through the real host run against three releases: the spec, v0.4 and the newest (the per-release rules run in the fast suites). */
describe.each(["spec", "0.4", "0.21"] as const)("through the host against --emulate %s", (mode) => {
  const f = facts(mode);
  const setHosts = `set-${f.hosts.noun}`;
  const [filterWire, filterInput] = f.filter === "worker_filter" ? ["worker_filter", "workerFilter"] : ["egress_worker_filter", "egressWorkerFilter"];
  const m = useHostedProvider(URN, { emulation: mode });

  // the lifecycle through the current actions, where the release has them
  if (f.r.generation === "current") {
    test("create, refresh, update and delete use the current actions; state keeps the program's names", async () => {
      // since 0.9.0 a TCP Target needs a default port at create: the controller's rule, named, and nothing left behind
      // (first in this host's life: the generation is not known yet, so the POST reaches the controller)
      const portless = { scopeId: PROJECT, name: "web", hostSetIds: ["hsst_1234567890"] };
      const refused = await m.check(portless, {});
      const before = m.c.store.size;
      await expect(m.e.create(refused.inputs)).rejects.toThrow("attributes.default_port: This field is required.");
      expect(m.c.store.size).toBe(before);

      const program1 = {
        scopeId: PROJECT,
        name: "web",
        defaultPort: 22,
        hostSetIds: ["hsst_1234567890"],
        applicationCredentialLibraryIds: ["clvlt_1234567890"],
      };
      const checked = await m.check(program1, {});
      expect(checked.failures).toEqual([]);

      const { result: created, calls: createCalls } = await countCalls(m.c.opsUrl, () => m.e.create(checked.inputs));
      expect(createCalls).toEqual({ "POST /v1/targets": 1, "POST /v1/targets/{id}:set-host-sources": 1, "POST /v1/targets/{id}:set-credential-sources": 1 });
      expect(created.props).toMatchObject({ hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"], version: 3 });

      const { result: refreshed, calls: readCalls } = await countCalls(m.c.opsUrl, () => m.e.read(created.id, created.props));
      expect(readCalls).toEqual({ "GET /v1/targets/{id}": 1 });
      expect(refreshed.inputs).toEqual({ ...program1, __provider: m.providerText });

      const program2 = { ...program1, hostSetIds: ["hsst_1234567891"] };
      const checked2 = await m.check(program2, checked.inputs);
      const { result: updated, calls: updateCalls } = await countCalls(m.c.opsUrl, () => m.e.update(created.id, refreshed.props, checked2.inputs));
      expect(updateCalls).toEqual({ "POST /v1/targets/{id}:set-host-sources": 1 });
      expect(updated).toMatchObject({ hostSetIds: ["hsst_1234567891"], version: 4 });

      const { calls: deleteCalls } = await countCalls(m.c.opsUrl, () => m.e.delete(created.id, updated));
      expect(deleteCalls).toEqual({ "DELETE /v1/targets/{id}": 1 });
      expect((await m.e.read(created.id, updated)).id).toBe("");
      expect(m.host.output()).not.toContain(ADMIN_TOKEN);
    });
  }

  test("an outside edit shows as drift after a refresh; an update that meets a moved version re-reads, retries once and keeps the outside change", async () => {
    const program1 = { scopeId: PROJECT, name: `drift-${mode}`, description: "v1", defaultPort: 22, hostSetIds: ["hsst_1234567890"] };
    const checked = await m.check(program1, {});
    const created = await m.e.create(checked.inputs);
    expect(created.props).toMatchObject({ hostSetIds: ["hsst_1234567890"], description: "v1" });

    // drift: the description is edited outside Pulumi
    const v = created.props.version as number;
    expect((await m.c.call("PATCH", `/v1/targets/${created.id}?update_mask=description`, { version: v, description: "edited" })).status).toBe(200);
    const refreshed = await m.e.read(created.id, created.props);
    expect(refreshed.inputs).toMatchObject({ description: "edited" });
    expect((await m.e.diff(created.id, refreshed.props, checked.inputs)).changes).toBe(m.e.proto.DiffResponse.DiffChanges.DIFF_SOME);

    // a version conflict: an unmanaged field changes after the refresh, then the program's update runs
    expect(
      (await m.c.call("PATCH", `/v1/targets/${created.id}?update_mask=${filterWire}`, { version: v + 1, [filterWire]: '"dev" in "/tags/type"' })).status,
    ).toBe(200);
    const checked2 = await m.check({ ...program1, description: "v2", hostSetIds: ["hsst_1234567891"] }, checked.inputs);
    const { result: updated, calls } = await countCalls(m.c.opsUrl, () => m.e.update(created.id, refreshed.props, checked2.inputs));
    expect(calls).toEqual({ "PATCH /v1/targets/{id}": 2, "GET /v1/targets/{id}": 1, [`POST /v1/targets/{id}:${setHosts}`]: 1 });
    expect(updated).toMatchObject({ description: "v2", hostSetIds: ["hsst_1234567891"], [filterInput]: '"dev" in "/tags/type"', version: v + 4 });
    expect(m.host.output()).toContain(`target ${created.id} was changed outside Pulumi`);

    await m.e.delete(created.id, updated);
    expect((await m.e.read(created.id, updated)).id).toBe("");
  });
});
