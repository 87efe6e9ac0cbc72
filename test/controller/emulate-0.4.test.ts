/**
 * `--emulate 0.4`: Boundary v0.4.0 as it answers (its handlers and repository at that tag): stale
 * versions are 404 and 500, create ignores associations, lists omit them and an empty list is `{}`,
 * and association mistakes are 500s.
 */
import { OTHER_PROJECT, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { loadDevConfig } from "../../controller";

let c: TestController;
beforeAll(async () => {
  c = await startTestController({ emulation: "0.4" });
});
afterAll(() => c.shutdown());

const act = (id: string, action: string, body: object) => c.call("POST", `/v1/targets/${id}:${action}`, body);

test("create ignores host_set_ids and application_credential_library_ids", async () => {
  const t = await c.create({ host_set_ids: ["hsst_1234567890"], application_credential_library_ids: ["clvlt_1234567890"] });
  expect(t.version).toBe(1);
  expect(t).not.toHaveProperty("host_set_ids");
  expect(t).not.toHaveProperty("application_credential_library_ids");
});

test("a stale version on PATCH is 404 NotFound '… not found or incorrect version provided.'", async () => {
  const t = await c.create();
  const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 7, description: "x" });
  expect(res.status).toBe(404);
  expect(res.body).toEqual({ kind: "NotFound", message: `Target "${t.id}" not found or incorrect version provided.` });
});

test.each([
  ["add-host-sets", { host_set_ids: ["hsst_1234567890"] }, "Unable to add host sets to target: target.(Repository).AddTargetHostSets: db.DoTx: target.(Repository).AddTargetHostSets: updated target and 0 rows updated: search issue: error #1101."],
  ["set-host-sets", { host_set_ids: ["hsst_1234567890"] }, "Unable to set host sets in target: target.(Repository).SetTargetHostSets: db.DoTx: target.(Repository).SetTargetHostSets: set target host sets: updated target and 0 rows updated: search issue: error #1101."],
  ["add-credential-libraries", { application_credential_library_ids: ["clvlt_1234567890"] }, "Unable to add credential libraries to target: target.(Repository).AddTargetCredentialLibraries: db.DoTx: target.(Repository).AddTargetCredentialLibraries: invalid target version: integrity violation: error #1105."],
])("a stale version on :%s is 500 Internal as v0.4 words it", async (action, ids, message) => {
  const t = await c.create();
  const res = await act(t.id, action, { version: 9, ...ids });
  expect(res.status).toBe(500);
  expect(res.body).toEqual({ kind: "Internal", message });
  expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(1);
});

test("an empty list is {}", async () => {
  const empty = await startTestController({ emulation: "0.4" });
  try {
    const res = await empty.call("GET", `/v1/targets?scope_id=${PROJECT}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("{}");
  } finally {
    await empty.shutdown();
  }
});

test("list items carry no association ids or summaries; GET does, and a filter sees the item as listed", async () => {
  const t = await c.create({ name: "listed" });
  await act(t.id, "set-host-sets", { version: 1, host_set_ids: ["hsst_1234567890"] });
  const list = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent('"/item/name" == "listed"')}`);
  expect(list.body.items).toHaveLength(1);
  for (const key of ["host_set_ids", "host_sets", "application_credential_library_ids", "application_credential_libraries"]) expect(list.body.items[0]).not.toHaveProperty(key);
  expect((await c.call("GET", `/v1/targets/${t.id}`)).body.host_set_ids).toEqual(["hsst_1234567890"]);
  const byHostSet = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent('"hsst_1234567890" in "/item/host_set_ids"')}`);
  expect(byHostSet.body).toEqual({});
});

test.each([
  ["adding an attached id", "add-host-sets", ["hsst_1234567890"], "is already attached to the target"],
  ["removing an unattached id", "remove-host-sets", ["hsst_1234567891"], "is not attached to the target"],
  ["a host set of another project", "add-host-sets", ["hsst_0987654321"], `belongs to scope ${OTHER_PROJECT}`],
])("%s is a 500, as in v0.4", async (_what, action, ids, text) => {
  const t = await c.create();
  const set = await act(t.id, "set-host-sets", { version: 1, host_set_ids: ["hsst_1234567890"] });
  const res = await act(t.id, action, { version: set.body.version, host_set_ids: ids });
  expect(res.status).toBe(500);
  expect(res.body.kind).toBe("Internal");
  expect(res.body.message).toContain(text);
});

test("the mode comes from --emulate or the config file's controller block; anything else is refused", () => {
  expect(loadDevConfig(["--emulate", "0.4"]).emulation).toBe("0.4");
  expect(loadDevConfig(["--config", "dev.hcl"], () => 'controller {\n  emulate = "0.4"\n}\n').emulation).toBe("0.4");
  expect(loadDevConfig([]).emulation).toBe("spec");
  expect(() => loadDevConfig(["--emulate", "0.7"])).toThrow('--emulate: "0.7" is not one of spec, 0.4, 0.21');
});
