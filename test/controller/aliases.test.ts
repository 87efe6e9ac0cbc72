/**
 * Aliases (Boundary 0.16+, here `--emulate 0.21`): made by a create's `with_aliases`, shown in the
 * `aliases` field, their values naming the Target in every path; refused in Boundary's order and
 * words; declared in the fixtures; and absent before 0.16.
 */
import { defaultFixtures, parseFixtures } from "../../controller";
import { UNIQUENESS } from "../../controller/dialect";
import { PROJECT, startTestController, useTestController } from "../helpers/controller";

const c = useTestController({ emulation: "0.21" });

describe("aliases (0.16+)", () => {
  test("with_aliases on create makes them; the aliases field shows them; their values name the Target in every path", async () => {
    const res = await c.call("POST", "/v1/targets", {
      scope_id: PROJECT,
      name: "aliased",
      type: "tcp",
      attributes: { default_port: 22 },
      with_aliases: [{ value: "db.prod.example", scope_id: "global" }],
    });
    expect(res.status).toBe(200);
    const t = res.body;
    expect(t.aliases).toEqual([{ id: expect.stringMatching(/^alt_[0-9A-Za-z]{10}$/), value: "db.prod.example" }]);
    expect(t).not.toHaveProperty("with_aliases");
    // the value in place of the id, case-insensitively: read, update, the actions, authorize-session
    expect((await c.call("GET", "/v1/targets/DB.prod.example")).body.id).toBe(t.id);
    const patched = await c.call("PATCH", "/v1/targets/db.prod.example", { version: 1, description: "by alias" });
    expect(patched.body).toMatchObject({ id: t.id, version: 2, description: "by alias" });
    // TS UpdateTarget answers the repository's updated Target, which carries no aliases; a read does
    expect(patched.body).not.toHaveProperty("aliases");
    expect((await c.call("GET", `/v1/targets/${t.id}`)).body.aliases).toEqual(t.aliases);
    const acted = await c.act("db.prod.example", "set-host-sources", { version: 2, host_source_ids: ["hsst_1234567890"] });
    expect(acted.body).toMatchObject({ id: t.id, host_source_ids: ["hsst_1234567890"] });
    const session = await c.act("db.prod.example", "authorize-session", {});
    expect(session.body.target_id).toBe(t.id);
    // list items carry no aliases (the list query loads none)
    const listed = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent(`"/item/id" == "${t.id}"`)}`);
    expect(listed.body.items[0]).not.toHaveProperty("aliases");
    // deleted: the alias points nowhere, and names nothing
    expect((await c.call("DELETE", "/v1/targets/db.prod.example")).status).toBe(204);
    expect((await c.call("GET", "/v1/targets/db.prod.example")).status).toBe(404);
  });

  test("with_aliases in Boundary's order: the validator's fields, the aliases' scopes (403, or iam's 500), then the repository (500 for a value, 400 for a taken one); nothing is made", async () => {
    const t = await c.create({ name: "alias-rules" });
    const update = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, description: "x", with_aliases: [{ value: "late.example" }] });
    expect(update.body.details.request_fields).toEqual([{ name: "with_aliases", description: "This field can only be set at target creation time." }]);
    const before = c.store.size;
    const make = (name: string, aliases: object[]) =>
      c.call("POST", "/v1/targets", { scope_id: PROJECT, name, type: "tcp", attributes: { default_port: 22 }, with_aliases: aliases });
    expect((await make("first-alias", [{ value: "taken.example", scope_id: "global" }])).status).toBe(200);
    // TS validateCreateRequest: only value, scope_id and attributes
    const extra = await make("bad-alias", [{ value: "x.example", scope_id: "global", id: "alt_1234567890" }]);
    expect(extra.body.details.request_fields).toEqual([
      { name: "with_aliases", description: "Included aliases can only specify a value, a scope id, and attributes." },
    ]);
    // TS aliasCreateAuthResult, before the repository: a project is no scope for an alias, even with a value the repository would refuse
    expect((await make("bad-alias", [{ value: "under_score.example", scope_id: PROJECT }])).body).toEqual({ kind: "PermissionDenied", message: "Forbidden." });
    expect((await make("bad-alias", [{ value: "ok.example" }])).body).toEqual({
      kind: "Internal",
      message: "iam.(Repository).LookupScope: missing public id: parameter violation: error #100",
    });
    // internal/target/repository.go CreateTarget: the alias domain's check constraint, in the create's transaction
    const shape = await make("bad-alias", [{ value: "under_score.example", scope_id: "global" }]);
    expect(shape.status).toBe(500);
    expect(shape.body.message).toMatch(
      /^targets\.\(Service\)\.createInRepo: unable to create target: target\.\(Repository\)\.CreateTarget: failed for ttcp_[0-9A-Za-z]{10} target id: db\.DoTx: target\.\(Repository\)\.CreateTarget: unable to create target alias: db\.Create: wt_target_alias_value_shape constraint failed: check constraint violated: integrity violation: error #1000$/,
    );
    // a value taken, case-insensitively: handlers/errors.go's uniqueness 400, naming no field
    expect((await make("second-alias", [{ value: "TAKEN.example", scope_id: "global" }])).body).toEqual({ kind: "InvalidArgument", message: UNIQUENESS });
    expect(c.store.size).toBe(before + 1);
  });

  test("aliases declared in the fixtures: one pointing nowhere names nothing (404), and its value cannot be taken again", async () => {
    const fixtures = defaultFixtures();
    fixtures.aliases = [{ id: "alt_1234567890", value: "seeded.example", scope_id: "global" }];
    const seeded = await startTestController({ emulation: "0.21", fixtures });
    try {
      expect(await seeded.call("GET", "/v1/targets/seeded.example")).toMatchObject({ status: 404, body: { kind: "NotFound", message: "Resource not found." } });
      const res = await seeded.call("POST", "/v1/targets", {
        scope_id: PROJECT,
        name: "t",
        type: "tcp",
        attributes: { default_port: 22 },
        with_aliases: [{ value: "seeded.example", scope_id: "global" }],
      });
      expect(res.status).toBe(400);
      expect(() => parseFixtures({ ...fixtures, aliases: [{ id: "alt_1234567890", value: "bad_value" }] })).toThrow(
        /fixtures: aliases\.0\.value: "bad_value" must be a DNS name/,
      );
    } finally {
      await seeded.shutdown();
    }
  });

  test("before 0.16 there are no aliases: with_aliases is discarded and a segment without _ is a malformed id", async () => {
    const older = await startTestController({ emulation: "0.15" });
    try {
      const t = await older.call("POST", "/v1/targets", {
        scope_id: PROJECT,
        name: "t",
        type: "tcp",
        attributes: { default_port: 22 },
        with_aliases: [{ value: "db.example", scope_id: "global" }],
      });
      expect(t.status).toBe(200);
      expect(t.body).not.toHaveProperty("aliases");
      expect((await older.call("GET", "/v1/targets/db.example")).status).toBe(400);
    } finally {
      await older.shutdown();
    }
  });
});
