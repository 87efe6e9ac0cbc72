/**
 * Requests whose answers real servers gave in other words than the emulation did (the "Still
 * different" tables of boundary-v0.4.0, v0.12, v0.15.5 and v0.21.3-observed.md), each asserted whole:
 * status, kind, message and request fields, on every Boundary row of the matrix.
 */
import { knows, release, requires } from "../../wire/releases";
import { PROJECT, useTestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";

const invalid = (message: string, fields: Record<string, string>) => ({
  kind: "InvalidArgument",
  message,
  details: { request_fields: Object.entries(fields).map(([name, description]) => ({ name, description })) },
});
const READ_ONLY = "This is a read only field and cannot be specified in an update request.";

describe.each(MATRIX.filter((k) => release(k).errors === "boundary"))("--emulate %s", (mode) => {
  const r = release(mode);
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  const answer = async (method: string, path: string, body?: unknown) => {
    const res = await c.call(method, path, body);
    return [res.status, res.body];
  };

  test("create/session-max-seconds-0: the validator's own words", async () => {
    const body = { type: "tcp", scope_id: PROJECT, name: "x25", attributes: { default_port: 22 }, session_max_seconds: 0 };
    expect(await answer("POST", "/v1/targets", body)).toEqual([
      400,
      invalid("Error in provided request.", { session_max_seconds: "This must be greater than zero." }),
    ]);
  });

  test("update/id-in-body and update/created-time-in-body: the read-only field alone, no update_mask beside it", async () => {
    const t = await c.create({ name: "ro-fields" });
    expect(await answer("PATCH", `/v1/targets/${t.id}`, { id: "ttcp_1234567899", version: t.version })).toEqual([
      400,
      invalid("Error in provided request.", { id: READ_ONLY }),
    ]);
    expect(await answer("PATCH", `/v1/targets/${t.id}`, { created_time: "2020-01-01T00:00:00Z", version: t.version })).toEqual([
      400,
      invalid("Error in provided request.", { created_time: READ_ONLY }),
    ]);
  });

  if (r.aliases)
    test("update/with-aliases: only at creation, no update_mask beside it", async () => {
      const t = await c.create({ name: "alias-upd" });
      const body = { with_aliases: [{ value: "upd.example", scope_id: "global" }], version: t.version };
      expect(await answer("PATCH", `/v1/targets/${t.id}`, body)).toEqual([
        400,
        invalid("Error in provided request.", { with_aliases: "This field can only be set at target creation time." }),
      ]);
    });

  if (r.ports.vetsUpdate)
    test("update/bad-id: an id of no Target subtype names type too", async () => {
      expect(await answer("PATCH", "/v1/targets/bogus_id", { name: "x", version: 1 })).toEqual([
        400,
        invalid("Error in provided request.", { id: "Improperly formatted path identifier.", type: "Unknown type provided." }),
      ]);
    });

  if (requires(r, "defaultPort"))
    test("create/body-empty: no type, so no subtype's Vet asks for the port", async () => {
      const res = await c.call("POST", "/v1/targets", "");
      expect([res.status, res.body]).toEqual([
        400,
        invalid("Error in provided request.", {
          name: "This field is required.",
          scope_id: "This field is required to have a properly formatted project scope id.",
          type: "Unknown type provided.",
        }),
      ]);
    });

  if (knows(r, "egressWorkerFilter"))
    test("a tcp create without a port still names it", async () => {
      const res = await c.call("POST", "/v1/targets", { type: "tcp", scope_id: PROJECT, name: "no-port" });
      expect(res.body.details.request_fields).toEqual([{ name: "attributes.default_port", description: "This field is required." }]);
    });
});

describe.each(MATRIX.filter((k) => release(k).credentialSourceOrder === "collation"))("--emulate %s: credential source ids in the view's order", (mode) => {
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  const { creds } = facts(mode);

  test("cs/set-two: answered by id as the database's collation sorts them, whatever the order sent", async () => {
    const t = await c.create({ name: "cred-order" });
    const res = await c.act(t.id, `set-${creds.noun}`, { version: t.version, [creds.field]: ["credup_1234567890", "clvlt_1234567891", "clvlt_1234567890"] });
    expect(res.status).toBe(200);
    expect(res.body[creds.field]).toEqual(["clvlt_1234567890", "clvlt_1234567891", "credup_1234567890"]);
    expect((await c.call("GET", `/v1/targets/${t.id}`)).body[creds.field]).toEqual(["clvlt_1234567890", "clvlt_1234567891", "credup_1234567890"]);
  });

  test("the collation's order is the one the real servers answered (case after letter: b before R, digits before letters)", () => {
    const order = (ids: string[]) => [...ids].sort(new Intl.Collator("en-US").compare);
    expect(order(["credup_RECYVi3xmS", "credup_biBGCoehlj"])).toEqual(["credup_biBGCoehlj", "credup_RECYVi3xmS"]); // v0.12.2
    expect(order(["credup_ZX6NeDAE5y", "credup_WLQUua8RsR"])).toEqual(["credup_WLQUua8RsR", "credup_ZX6NeDAE5y"]); // v0.15.5
    expect(order(["credup_UtitFfVUaK", "credup_8mp7laQxZd"])).toEqual(["credup_8mp7laQxZd", "credup_UtitFfVUaK"]); // v0.21.3
  });
});

describe.each(MATRIX.filter((k) => release(k).errors === "boundary"))("--emulate %s: authorize-session by a name it cannot find", (mode) => {
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  test("as/by-name-unknown, as/by-name-wrong-scope, as/by-name-unknown-scope-name: authResult's generic 404", async () => {
    await c.create({ name: "basic", host_set_ids: ["hsst_1234567890"] });
    for (const [segment, body] of [
      ["nosuchname", { name: "nosuchname", scope_id: PROJECT }],
      ["basic", { name: "basic", scope_id: "p_0987654321" }],
      ["basic", { name: "basic", scope_name: "no such scope" }],
    ] as const) {
      const res = await c.call("POST", `/v1/targets/${segment}:authorize-session`, body);
      expect([res.status, res.body]).toEqual([404, { kind: "NotFound", message: "Resource not found." }]);
    }
  });
});

describe.each(MATRIX.filter((k) => release(k).hostSetConstraints && release(k).errors === "boundary"))(
  "--emulate %s: host sets the database refuses",
  (mode) => {
    const c = useTestController({ emulation: mode, rateLimits: "disabled" });
    const at = (op: "Add" | "Set") => `target.(Repository).${op}TargetHostSets`;
    const created = "unable to add target host sets: db.CreateItems: db.Create: create failed:";
    const pkey = 'duplicate key value violates unique constraint "target_host_set_pkey": unique constraint violation: integrity violation: error #1002.';
    const fkey =
      'insert or update on table "target_host_set" violates foreign key constraint "target_host_set_host_set_id_fkey": integrity violation: error #1003.';
    const internal = (message: string) => [500, { kind: "Internal", message }];

    test("hs/add-duplicate, hs/add-unknown, hs/set-unknown: the primary and foreign keys in the database's words", async () => {
      const t = await c.create({ host_set_ids: ["hsst_1234567890"] });
      const act = async (op: string, ids: string[]) => {
        const res = await c.act(t.id, `${op}-host-sets`, { version: t.version, host_set_ids: ids });
        return [res.status, res.body];
      };
      expect(await act("add", ["hsst_1234567890"])).toEqual(
        internal(`Unable to add host sets to target: ${at("Add")}: error creating sets: db.DoTx: ${at("Add")}: ${created} ${pkey}`),
      );
      expect(await act("add", ["hsst_0000000000"])).toEqual(
        internal(`Unable to add host sets to target: ${at("Add")}: error creating sets: db.DoTx: ${at("Add")}: ${created} ${fkey}`),
      );
      expect(await act("set", ["hsst_0000000000"])).toEqual(
        internal(`Unable to set host sets in target: ${at("Set")}: db.DoTx: ${at("Set")}: ${created} ${fkey}`),
      );
    });

    test("hs/add-id-in-body-mismatch: the gateway takes the path's id, so the body's other id changes nothing and the key refuses", async () => {
      const t = await c.create({ host_set_ids: ["hsst_1234567890"] });
      const res = await c.act(t.id, "add-host-sets", { id: "ttcp_1234567899", version: t.version, host_set_ids: ["hsst_1234567890"] });
      expect([res.status, res.body]).toEqual(
        internal(`Unable to add host sets to target: ${at("Add")}: error creating sets: db.DoTx: ${at("Add")}: ${created} ${pkey}`),
      );
    });
  },
);

describe.each(MATRIX.filter((k) => release(k).pagination && !release(k).listTokenScoped && release(k).errors === "boundary"))(
  "--emulate %s: a list token holds no scope",
  (mode) => {
    const c = useTestController({ emulation: mode, rateLimits: "disabled" });
    test("list/list-token-other-scope: a token of one project lists another (real v0.15.5: 200); one of another filter is still refused", async () => {
      await c.create({ name: "a" });
      await c.create({ name: "b" });
      const first = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&page_size=1`);
      const other = await c.call("GET", `/v1/targets?scope_id=p_0987654321&list_token=${first.body.list_token}`);
      expect(other.status).toBe(200);
      expect(other.body.items ?? []).toEqual([]);
      const filtered = await c.call(
        "GET",
        `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent('"/item/name" == "x"')}&list_token=${first.body.list_token}`,
      );
      expect(filtered.status).toBe(400);
    });
  },
);

describe.each(MATRIX.filter((k) => release(k).credentialSourcesLookedUp && release(k).errors === "boundary"))(
  "--emulate %s: credential sources looked up first",
  (mode) => {
    const c = useTestController({ emulation: mode, rateLimits: "disabled" });
    const { creds } = facts(mode);
    const at = "target.(Repository).AddTargetCredentialSources";

    test("cs/add-unknown: createSources' mismatch, before the version is looked at", async () => {
      const t = await c.create({ name: "cs-unknown" });
      for (const version of [t.version, t.version + 5]) {
        const res = await c.act(t.id, `add-${creds.noun}`, { version, [creds.field]: ["credup_0000000000", "clvlt_1234567890", "credup_0000000000"] });
        expect([res.status, res.body]).toEqual([
          500,
          {
            kind: "Internal",
            message: `Unable to add credential sources to target: ${at}: target.(Repository).createSources: mismatch between request and returned source ids, expected 2 got 1: integrity violation: error #1003.`,
          },
        ]);
      }
      expect(c.store.getTarget(t.id).version).toBe(t.version);
    });
  },
);
