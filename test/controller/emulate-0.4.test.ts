/**
 * `--emulate 0.4`: what only Boundary v0.4.0 answers (its handlers and repository at that tag): the
 * exact 500s of a stale version on its actions, list items without associations, and how the mode
 * is chosen. The rules it shares with the other modes (stale PATCH 404, create ignoring lists, the
 * `{}` empty list, association mistakes as 500s) run in the parameterised suites (targets, list,
 * associations).
 */
import { PROJECT, startTestController, useTestController } from "../helpers/controller";
import { normalised, targetView, type ViewOf } from "../helpers/views";
import { loadDevConfig } from "../../controller";
import { release } from "../../wire/releases";

const c = useTestController({ emulation: "0.4" });
/** A v0.4.0 Target view, whole (internal/servers/controller/handlers/targets/target_service.go toProto at v0.4.0). */
const v04 = (v: ViewOf) => targetView(release("0.4"), v);

const act = (id: string, action: string, body: object) => c.call("POST", `/v1/targets/${id}:${action}`, body);

test.each([
  [
    "add-host-sets",
    { host_set_ids: ["hsst_1234567890"] },
    "Unable to add host sets to target: target.(Repository).AddTargetHostSets: error creating sets: db.DoTx: target.(Repository).AddTargetHostSets: updated target and 0 rows updated: search issue: error #1101.",
  ],
  [
    "set-host-sets",
    { host_set_ids: ["hsst_1234567890"] },
    "Unable to set host sets in target: target.(Repository).SetTargetHostSets: db.DoTx: target.(Repository).SetTargetHostSets: set target host sets: updated target and 0 rows updated: search issue: error #1101.",
  ],
  [
    "add-credential-libraries",
    { application_credential_library_ids: ["clvlt_1234567890"] },
    "Unable to add credential libraries to target: target.(Repository).AddTargetCredentialLibraries: db.DoTx: target.(Repository).AddTargetCredentialLibraries: invalid target version: integrity violation: error #1105.",
  ],
])("a stale version on :%s is 500 Internal as v0.4 words it", async (action, ids, message) => {
  const t = await c.create();
  const res = await act(t.id, action, { version: 9, ...ids });
  expect(res.status).toBe(500);
  expect(res.body).toEqual({ kind: "Internal", message });
  expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(1);
});

test("list items carry no association ids or summaries; GET does, and a filter sees the item as listed", async () => {
  const t = await c.create({ name: "listed" });
  await act(t.id, "set-host-sets", { version: 1, host_set_ids: ["hsst_1234567890"] });
  const list = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent('"/item/name" == "listed"')}`);
  expect(list.body.items).toHaveLength(1);
  for (const key of ["host_set_ids", "host_sets", "application_credential_library_ids", "application_credential_libraries"])
    expect(list.body.items[0]).not.toHaveProperty(key);
  expect((await c.call("GET", `/v1/targets/${t.id}`)).body.host_set_ids).toEqual(["hsst_1234567890"]);
  const byHostSet = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent('"hsst_1234567890" in "/item/host_set_ids"')}`);
  expect(byHostSet.body).toEqual({});
});

test("the mode comes from --emulate or the config file's controller block; anything else is refused", () => {
  expect(loadDevConfig(["--emulate", "0.4"]).emulation).toBe("0.4");
  expect(loadDevConfig(["--config", "dev.hcl"], () => 'controller {\n  emulate = "0.4"\n}\n').emulation).toBe("0.4");
  expect(loadDevConfig([]).emulation).toBe("spec");
  // every minor release of the table is a mode; others are refused, naming them all
  expect(loadDevConfig(["--emulate", "0.7"]).emulation).toBe("0.7");
  expect(() => loadDevConfig(["--emulate", "0.3"])).toThrow(
    '--emulate: "0.3" is not one of spec, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.10, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.20, 0.21',
  );
});

