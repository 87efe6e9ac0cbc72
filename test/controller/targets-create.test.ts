/**
 * Create: every rule of the spec and the wire facts for a new Target, over real HTTP, against every
 * release of the matrix (`helpers/releases.ts`). Where releases answer differently, the release
 * table's row says how each does; rules only some releases have live in emulate-0.4.test.ts,
 * emulate-0.21.test.ts and current-fields.test.ts. Read, update and delete:
 * targets-read-update-delete.test.ts; what Boundary does where the spec is silent: targets-boundary-facts.test.ts.
 */
import { UNIQUENESS } from "../../controller/dialect";
import { requires } from "../../wire/releases";
import { OTHER_PROJECT, PROJECT, startTestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";
import { createBody as body, fieldsOf, useTargetSuite } from "../helpers/targets";

describe.each(MATRIX)("--emulate %s", (mode) => {
  const { m, r, namesUnknownKeys, c, create } = useTargetSuite(mode);

  describe("create", () => {
    test("returns 200 with every field of the Target, version 1 and Boundary's defaults", async () => {
      const res = await c.call("POST", "/v1/targets", body({ name: "web", description: "d" }));
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const t = res.body;
      expect(t.id).toMatch(/^ttcp_[0-9A-Za-z]{10}$/);
      expect(t).toMatchObject({
        scope_id: PROJECT,
        scope: { id: PROJECT, type: "project", name: "Generated project scope", parent_scope_id: "o_1234567890" },
        name: "web",
        description: "d",
        version: 1,
        type: "tcp",
        session_max_seconds: 28800,
        session_connection_limit: m.connectionLimit, // Boundary v0.4's default is 1 (-1 came in 0.9.1)
        attributes: { default_port: 22 },
      });
      expect(t.created_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
      expect(t.updated_time).toBe(t.created_time);
      expect(t.authorized_actions).toEqual(r.actions);
      // zero values are omitted, as on a real controller (0.12+ always send the address)
      for (const name of m.hosts.answers) expect(t).not.toHaveProperty(name);
      expect(t).not.toHaveProperty(m.filter);
      if (r.addressAlways) expect(t.address).toBe("");
      else expect(t).not.toHaveProperty("address");
    });

    test(`${r.createAppliesLists ? "applies" : "ignores, as Boundary does,"} host_set_ids and application_credential_library_ids${r.createAppliesLists ? ", in the order given, with summaries" : ""}`, async () => {
      const lists = { host_set_ids: ["hsst_1234567891", "hsst_1234567890", "hsst_1234567891"], application_credential_library_ids: ["clvlt_1234567890"] };
      const t = (await c.call("POST", "/v1/targets", body({ name: "with-lists", ...lists }))).body;
      if (!r.createAppliesLists) {
        for (const k of ["host_set_ids", "host_source_ids", "application_credential_library_ids", "brokered_credential_source_ids"])
          expect(t).not.toHaveProperty(k);
        return;
      }
      // in the order given, once each, as Boundary answers the ids in the order they were attached
      expect(t.host_set_ids).toEqual(["hsst_1234567891", "hsst_1234567890"]);
      expect(t.host_sets).toEqual([
        { id: "hsst_1234567891", host_catalog_id: "hcst_1234567890" },
        { id: "hsst_1234567890", host_catalog_id: "hcst_1234567890" },
      ]);
      expect(t.application_credential_libraries).toEqual([{ id: "clvlt_1234567890", credential_store_id: "csvlt_1234567890" }]);
      expect(t.version).toBe(1);
    });

    const ALL = MATRIX;
    /** The releases that refuse a port above 65535: ours, and Boundary from 0.13 (a uint32 before). */
    const BOUNDED = MATRIX.filter((k) => facts(k).r.errors === "ours" || facts(k).r.ports.aboveMax !== undefined);
    /** Where the spec's controller and Boundary name a field differently. */
    const byRule = <T>(ours: T, boundary: T): T => (namesUnknownKeys ? ours : boundary);
    test.each(
      (
        [
          ["missing scope_id", { name: "a", type: "tcp", attributes: { default_port: 22 } }, ["scope_id"], ALL],
          ["org scope", { scope_id: "o_1234567890", name: "a", type: "tcp", attributes: { default_port: 22 } }, ["scope_id"], ALL],
          ["missing name", { scope_id: PROJECT, type: "tcp", attributes: { default_port: 22 } }, ["name"], ALL],
          ["blank name", { scope_id: PROJECT, name: "  ", type: "tcp", attributes: { default_port: 22 } }, ["name"], ALL],
          ["non-printable name", { scope_id: PROJECT, name: "a\u0007", type: "tcp", attributes: { default_port: 22 } }, ["name"], ALL],
          ["missing type", { scope_id: PROJECT, name: "a", attributes: { default_port: 22 } }, ["type"], ALL],
          ["unknown type", { scope_id: PROJECT, name: "a", type: "ssh", attributes: { default_port: 22 } }, ["type"], ALL],
          [
            "session_max_seconds 0",
            { scope_id: PROJECT, name: "a", type: "tcp", session_max_seconds: 0, attributes: { default_port: 22 } },
            ["session_max_seconds"],
            ALL,
          ],
          [
            "session_connection_limit 0",
            { scope_id: PROJECT, name: "a", type: "tcp", session_connection_limit: 0, attributes: { default_port: 22 } },
            ["session_connection_limit"],
            ALL,
          ],
          [
            "session_connection_limit -2",
            { scope_id: PROJECT, name: "a", type: "tcp", session_connection_limit: -2, attributes: { default_port: 22 } },
            ["session_connection_limit"],
            ALL,
          ],
          ["default_port 0", { scope_id: PROJECT, name: "a", type: "tcp", attributes: { default_port: 0 } }, ["attributes.default_port"], ALL],
          ["default_port 70000", { scope_id: PROJECT, name: "a", type: "tcp", attributes: { default_port: 70000 } }, ["attributes.default_port"], BOUNDED],
          // Boundary decodes attributes strictly and names only `attributes` (the subtypes' attribute interceptor)
          [
            "unknown attribute",
            { scope_id: PROJECT, name: "a", type: "tcp", attributes: { port: 1, default_port: 22 } },
            byRule(["attributes.port"], ["attributes"]),
            ALL,
          ],
          [
            "worker_filter that does not parse",
            { scope_id: PROJECT, name: "a", type: "tcp", worker_filter: '"dev" in', attributes: { default_port: 22 } },
            ["worker_filter"],
            ALL,
          ],
          // Boundary names the three its verifiers check and discards the other output fields
          [
            "read-only fields",
            {
              scope_id: PROJECT,
              name: "a",
              type: "tcp",
              id: "ttcp_1234567890",
              // a time protojson can read (one it cannot is the gateway's 500: body-decoding.test.ts)
              created_time: "2020-01-01T00:00:00Z",
              updated_time: "2020-01-01T00:00:00Z",
              authorized_actions: [],
              attributes: { default_port: 22 },
            },
            byRule(["authorized_actions", "created_time", "id", "updated_time"], ["created_time", "id", "updated_time"]),
            ALL,
          ],
          ["non-zero version", { scope_id: PROJECT, name: "a", type: "tcp", version: 3, attributes: { default_port: 22 } }, ["version"], ALL],
          [
            "unknown keys",
            { scope_id: PROJECT, name: "a", type: "tcp", colour: "red", size: 1, attributes: { default_port: 22 } },
            ["colour", "size"],
            ["spec"],
          ],
          ["a name with a tab inside", { scope_id: PROJECT, name: "a\tb", type: "tcp", attributes: { default_port: 22 } }, ["name"], ALL],
          ["a name with a zero-width space", { scope_id: PROJECT, name: "a\u200bb", type: "tcp", attributes: { default_port: 22 } }, ["name"], ALL],
          ["a name with a bidi override", { scope_id: PROJECT, name: "a\u202eb", type: "tcp", attributes: { default_port: 22 } }, ["name"], ALL],
          ["a name with a no-break space", { scope_id: PROJECT, name: "a\u00a0b", type: "tcp", attributes: { default_port: 22 } }, ["name"], ALL],
          ["a name with a C1 control", { scope_id: PROJECT, name: "a\u0085b", type: "tcp", attributes: { default_port: 22 } }, ["name"], ALL],
          // a release's gateway refuses a wrong JSON type before any rule, with a 500 (body-decoding.test.ts)
          [
            "wrong JSON types",
            { scope_id: 7, name: ["a"], type: "tcp", session_max_seconds: "10", attributes: { default_port: 22 } },
            ["name", "scope_id", "session_max_seconds"],
            ["spec"],
          ],
          [
            "fractional number",
            { scope_id: PROJECT, name: "a", type: "tcp", session_max_seconds: 1.5, attributes: { default_port: 22 } },
            ["session_max_seconds"],
            ["spec"],
          ],
          [
            "host set id without prefix",
            { scope_id: PROJECT, name: "a", type: "tcp", host_set_ids: ["hs_1"], attributes: { default_port: 22 } },
            ["host_set_ids"],
            ["spec"],
          ],
          [
            "unknown host set",
            { scope_id: PROJECT, name: "a", type: "tcp", host_set_ids: ["hsst_zzzzzzzzzz"], attributes: { default_port: 22 } },
            ["host_set_ids"],
            ["spec"],
          ],
          [
            "host set of another project",
            { scope_id: PROJECT, name: "a", type: "tcp", host_set_ids: ["hsst_0987654321"], attributes: { default_port: 22 } },
            ["host_set_ids"],
            ["spec"],
          ],
          [
            "credential library without prefix",
            { scope_id: PROJECT, name: "a", type: "tcp", application_credential_library_ids: ["cl_1"], attributes: { default_port: 22 } },
            ["application_credential_library_ids"],
            ["spec"],
          ],
          // rows whose rule is not this release's are left out (lists ignored on create; unknown keys discarded)
        ] as [string, object, string[], readonly string[]][]
      ).filter(([, , , modes]) => modes.includes(mode)),
    )("rejects %s with 400 naming the field", async (_what, body, fields) => {
      const before = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`);
      const res = await c.call("POST", "/v1/targets", body);
      expect(res.status).toBe(400);
      expect(res.body.kind).toBe("InvalidArgument");
      expect(fieldsOf(res.body)).toEqual(fields);
      for (const f of res.body.details.request_fields) expect(f.description).toEqual(expect.any(String));
      const after = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`);
      expect(after.body.items).toEqual(before.body.items);
    });

    test("one 400 names every offending field at once: decode errors and rule errors together (a release's gateway: its 500 first)", async () => {
      const res = await c.call("POST", "/v1/targets", { id: "ttcp_1234567890", scope_id: 7, name: "", type: "ssh", colour: 1, session_max_seconds: 0 });
      if (r.bodyDecoding === "gateway") {
        expect([res.status, res.body.message]).toEqual([
          500,
          expect.stringMatching(/^rpc error: code = InvalidArgument desc = proto: \(line 1:36\): invalid value for string (type|field scope_id): 7$/),
        ]);
        return;
      }
      expect(res.status).toBe(400);
      // sorted by field name, as Boundary reports them; a release discards the unknown key, 0.9+ require a port
      expect(res.body.details.request_fields).toEqual([
        ...(requires(r, "defaultPort") ? [{ name: "attributes.default_port", description: "This field is required." }] : []),
        ...(namesUnknownKeys ? [{ name: "colour", description: "Unknown field." }] : []),
        { name: "id", description: "This is a read only field." },
        { name: "name", description: "This field is required." },
        { name: "scope_id", description: "Invalid input: expected string, received number" },
        { name: "session_max_seconds", description: "This must be greater than zero and at most 2147483647." },
        { name: "type", description: "Unknown type provided." },
      ]);
      const t = await create();
      const patch = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, name: 5, session_connection_limit: 0, description: "ok" });
      expect(patch.status).toBe(400);
      expect(fieldsOf(patch.body)).toEqual(["name", "session_connection_limit"]);
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body).toEqual(t);
    });

    test("an unknown project is 404", async () => {
      const res = await c.call("POST", "/v1/targets", body({ scope_id: "p_zzzzzzzzzz" }));
      expect(res.status).toBe(404);
      // Boundary's scope lookup answers its generic 404; ours names the scope
      expect(res.body).toEqual({ kind: "NotFound", message: r.errors === "ours" ? 'Scope "p_zzzzzzzzzz" not found.' : "Resource not found." });
    });

    test("names are unique per project, case-sensitive, and free in another project", async () => {
      await create({ name: "unique-name" });
      const dup = await c.call("POST", "/v1/targets", body({ name: "unique-name" }));
      expect(dup.status).toBe(400);
      // Boundary: the database's unique constraint, in handlers/errors.go's words and naming no field
      if (r.errors === "ours") expect(fieldsOf(dup.body)).toEqual(["name"]);
      else expect(dup.body).toEqual({ kind: "InvalidArgument", message: UNIQUENESS });
      expect((await c.call("POST", "/v1/targets", body({ name: "Unique-Name" }))).status).toBe(200);
      expect((await c.call("POST", "/v1/targets", body({ scope_id: OTHER_PROJECT, name: "unique-name" }))).status).toBe(200);
    });

    test("malformed JSON, a non-object body and a body over 1 MiB are client errors (a release's gateway: its 500s, and no size limit)", async () => {
      if (r.bodyDecoding === "gateway") {
        for (const text of ["{not json", "[1,2]", "null"]) expect((await c.call("POST", "/v1/targets", text)).status).toBe(500);
        return;
      }
      const bad = await c.call("POST", "/v1/targets", "{not json");
      expect(bad.status).toBe(400);
      expect(bad.body.kind).toBe("InvalidArgument");
      expect(bad.body.message).toMatch(/^Malformed JSON body/);
      expect((await c.call("POST", "/v1/targets", "[1,2]")).status).toBe(400);
      expect((await c.call("POST", "/v1/targets", "null")).status).toBe(400);
      const huge = await c.call("POST", "/v1/targets", JSON.stringify(body({ name: "x".repeat(1024 * 1024) })));
      expect(huge.status).toBe(413);
      expect(huge.body.kind).toBe("PayloadTooLarge");
    });
  });
});

test("the spec's controller with --ignore-create-associations ignores the lists on create, as Boundary v0.4 does", async () => {
  const legacy = await startTestController({ ignoreCreateAssociations: true });
  try {
    const t = (await legacy.call("POST", "/v1/targets", body({ host_set_ids: ["hsst_1234567890"], application_credential_library_ids: ["clvlt_1234567890"] })))
      .body;
    expect(t).not.toHaveProperty("host_set_ids");
    expect(t).not.toHaveProperty("application_credential_library_ids");
  } finally {
    await legacy.shutdown();
  }
});
