/**
 * `--emulate 0.4`: what only Boundary v0.4.0 answers (its handlers and repository at that tag): the
 * exact 500s of a stale version on its actions, list items without associations, and how the mode
 * is chosen. The rules it shares with the other modes (stale PATCH 404, create ignoring lists, the
 * `{}` empty list, association mistakes as 500s) run in the parameterised suites (targets, list,
 * associations).
 */
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { loadDevConfig } from "../../controller";

let c: TestController;
beforeAll(async () => {
  c = await startTestController({ emulation: "0.4" });
});
afterAll(() => c.shutdown());

const act = (id: string, action: string, body: object) => c.call("POST", `/v1/targets/${id}:${action}`, body);

test.each([
  [
    "add-host-sets",
    { host_set_ids: ["hsst_1234567890"] },
    "Unable to add host sets to target: target.(Repository).AddTargetHostSets: db.DoTx: target.(Repository).AddTargetHostSets: updated target and 0 rows updated: search issue: error #1101.",
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
    expect(created.status).toBe(200);
    expect(created.body).not.toHaveProperty("colour");
    // runtime.FieldMaskFromRequestBody: every key of a PATCH body must be a Target field (real v0.4.0: update/unknown-field)
    const patched = await c.call("PATCH", `/v1/targets/${created.body.id}`, { version: 1, description: "d", size: 3 });
    expect([patched.status, patched.body]).toEqual([
      500,
      { kind: "Internal", message: 'rpc error: code = InvalidArgument desc = could not find field "size" in "controller.api.resources.targets.v1.Target"' },
    ]);
    const acted = await act(created.body.id, "add-host-sets", { version: 1, host_set_ids: ["hsst_1234567890"], extra: true });
    expect(acted.body).toMatchObject({ version: 2, host_set_ids: ["hsst_1234567890"] });
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
