/**
 * add/remove/set of host sets and credential libraries: versions, prefixes, membership, order, in
 * every mode: the spec's controller, `--emulate 0.4` and `--emulate 0.21` (whose actions and fields
 * have the current names). Where the releases answer differently, the row says how each does.
 */
import { defaultFixtures, type Emulation } from "../../controller";
import { OTHER_PROJECT, startTestController, type TestController } from "../helpers/controller";

/** How each mode answers where they differ. */
const MODES = {
  spec: { current: false, stale: [409, "Aborted"], mistake: [400, "InvalidArgument"], unknownKey: 400 },
  "0.4": { current: false, stale: [500, "Internal"], mistake: [500, "Internal"], unknownKey: 400 },
  // current releases discard unknown keys (DiscardUnknown): see the trap in emulate-0.21.test.ts
  "0.21": { current: true, stale: [500, "Internal"], mistake: [500, "Internal"], unknownKey: 200 },
} as const satisfies Record<Emulation, unknown>;

const KINDS = [
  { what: "host-sets", now: "host-sources", field: "host_set_ids", currentField: "host_source_ids", summaries: "host_sets", currentSummaries: "host_sources", a: "hsst_1234567890", b: "hsst_1234567891", other: "hsst_0987654321", bad: "hx_1234567890" },
  {
    what: "credential-libraries", now: "credential-sources", field: "application_credential_library_ids", currentField: "brokered_credential_source_ids",
    summaries: "application_credential_libraries", currentSummaries: "brokered_credential_sources", a: "clvlt_1234567890", b: "clvlt_1234567891", other: "clvlt_0987654321", bad: "cl_1234567890",
  },
] as const;

describe.each(Object.keys(MODES) as Emulation[])("--emulate %s", (mode) => {
  const m = MODES[mode];
  let c: TestController;
  beforeAll(async () => {
    // the default seed plus a credential library in the second project, for the cross-project rule
    const fixtures = defaultFixtures();
    fixtures.credential_libraries.push({ ...fixtures.credential_libraries[0]!, id: "clvlt_0987654321", scope_id: OTHER_PROJECT });
    c = await startTestController({ fixtures, emulation: mode, rateLimits: "disabled" });
  });
  afterAll(() => c.shutdown());

  describe.each(KINDS)("$what", (k) => {
    const action = m.current ? k.now : k.what;
    const field = m.current ? k.currentField : k.field;
    const summaries = m.current ? k.currentSummaries : k.summaries;
    const { a, b, other } = k;
    const act = (id: string, op: string, body: unknown) => c.call("POST", `/v1/targets/${id}:${op}-${action}`, body);
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
      const t = await withIds([a]);
      const same = await act(t.id, "set", { version: 99, [field]: [a, a] });
      expect(same.status).toBe(200);
      expect(same.body.version).toBe(2);
      const cleared = await act(t.id, "set", { version: 2, [field]: null });
      expect(cleared.body.version).toBe(3);
      expect(cleared.body).not.toHaveProperty(field);
    });

    test(`a stale version is ${m.stale.join(" ")} and changes nothing`, async () => {
      const t = await withIds();
      const res = await act(t.id, "add", { version: 7, [field]: [a] });
      expect([res.status, res.body.kind]).toEqual(m.stale);
      if (mode === "spec") expect(res.body.message).toContain("is at version 1, but the request carried version 7");
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body).not.toHaveProperty(field);
    });

    test.each([
      ["a missing version", () => ({ [field]: [a] }), "version"],
      ["a wrong prefix", () => ({ version: 1, [field]: [k.bad] }), field],
      ["an empty add", () => ({ version: 1, [field]: [] }), field],
      ["an unknown id", () => ({ version: 1, [field]: [a.replace(/\d+$/, "zzzzzzzzzz")] }), field],
    ])("add with %s is 400 naming the field", async (_what, body, name) => {
      const t = await withIds();
      const res = await act(t.id, "add", body());
      // an unknown id is a repository error on the real releases
      if (_what === "an unknown id" && mode !== "spec") expect([res.status, res.body.kind]).toEqual(m.mistake);
      else {
        expect(res.status).toBe(400);
        expect(res.body.details.request_fields.map((f: any) => f.name)).toContain(name);
      }
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(1);
    });

    test(`an unknown key in the body: ${m.unknownKey === 400 ? "400 naming it" : "discarded"}`, async () => {
      const t = await withIds();
      const res = await act(t.id, "add", { version: 1, [field]: [a], extra: true });
      expect(res.status).toBe(m.unknownKey);
      if (m.unknownKey === 400) expect(res.body.details.request_fields.map((f: any) => f.name)).toContain("extra");
      else expect(res.body[field]).toEqual([a]);
    });

    test(`adding an attached id or removing an unattached one is ${m.mistake.join(" ")} naming the id`, async () => {
      const t = await withIds([a]);
      const again = await act(t.id, "add", { version: 2, [field]: [a] });
      expect([again.status, again.body.kind]).toEqual(m.mistake);
      const notThere = await act(t.id, "remove", { version: 2, [field]: [b] });
      expect([notThere.status, notThere.body.kind]).toEqual(m.mistake);
      if (mode === "spec") {
        expect(again.body.details.request_fields).toEqual([{ name: field, description: `${a} is already attached to the target.` }]);
        expect(notThere.body.details.request_fields).toEqual([{ name: field, description: `${b} is not attached to the target.` }]);
      } else {
        expect(again.body.message).toContain(a);
        expect(notThere.body.message).toContain(b);
      }
    });

    test(`an id from another project is ${m.mistake.join(" ")} naming it`, async () => {
      const t = await withIds();
      const res = await act(t.id, "set", { version: 1, [field]: [other] });
      expect([res.status, res.body.kind]).toEqual(m.mistake);
      expect(JSON.stringify(res.body)).toContain(other);
    });

    test("the body's id must match the path; an unknown target is 404", async () => {
      const t = await withIds();
      expect((await act(t.id, "set", { id: "ttcp_zzzzzzzzzz", version: 1, [field]: [a] })).status).toBe(400);
      expect((await act(t.id, "set", { id: t.id, version: 1, [field]: [a] })).status).toBe(200);
      expect((await act("ttcp_zzzzzzzzzz", "set", { version: 1, [field]: [a] })).status).toBe(404);
    });

    test("changing one list never touches the other", async () => {
      const [hs, cl] = m.current ? ["host_source_ids", "brokered_credential_source_ids"] : ["host_set_ids", "application_credential_library_ids"];
      const t = await withIds();
      await c.call("POST", `/v1/targets/${t.id}:set-${m.current ? "host-sources" : "host-sets"}`, { version: 1, [hs]: ["hsst_1234567890"] });
      const both = (await c.call("POST", `/v1/targets/${t.id}:set-${m.current ? "credential-sources" : "credential-libraries"}`, { version: 2, [cl]: ["clvlt_1234567890"] })).body;
      const res = await act(t.id, "set", { version: 3, [field]: [b] });
      const otherField = field === hs ? cl : hs;
      expect(res.body[otherField]).toEqual(both[otherField]);
    });
  });
});
