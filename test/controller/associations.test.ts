/** add/remove/set of host sets and credential libraries: versions, prefixes, membership, order. */
import { defaultFixtures } from "../../controller";
import { OTHER_PROJECT, startTestController, type TestController } from "../helpers/controller";

let c: TestController;
beforeAll(async () => {
  // the default seed plus a credential library in the second project, for the cross-project rule
  const fixtures = defaultFixtures();
  fixtures.credential_libraries.push({ ...fixtures.credential_libraries[0]!, id: "clvlt_0987654321", scope_id: OTHER_PROJECT });
  c = await startTestController({ fixtures });
});
afterAll(() => c.shutdown());

const kinds = [
  { what: "host-sets", field: "host_set_ids", a: "hsst_1234567890", b: "hsst_1234567891", other: "hsst_0987654321", bad: "hs_1234567890", summaries: "host_sets" },
  { what: "credential-libraries", field: "application_credential_library_ids", a: "clvlt_1234567890", b: "clvlt_1234567891", other: "clvlt_0987654321", bad: "cl_1234567890", summaries: "application_credential_libraries" },
] as const;

describe.each(kinds)("$what", ({ what, field, a, b, other, bad, summaries }) => {
  const act = (id: string, op: string, body: unknown) => c.call("POST", `/v1/targets/${id}:${op}-${what}`, body);

  test("add, remove and set each return the updated Target and add 1 to version", async () => {
    const t = await c.create();
    const added = await act(t.id, "add", { version: 1, [field]: [b, a, a] });
    expect(added.status).toBe(200);
    expect(added.body[field]).toEqual([a, b]);
    expect(added.body[summaries].map((s: any) => s.id)).toEqual([a, b]);
    expect(added.body.version).toBe(2);
    const removed = await act(t.id, "remove", { version: 2, [field]: [a] });
    expect(removed.body).toMatchObject({ [field]: [b], version: 3 });
    const set = await act(t.id, "set", { version: 3, [field]: [a] });
    expect(set.body).toMatchObject({ [field]: [a], version: 4 });
    const cleared = await act(t.id, "set", { version: 4, [field]: [] });
    expect(cleared.body).not.toHaveProperty(field);
    expect(cleared.body.version).toBe(5);
  });

  test("set with null clears; set equal to the current list is a no-op with no version check", async () => {
    const t = await c.create({ [field]: [a] });
    const same = await act(t.id, "set", { version: 99, [field]: [a, a] });
    expect(same.status).toBe(200);
    expect(same.body.version).toBe(1);
    const cleared = await act(t.id, "set", { version: 1, [field]: null });
    expect(cleared.body.version).toBe(2);
    expect(cleared.body).not.toHaveProperty(field);
  });

  test("a stale version is 409 Aborted and changes nothing", async () => {
    const t = await c.create();
    const res = await act(t.id, "add", { version: 7, [field]: [a] });
    expect(res.status).toBe(409);
    expect(res.body.kind).toBe("Aborted");
    expect(res.body.message).toContain("is at version 1, but the request carried version 7");
    expect((await c.call("GET", `/v1/targets/${t.id}`)).body).not.toHaveProperty(field);
  });

  test.each([
    ["a missing version", (x: any) => ({ [x.field]: [x.a] }), "version"],
    ["a wrong prefix", (x: any) => ({ version: 1, [x.field]: [x.bad] }), field],
    ["an empty add", (x: any) => ({ version: 1, [x.field]: [] }), field],
    ["an unknown id", (x: any) => ({ version: 1, [x.field]: [x.a.replace(/\d+$/, "zzzzzzzzzz")] }), field],
    ["an unknown key", (x: any) => ({ version: 1, [x.field]: [x.a], extra: true }), "extra"],
  ])("add with %s is 400 naming the field", async (_what, body, name) => {
    const t = await c.create();
    const res = await act(t.id, "add", body({ field, a, bad }));
    expect(res.status).toBe(400);
    expect(res.body.details.request_fields.map((f: any) => f.name)).toContain(name);
    expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(1);
  });

  test("adding an attached id or removing an unattached one is 400 naming the id", async () => {
    const t = await c.create({ [field]: [a] });
    const again = await act(t.id, "add", { version: 1, [field]: [a] });
    expect(again.status).toBe(400);
    expect(again.body.details.request_fields).toEqual([{ name: field, description: `${a} is already attached to the target.` }]);
    const notThere = await act(t.id, "remove", { version: 1, [field]: [b] });
    expect(notThere.status).toBe(400);
    expect(notThere.body.details.request_fields).toEqual([{ name: field, description: `${b} is not attached to the target.` }]);
  });

  test("an id from another project is 400 naming it", async () => {
    const t = await c.create();
    const res = await act(t.id, "set", { version: 1, [field]: [other] });
    expect(res.status).toBe(400);
    expect(res.body.details.request_fields[0].description).toContain(other);
  });

  test("the body's id must match the path; an unknown target is 404", async () => {
    const t = await c.create();
    expect((await act(t.id, "set", { id: "ttcp_zzzzzzzzzz", version: 1, [field]: [a] })).status).toBe(400);
    expect((await act(t.id, "set", { id: t.id, version: 1, [field]: [a] })).status).toBe(200);
    expect((await act("ttcp_zzzzzzzzzz", "set", { version: 1, [field]: [a] })).status).toBe(404);
  });

  test("changing one list never touches the other", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"], application_credential_library_ids: ["clvlt_1234567890"] });
    const res = await act(t.id, "set", { version: 1, [field]: [b] });
    const otherField = field === "host_set_ids" ? "application_credential_library_ids" : "host_set_ids";
    expect(res.body[otherField]).toEqual(t[otherField]);
  });
});