describe("v0.4.0 as its own client meets it", () => {
  test("unknown JSON keys are discarded (its marshaler sets DiscardUnknown) on create and the actions; a PATCH's update mask refuses them", async () => {
    const created = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "discarding", type: "tcp", colour: "red" });
    expect([created.status, normalised(created.body)]).toEqual([200, v04({ version: 1, name: "discarding" })]);
    // runtime.FieldMaskFromRequestBody: every key of a PATCH body must be a Target field (real v0.4.0: update/unknown-field)
    const patched = await c.call("PATCH", `/v1/targets/${created.body.id}`, { version: 1, description: "d", size: 3 });
    expect([patched.status, patched.body]).toEqual([
      500,
      { kind: "Internal", message: 'rpc error: code = InvalidArgument desc = could not find field "size" in "controller.api.resources.targets.v1.Target"' },
    ]);
    const acted = await act(created.body.id, "add-host-sets", { version: 1, host_set_ids: ["hsst_1234567890"], extra: true });
    expect([acted.status, normalised(acted.body)]).toEqual([200, v04({ version: 2, name: "discarding", hosts: ["hsst_1234567890"] })]);
  });

  test('the actions\' validation: "Errors in provided fields.", an empty list "Must be non-empty.", a bad id in the path and in the list', async () => {
    const t = await c.create({ name: "validation" });
    const empty = await act(t.id, "add-host-sets", { version: 1, host_set_ids: [] });
    expect(empty.body).toEqual({
      kind: "InvalidArgument",
      message: "Errors in provided fields.",
      details: { request_fields: [{ name: "host_set_ids", description: "Must be non-empty." }] },
    });
    const kinds = await act(t.id, "add-credential-libraries", { application_credential_library_ids: ["clvlt_12345-67890"] });
    expect(kinds.body).toEqual({
      kind: "InvalidArgument",
      message: "Errors in provided fields.",
      details: {
        request_fields: [
          { name: "application_credential_library_ids", description: 'Incorrectly formatted credential library identifier "clvlt_12345-67890".' },
          { name: "version", description: "Required field." },
        ],
      },
    });
    const path = await act("ttcp_bad-id", "set-host-sets", { version: 1, host_set_ids: [] });
    expect(path.body.details.request_fields).toEqual([{ name: "id", description: "Incorrectly formatted identifier." }]);
    const read = await c.call("GET", "/v1/targets/ttcp_bad-id");
    expect(read.body).toEqual({
      kind: "InvalidArgument",
      message: "Error in provided request.",
      details: { request_fields: [{ name: "id", description: "Invalid formatted identifier." }] },
    });
  });

  test("a current action is the gateway's 405 JSON; an unknown path its routing NotFound, which Boundary's error handler makes a 500", async () => {
    const t = await c.create({ name: "gateway" });
    const current = await act(t.id, "set-host-sources", { version: 1, host_source_ids: [] });
    expect([current.status, current.body]).toEqual([405, { kind: "Unimplemented", message: "Method Not Allowed" }]);
    const unknown = await c.call("GET", "/v1/frobs");
    expect([unknown.status, unknown.body]).toEqual([500, { kind: "Internal", message: "rpc error: code = NotFound desc = Not Found" }]);
  });
});

test.each([
  ["0.12", 405, '{"kind":"Unimplemented","message":"Method Not Allowed"}'],
  ["0.14", 405, ""],
] as const)("--emulate %s answers v0.4's :set-host-sets with %s %s (the rate limiter from 0.14.3 refuses it before the API)", async (release, status, body) => {
  const later = await startTestController({ emulation: release });
  try {
    const t = await later.create({ name: "other-generation" });
    const res = await later.call("POST", `/v1/targets/${t.id}:set-host-sets`, { version: t.version, host_set_ids: [] });
    expect([res.status, res.text]).toEqual([status, body]);
  } finally {
    await later.shutdown();
  }
});

