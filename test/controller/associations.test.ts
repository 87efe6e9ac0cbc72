/**
 * add/remove/set on a Target's lists: versions, prefixes, membership, order, against every release
 * of the matrix, each through its newest action for the list with the field that action reads (the
 * release table's). Where releases answer differently, the row says how each does.
 */
import { defaultFixtures } from "../../controller";
import { summariesOf, type ListField } from "../../wire/releases";
import { OTHER_PROJECT, startTestController, type TestController } from "../helpers/controller";
import { MATRIX, facts, speech } from "../helpers/releases";

const KINDS = [
  { what: "host list", list: "hostSetIds" as ListField, a: "hsst_1234567890", b: "hsst_1234567891", other: "hsst_0987654321", bad: "hx_1234567890" },
  {
    what: "brokered credential list",
    list: "applicationCredentialLibraryIds" as ListField,
    a: "clvlt_1234567890",
    b: "clvlt_1234567891",
    other: "clvlt_0987654321",
    bad: "cl_1234567890",
  },
] as const;

describe.each(MATRIX)("--emulate %s", (mode) => {
  const m = facts(mode);
  const { r } = m;
  let c: TestController;
  beforeAll(async () => {
    // the default seed plus a credential library in the second project, for the cross-project rule
    const fixtures = defaultFixtures();
    fixtures.credential_libraries.push({ ...fixtures.credential_libraries[0]!, id: "clvlt_0987654321", scope_id: OTHER_PROJECT });
    c = await startTestController({ fixtures, emulation: mode, rateLimits: "disabled" });
  });
  afterAll(() => c.shutdown());

  describe.each(KINDS)("$what", (k) => {
    const { noun: action, field } = speech(r, k.list)!;
    const summaries = summariesOf(field);
    const { a, b, other } = k;
    const act = (id: string, op: string, body: unknown) => c.call("POST", `/v1/targets/${id}:${op}-${action}`, body);
    /** The order the release answers `ids` in: as attached, credential sources by id, or host sets as created (credentialSourceOrder, hostSetOrder). */
    const created = (id: string) => defaultFixtures().host_sets.findIndex((h) => h.id === id);
    const inOrder = (ids: string[]) =>
      k.list === "applicationCredentialLibraryIds" && r.credentialSourceOrder === "collation"
        ? [...ids].sort(new Intl.Collator("en-US").compare)
        : k.list === "hostSetIds" && r.hostSetOrder === "created"
          ? [...ids].sort((x, y) => created(x) - created(y))
          : ids;
    /** A Target holding `ids` (attached by an action: only the spec's controller applies lists on create), at version 1 or 2. */
    const withIds = async (ids: string[] = []) => {
      const t = await c.create({ attributes: { default_port: 22 } });
      if (ids.length === 0) return t;
      return (await act(t.id, "set", { version: 1, [field]: ids })).body;
    };

    test("add, remove and set each return the updated Target and add 1 to version", async () => {
      const t = await withIds();
      const added = await act(t.id, "add", { version: 1, [field]: [b, a, a] });
      expect(added.status).toBe(200);
      // in the order they were attached, once each (Boundary reads the join table's rows back unordered: insertion order)
      expect(added.body[field]).toEqual(inOrder([b, a]));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field
      expect(added.body[summaries].map((s: any) => s.id)).toEqual(inOrder([b, a]));
      expect(added.body.version).toBe(2);
      const removed = await act(t.id, "remove", { version: 2, [field]: [a] });
      expect(removed.body).toMatchObject({ [field]: [b], version: 3 });
      const set = await act(t.id, "set", { version: 3, [field]: [a] });
      expect(set.body).toMatchObject({ [field]: [a], version: 4 });
      const cleared = await act(t.id, "set", { version: 4, [field]: [] });
      expect(cleared.body).not.toHaveProperty(field);
      expect(cleared.body.version).toBe(5);
    });

    test("ids keep the order they were attached in (credential sources from 0.12 by id, v0.4's host sets as created): an add appends, a set keeps those it keeps and appends the new", async () => {
      const t = await withIds([b]);
      const added = await act(t.id, "add", { version: 2, [field]: [a] });
      expect(added.body[field]).toEqual(inOrder([b, a]));
      const set = await act(t.id, "set", { version: 3, [field]: [a] });
      expect(set.body[field]).toEqual([a]);
      const again = await act(t.id, "set", { version: 4, [field]: [b, a] });
      expect(again.body[field]).toEqual(inOrder([a, b]));
      // the same ids in another order are no change
      expect((await act(t.id, "set", { version: 5, [field]: [b, a] })).body.version).toBe(5);
    });

    test("set with null clears; set equal to the current list is a no-op with no version check", async () => {
      const t = await withIds([a]);
      const same = await act(t.id, "set", { version: 99, [field]: [a, a] });
      expect(same.status).toBe(200);
      expect(same.body.version).toBe(2);
      const cleared = await act(t.id, "set", { version: 2, [field]: null });
      expect(cleared.body.version).toBe(3);
      expect(cleared.body).not.toHaveProperty(field);
    });

    test(`a stale version is ${m.stale.action.join(" ")} and changes nothing`, async () => {
      const t = await withIds();
      const res = await act(t.id, "add", { version: 7, [field]: [a] });
      expect([res.status, res.body.kind]).toEqual(m.stale.action);
      if (r.errors === "ours") expect(res.body.message).toContain("is at version 1, but the request carried version 7");
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body).not.toHaveProperty(field);
    });

    test.each([
      ["a missing version", () => ({ [field]: [a] }), "version"],
      ["version 0", () => ({ version: 0, [field]: [a] }), "version"],
      ["a wrong prefix", () => ({ version: 1, [field]: [k.bad] }), field],
      ["an empty add", () => ({ version: 1, [field]: [] }), field],
      ["an unknown id", () => ({ version: 1, [field]: [a.replace(/\d+$/, "zzzzzzzzzz")] }), field],
    ])("add with %s is 400 naming the field", async (_what, body, name) => {
      const t = await withIds();
      const res = await act(t.id, "add", body());
      // an unknown id is a repository error on the real releases
      if (_what === "an unknown id" && r.errors === "boundary") expect([res.status, res.body.kind]).toEqual(m.mistake);
      else {
        expect(res.status).toBe(400);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field
        expect(res.body.details.request_fields.map((f: any) => f.name)).toContain(name);
        // Boundary's validators' words (the same from v0.4.0 to v0.21.3)
        if (r.errors === "boundary") expect(res.body.message).toBe("Errors in provided fields.");
        if (r.errors === "boundary" && name === "version")
          expect(res.body.details.request_fields).toContainEqual({ name: "version", description: "Required field." });
      }
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(1);
    });

    if (k.list === "applicationCredentialLibraryIds")
      test(`a set naming a credential source that does not exist is ${r.errors === "ours" ? "400" : "taken without it, as Boundary's set query drops it"}`, async () => {
        const t = await withIds();
        const unknown = a.replace(/\d+$/, "zzzzzzzzzz");
        const res = await act(t.id, "set", { version: 1, [field]: [unknown] });
        if (r.errors === "ours") {
          expect(res.status).toBe(400);
          return;
        }
        // internal/target/query.go setChangesQuery selects the ids it finds: nothing changes, the version stays
        expect(res.status).toBe(200);
        expect(res.body).not.toHaveProperty(field);
        expect(res.body.version).toBe(1);
        const mixed = await act(t.id, "set", { version: 1, [field]: [unknown, a] });
        expect(mixed.body).toMatchObject({ [field]: [a], version: 2 });
      });

    test(`an unknown key in the body: ${r.unknownKeys === "named" ? "400 naming it" : "discarded"}`, async () => {
      const t = await withIds();
      const res = await act(t.id, "add", { version: 1, [field]: [a], extra: true });
      expect(res.status).toBe(r.unknownKeys === "named" ? 400 : 200);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field
      if (r.unknownKeys === "named") expect(res.body.details.request_fields.map((f: any) => f.name)).toContain("extra");
      else expect(res.body[field]).toEqual([a]);
    });

    test(`adding an attached id or removing an unattached one is ${m.mistake.join(" ")} naming the id (or the database's constraint)`, async () => {
      const t = await withIds([a]);
      const again = await act(t.id, "add", { version: 2, [field]: [a] });
      expect([again.status, again.body.kind]).toEqual(m.mistake);
      const notThere = await act(t.id, "remove", { version: 2, [field]: [b] });
      expect([notThere.status, notThere.body.kind]).toEqual(m.mistake);
      if (r.errors === "ours") {
        expect(again.body.details.request_fields).toEqual([{ name: field, description: `${a} is already attached to the target.` }]);
        expect(notThere.body.details.request_fields).toEqual([{ name: field, description: `${b} is not attached to the target.` }]);
      } else {
        // the release's handler words over the repository's error (0.12+ add host sources: fixed words)
        const fixed = k.list === "hostSetIds" && "fixed" in r.actionErrors.handler.host.add;
        if (fixed) expect(again.body.message).toBe("Failed to add target host sources");
        // v0.4.0 answers the database's primary key, naming no id (observed-words.test.ts has the whole message)
        else if (k.list === "hostSetIds" && r.hostSetConstraints) expect(again.body.message).toContain('unique constraint "target_host_set_pkey"');
        // 0.10+ answers the credential table's primary key (credential-words.test.ts has the whole message)
        else if (k.list !== "hostSetIds" && r.credentialSourceConstraints)
          expect(again.body.message).toContain('unique constraint "target_credential_library_pkey"');
        else expect(again.body.message).toContain(a);
        expect(notThere.body.message).toMatch(/deleted 0 did not match request for 1: search issue: error #1101\.$/);
      }
    });

    // up to 0.10 the database's trigger never compares the host set's project (migration 0/40; fixed by 44/03 in 0.11)
    const anyProject = k.list === "hostSetIds" && r.hostSetsAnyProject;
    test(`an id from another project is ${anyProject ? "taken" : m.mistake.join(" ")}${anyProject ? ", as v0.4.0's trigger lets it" : ", naming it where the release's words carry the repository's error"}`, async () => {
      const t = await withIds();
      const res = await act(t.id, "set", { version: 1, [field]: [other] });
      if (anyProject) {
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ [field]: [other], version: 2 });
        expect((await act(t.id, "add", { version: 2, [field]: [a] })).body[field]).toEqual(inOrder([other, a]));
        return;
      }
      expect([res.status, res.body.kind]).toEqual(m.mistake);
      // 0.12+ word a failed :set-host-sources without the repository's error
      if (k.list === "hostSetIds" && "fixed" in r.actionErrors.handler.host.set)
        expect(res.body).toEqual({ kind: "Internal", message: "Failed to set target host sources" });
      // 0.10+ the database's foreign key refuses a credential of another project, naming no id (credential-words.test.ts)
      else if (k.list !== "hostSetIds" && r.credentialSourceConstraints && r.errors === "boundary")
        expect(res.body.message).toMatch(/db\.CreateItems: insert or update on table "target_\w+" violates foreign key constraint/);
      else expect(JSON.stringify(res.body)).toContain(other);
    });

    test("the body's id must match the path (a release's gateway sets it to the path's); an unknown target is 404", async () => {
      const t = await withIds();
      const mismatch = await act(t.id, "set", { id: "ttcp_zzzzzzzzzz", version: 1, [field]: [a] });
      if (r.bodyDecoding === "gateway") expect([mismatch.status, mismatch.body.id]).toEqual([200, t.id]);
      else {
        expect(mismatch.status).toBe(400);
        expect((await act(t.id, "set", { id: t.id, version: 1, [field]: [a] })).status).toBe(200);
      }
      expect((await act("ttcp_zzzzzzzzzz", "set", { version: 1, [field]: [a] })).status).toBe(404);
    });

    test("changing one list never touches the other", async () => {
      const [hs, cl] = [m.hosts.field, m.creds.field];
      const t = await withIds();
      await c.call("POST", `/v1/targets/${t.id}:set-${m.hosts.noun}`, { version: 1, [hs]: ["hsst_1234567890"] });
      const both = (await c.call("POST", `/v1/targets/${t.id}:set-${m.creds.noun}`, { version: 2, [cl]: ["clvlt_1234567890"] })).body;
      const res = await act(t.id, "set", { version: 3, [field]: [b] });
      const otherField = field === hs ? cl : hs;
      expect(res.body[otherField]).toEqual(both[otherField]);
    });
  });
});
