/**
 * What Boundary does where the spec is silent (the wire facts), for create and update alike, against
 * every release of the matrix: names and descriptions trimmed, an empty description refused, the
 * connection limit's default, which characters a description may hold, and request fields sorted.
 */
import { descriptionProblem } from "../../common/rules";
import { PROJECT } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";
import { createBody as body, fieldsOf, useTargetSuite } from "../helpers/targets";

describe.each(MATRIX)("--emulate %s", (mode) => {
  const { m, r, c, create } = useTargetSuite(mode);

  describe("Boundary's facts where the spec is silent", () => {
    test("name and description are stored trimmed; only white space is a 400", async () => {
      const t = await create({ name: "  padded name\t", description: " described " });
      expect(t).toMatchObject({ name: "padded name", description: "described" });
      const blank = await c.call("POST", "/v1/targets", body({ name: "   " }));
      expect(blank.body.details.request_fields).toEqual([{ name: "name", description: "This field is required." }]);
      const renamed = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, name: " renamed " });
      expect(renamed.body.name).toBe("renamed");
    });

    test('description "" is a 400 on create and update ("Cannot set empty string as description"); null clears it', async () => {
      const created = await c.call("POST", "/v1/targets", body({ name: "empty-description", description: "" }));
      expect(created.status).toBe(400);
      expect(created.body.details.request_fields).toEqual([{ name: "description", description: "Cannot set empty string as description" }]);
      const t = await create({ description: "d" });
      const patched = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, description: "" });
      expect(patched.status).toBe(400);
      expect(patched.body.details.request_fields).toEqual([{ name: "description", description: "Cannot set empty string as description" }]);
      const cleared = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=description`, { version: 1, description: null });
      expect(cleared.body).not.toHaveProperty("description");
    });

    test(`session_connection_limit defaults to ${m.connectionLimit}, on create and on a masked reset (1 until Boundary 0.9.1)`, async () => {
      const t = await create({ session_connection_limit: 5 });
      expect((await create()).session_connection_limit).toBe(m.connectionLimit);
      const reset = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=session_connection_limit`, { version: 1 });
      expect(reset.body.session_connection_limit).toBe(m.connectionLimit);
    });

    test(`a description with a new line or a tab is ${descriptionProblem("a\nb", r.descriptions) ? "refused (unicode.IsPrint, before 0.17)" : "kept (IsPrint or IsSpace, 0.17+)"}; other control characters never`, async () => {
      const multi = await c.call("POST", "/v1/targets", body({ name: "multi-line", description: "first line\n\tsecond line" }));
      if (r.descriptions === "print-or-space") expect([multi.status, multi.body.description]).toEqual([200, "first line\n\tsecond line"]);
      else
        expect([multi.status, multi.body.details?.request_fields]).toEqual([
          400,
          [{ name: "description", description: "Description contains unprintable characters" }],
        ]);
      const bell = await c.call("POST", "/v1/targets", body({ name: "bell", description: "ring \u0007" }));
      expect(fieldsOf(bell.body)).toEqual(["description"]);
    });

    test("request fields are sorted by name", async () => {
      const res = await c.call("POST", "/v1/targets", { type: "ssh", session_max_seconds: 0, scope_id: PROJECT, name: "", attributes: { default_port: 22 } });
      expect(res.body.details.request_fields.map((f: { name: string }) => f.name)).toEqual(["name", "session_max_seconds", "type"]);
    });
  });
});