describe("v0.4.0's own answers (item 8 of the fidelity issue), on every row until they change", () => {
  const patch = (id: string, body: object, query = "") => c.call("PATCH", `/v1/targets/${id}${query}`, body);

  test(":add-credential-libraries with an id that names no library is the database's foreign-key 500; :set- drops it", async () => {
    const t = await c.create({ name: "fk-libraries" });
    const add = await act(t.id, "add-credential-libraries", { version: 1, application_credential_library_ids: ["clvlt_0000000000"] });
    const at = "target.(Repository).AddTargetCredentialLibraries";
    expect(add.body).toEqual({
      kind: "Internal",
      message:
        `Unable to add credential libraries to target: ${at}: db.DoTx: ${at}: unable to create target credential libraries: db.CreateItems: db.Create: ` +
        'create failed: insert or update on table "target_credential_library" violates foreign key constraint "credential_library_fkey": integrity violation: error #1003.',
    });
    const set = await act(t.id, "set-credential-libraries", { version: 1, application_credential_library_ids: ["clvlt_0000000000"] });
    expect([set.status, normalised(set.body)]).toEqual([200, v04({ version: 1, name: t.name })]);
  });

  test(":add-host-sets takes a host set of another project (migration 0/40's trigger never compares them)", async () => {
    const t = await c.create({ name: "cross-project" });
    const res = await act(t.id, "add-host-sets", { version: 1, host_set_ids: ["hsst_0987654321"] });
    const hosts = ["hsst_0987654321"];
    expect([res.status, normalised(res.body)]).toEqual([
      200,
      v04({ version: 2, name: "cross-project", hosts, catalogs: { hsst_0987654321: "hcst_0987654321" } }),
    ]);
  });

  test("a PATCH with ?update_mask= stores only the masked fields, and echoes the body's others where nothing is stored (gorm v1)", async () => {
    const t = await c.create({ name: "masked" });
    const res = await patch(t.id, { version: 1, name: "masked-2", description: "not applied", session_max_seconds: 60 }, "?update_mask=name");
    expect([res.status, normalised(res.body)]).toEqual([200, v04({ version: 2, name: "masked-2", description: "not applied" })]);
    const read = await c.call("GET", `/v1/targets/${t.id}`);
    expect([read.status, normalised(read.body)]).toEqual([200, v04({ version: 2, name: "masked-2" })]);
  });

  test("default_port: 0 on a PATCH clears the port (the PATCH's attributes are never vetted); attributes: null names no valid path", async () => {
    const t = await c.create({ name: "port-clear", attributes: { default_port: 22 } });
    const cleared = await patch(t.id, { version: 1, attributes: { default_port: 0 } });
    expect([cleared.status, normalised(cleared.body)]).toEqual([200, v04({ version: 2, name: "port-clear" })]);
    const none = await patch(t.id, { version: 2, attributes: null });
    expect(none.body).toEqual({
      kind: "InvalidArgument",
      message: "No valid fields included in the update mask.",
      details: { request_fields: [{ name: "update_mask", description: "No valid paths provided in the update mask." }] },
    });
    const junk = await patch(t.id, { version: 2, attributes: { default_port: -1 } });
    expect(junk.body).toEqual({ kind: "InvalidArgument", message: "Provided attributes don't match expected format." });
  });

  test('create takes default_port 65536 (a uint32) and says "This optional field cannot be set to 0." for 0', async () => {
    const big = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "port-65536", type: "tcp", attributes: { default_port: 65536 } });
    expect([big.status, normalised(big.body)]).toEqual([200, v04({ version: 1, name: "port-65536", attributes: { default_port: 65536 } })]);
    const zero = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "port-0", type: "tcp", attributes: { default_port: 0 } });
    expect(zero.body.details.request_fields).toEqual([{ name: "attributes.default_port", description: "This optional field cannot be set to 0." }]);
    const missingType = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "no-type" });
    expect(missingType.body.details.request_fields).toEqual([{ name: "type", description: "This is a required field." }]);
  });

  test("a PATCH naming type, scope_id or a list is the generic update-mask 400", async () => {
    const t = await c.create({ name: "fixed-fields" });
    for (const body of [{ type: "ssh" }, { scope_id: "p_0987654321" }, { host_set_ids: ["hsst_1234567890"] }]) {
      const res = await patch(t.id, { version: 1, ...body });
      expect(res.body.message).toBe("No valid fields included in the update mask.");
    }
  });

  test("recursive=1 is true (strconv.ParseBool); a filter whose pattern RE2 cannot compile parses, and matches nothing", async () => {
    await c.create({ name: "recursive-one" });
    const one = await c.call("GET", "/v1/targets?scope_id=o_1234567890&recursive=1");
    expect(one.status).toBe(200);
    expect(one.body.items.length).toBeGreaterThan(0);
    const pattern = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent('"/item/name" matches "(("')}`);
    expect([pattern.status, pattern.body]).toEqual([200, {}]);
  });
});
