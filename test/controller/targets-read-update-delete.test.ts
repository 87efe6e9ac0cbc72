/**
 * Read, update (PATCH) and delete of a Target: every rule of the spec and the wire facts, over real
 * HTTP, against every release of the matrix (`helpers/releases.ts`); the release table's row says
 * how each release answers where they differ. Create: targets-create.test.ts.
 */
import { UNIQUENESS } from "../../controller/dialect";
import { requires } from "../../wire/releases";
import { ADMIN_TOKEN, OTHER_PROJECT, PROJECT } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";
import { createBody as body, fieldsOf, useTargetSuite } from "../helpers/targets";

describe.each(MATRIX)("--emulate %s", (mode) => {
  const { m, r, namesUnknownKeys, c, create } = useTargetSuite(mode);

  describe("read and delete", () => {
    test("GET returns what create returned", async () => {
      const t = await create({ description: "read me" });
      const res = await c.call("GET", `/v1/targets/${t.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(t);
    });

    test("an id of another kind, or with characters other than letters, digits and _, is 400; an unknown one 404", async () => {
      for (const id of ["hsst_1234567890", "ttcp_12345-67890", "ttcp_1234567890.x"]) {
        const bad = await c.call("GET", `/v1/targets/${id}`);
        expect(bad.status).toBe(400);
        expect(bad.body.details.request_fields).toEqual([
          { name: "id", description: namesUnknownKeys ? expect.stringMatching(/^Incorrectly formatted identifier/) : "Invalid formatted identifier." },
        ]);
      }
      // without _ it is an alias value from 0.16 (unknown here: 404), a malformed id before
      expect((await c.call("GET", "/v1/targets/xyz")).status).toBe(r.aliases ? 404 : 400);
      expect(await c.call("GET", "/v1/targets/ttcp_zzzzzzzzzz")).toMatchObject({ status: 404, body: { kind: "NotFound", message: "Resource not found." } });
      expect((await c.call("DELETE", "/v1/targets/ttcp_zzzzzzzzzz")).status).toBe(404);
    });

    test("DELETE answers 204 with an empty body, frees the name, and the target is gone", async () => {
      const t = await create({ name: "to-delete" });
      const res = await c.call("DELETE", `/v1/targets/${t.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      expect((await c.call("GET", `/v1/targets/${t.id}`)).status).toBe(404);
      expect((await c.call("POST", "/v1/targets", body({ name: "to-delete" }))).status).toBe(200);
    });

    test("unknown routes are 404 (the gateway's own 500 before the rate limiter: unknown-paths.test.ts) and wrong methods 405", async () => {
      expect((await c.call("GET", "/v1/hosts")).status).toBe(m.r.routing === "gateway" ? 500 : 404);
      expect((await c.call("PUT", "/v1/targets")).status).toBe(405);
      // a release's gateway gives a GET of an action path to the read route (400 on id), unless its rate limiter refuses the action
      expect((await c.call("GET", "/v1/targets/ttcp_1234567890:set-host-sets")).status).toBe(m.r.routing === "gateway" ? 400 : 405);
      expect((await c.call("POST", "/v1/targets/ttcp_1234567890")).status).toBe(405);
      expect((await c.call("GET", "/v1/targets/%E0%A4%A")).status).toBe(400);
    });
  });

  describe("update (PATCH)", () => {
    test("changes only masked fields, adds exactly 1 to version and moves updated_time", async () => {
      const t = await create({ description: "old", [m.filter]: '"dev" in "/tags/type"' });
      const res = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=description`, { version: 1, description: "new", name: "ignored-not-in-mask" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: 2, description: "new", name: t.name, [m.filter]: t[m.filter] });
      expect(res.body.updated_time >= t.updated_time).toBe(true);
    });

    test("without update_mask the mask is the body's keys", async () => {
      const t = await create();
      const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, session_max_seconds: 60, attributes: { default_port: 2222 } });
      expect(res.body).toMatchObject({ version: 2, session_max_seconds: 60, attributes: { default_port: 2222 }, session_connection_limit: m.connectionLimit });
    });

    test("masked fields sent as null or left out are cleared or reset to defaults", async () => {
      const t = await create({
        description: "d",
        [m.filter]: '"dev" in "/tags/type"',
        session_max_seconds: 60,
        session_connection_limit: 5,
        attributes: { default_port: 22 },
      });
      const res = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=description,${m.filter},session_max_seconds,session_connection_limit`, {
        version: 1,
        description: null,
      });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty("description");
      expect(res.body).not.toHaveProperty(m.filter);
      expect(res.body).toMatchObject({ session_max_seconds: 28800, session_connection_limit: m.connectionLimit, version: 2 });
      // the default port: cleared by v0.4; required from 0.9.0
      const port = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=attributes.default_port`, { version: 2 });
      if (requires(r, "defaultPort"))
        expect([port.status, port.body.details.request_fields]).toEqual([400, [{ name: "attributes.default_port", description: "This field is required." }]]);
      else expect([port.status, port.body.attributes]).toEqual([200, {}]);
    });

    test("clearing the name is refused", async () => {
      const t = await create();
      const res = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=name`, { version: 1 });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(["name"]);
    });

    test(`a stale version is ${m.stale.update.join(" ")}, and changes nothing`, async () => {
      const t = await create();
      await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, description: "first" });
      const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, description: "second" });
      expect([res.status, res.body.kind]).toEqual(m.stale.update);
      // ours names both versions; Boundary's answer is the NotFound it gives for a missing Target
      expect(res.body).toEqual(
        r.errors === "ours"
          ? {
              kind: "Aborted",
              message: `Version mismatch: target ${t.id} is at version 2, but the request carried version 1.`,
              details: { request_fields: [{ name: "version", description: "The current version is 2." }] },
            }
          : { kind: "NotFound", message: `Target "${t.id}" not found or incorrect version provided.` },
      );
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body).toMatchObject({ version: 2, description: "first" });
    });

    test("a missing version, or version 0, is 400 naming version", async () => {
      const t = await create();
      for (const sent of [{ description: "x" }, { version: 0, description: "x" }]) {
        const res = await c.call("PATCH", `/v1/targets/${t.id}`, sent);
        expect(res.status).toBe(400);
        expect(res.body.details.request_fields).toEqual([
          {
            name: "version",
            description: namesUnknownKeys
              ? "This field is required: it must be the target's current version."
              : "Existing resource version is required for an update.",
          },
        ]);
      }
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(1);
    });

    test("type and scope_id cannot change; host sets change through the actions only", async () => {
      const t = await create();
      const moved = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, scope_id: OTHER_PROJECT, type: "ssh" });
      expect(moved.status).toBe(400);
      // Boundary's mask manager drops scope_id; from 0.8 its validator refuses another type, before it a PATCH's type is never read
      const typeRefused = r.errors === "ours" ? ["scope_id", "type"] : r.ports.vetsUpdate ? ["type"] : ["update_mask"];
      expect(fieldsOf(moved.body)).toEqual(typeRefused);
      if (r.errors === "boundary" && r.ports.vetsUpdate) expect(moved.body.details.request_fields[0].description).toBe("Cannot modify the resource type.");
      const masked = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=type`, { version: 1 });
      expect(fieldsOf(masked.body)).toEqual([r.errors === "ours" ? "type" : "update_mask"]);
      // Boundary's mask cannot name a list (only actions change it): nothing is left to update; ours says why
      const lists = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, [m.hosts.field]: ["hsst_1234567890"] });
      expect(fieldsOf(lists.body)).toEqual([namesUnknownKeys ? "host_set_ids" : "update_mask"]);
      // the same value is harmless (a client that echoes the whole target)
      const same = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, scope_id: PROJECT, type: "tcp", name: "renamed-" + t.name });
      expect(same.status).toBe(200);
    });

    test("an unknown mask path is 400; a mask with nothing updatable is 400", async () => {
      const t = await create();
      const unknown = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=colour`, { version: 1 });
      expect(unknown.status).toBe(400);
      expect(fieldsOf(unknown.body)).toEqual(["update_mask"]);
      const empty = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1 });
      // TS updateInRepo's words, v0.4.0 to v0.21.3
      expect(empty.body).toEqual({
        kind: "InvalidArgument",
        message: "No valid fields included in the update mask.",
        details: { request_fields: [{ name: "update_mask", description: "No valid paths provided in the update mask." }] },
      });
    });

    test("renaming onto a taken name is 400 and keeps the version", async () => {
      const a = await create();
      const b = await create();
      const res = await c.call("PATCH", `/v1/targets/${b.id}`, { version: 1, name: a.name });
      expect(res.status).toBe(400);
      if (r.errors === "ours") expect(fieldsOf(res.body)).toEqual(["name"]);
      else expect(res.body).toEqual({ kind: "InvalidArgument", message: UNIQUENESS });
      expect((await c.call("GET", `/v1/targets/${b.id}`)).body.version).toBe(1);
    });

    test("the token never appears in any response", async () => {
      const t = await create();
      const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 9, description: "x" });
      expect(res.text).not.toContain(ADMIN_TOKEN);
    });
  });
});
