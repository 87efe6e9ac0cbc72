/**
 * What AddTargetCredentialSources and DeleteTargetCredentialSources answer once the version is
 * checked (0.9+), asserted whole: a static credential added again or of another project breaks the
 * database's keys (the `credentialSourceConstraints` column, 0.10+), and a remove counts each
 * table's rows in the repository's own (crossed) numbers. The real servers' `cs/add-brokered-duplicate`,
 * `cs/add-other-project` and `cs/remove-not-present` (boundary-v0.12, v0.15.5 and v0.21.3-observed.md).
 */
import { defaultFixtures } from "../../controller/store/fixtures";
import { release } from "../../wire/releases";
import { OTHER_PROJECT, useTestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";

const STATIC = "credup_1234567890";
const LIBRARY = "clvlt_1234567890";
const ELSEWHERE = "credup_0987654321";
const LIBRARY_ELSEWHERE = "clvlt_0987654321";

const fixtures = () => {
  const f = defaultFixtures();
  f.credentials.push({ ...f.credentials[0]!, id: ELSEWHERE, scope_id: OTHER_PROJECT, credential_store_id: "csst_0987654321" });
  f.credential_libraries.push({ ...f.credential_libraries[0]!, id: LIBRARY_ELSEWHERE, scope_id: OTHER_PROJECT });
  return f;
};

describe.each(MATRIX.filter((k) => release(k).credentialSourcesLookedUp && release(k).errors === "boundary"))("--emulate %s", (mode) => {
  const r = release(mode);
  const c = useTestController({ emulation: mode, rateLimits: "disabled", fixtures: fixtures() });
  const { creds } = facts(mode);
  const failed = (verb: string, op: string, cause: string) => ({
    kind: "Internal",
    message: `Unable to ${verb} credential sources ${verb === "add" ? "to" : "from"} target: target.(Repository).${op}: db.DoTx: target.(Repository).${op}: ${cause}.`,
  });
  const add = async (id: string, ids: string[]) => {
    const t = c.store.getTarget(id);
    const res = await c.act(id, `add-${creds.noun}`, { version: t.version, [creds.field]: ids });
    return [res.status, res.body];
  };

  if (r.credentialSourceConstraints) {
    test("cs/add-brokered-duplicate: the static credential's primary key; a library's own key first", async () => {
      const t = await c.create({ name: "cs-dup" });
      expect((await add(t.id, [STATIC, LIBRARY]))[0]).toBe(200);
      expect(await add(t.id, [STATIC])).toEqual([
        500,
        failed(
          "add",
          "AddTargetCredentialSources",
          'unable to create target static credential: db.CreateItems: duplicate key value violates unique constraint "target_static_credential_pkey": ' +
            "unique constraint violation: integrity violation: error #1002",
        ),
      ]);
      expect(await add(t.id, [STATIC, LIBRARY])).toEqual([
        500,
        failed(
          "add",
          "AddTargetCredentialSources",
          'unable to create target credential library: db.CreateItems: duplicate key value violates unique constraint "target_credential_library_pkey": ' +
            "unique constraint violation: integrity violation: error #1002",
        ),
      ]);
    });

    test("cs/add-other-project: the project-scoped foreign key; a row already there is refused before it", async () => {
      const t = await c.create({ name: "cs-other" });
      const fkey =
        'unable to create target static credential: db.CreateItems: insert or update on table "target_static_credential" violates foreign key ' +
        'constraint "credential_static_fkey": integrity violation: error #1003';
      expect(await add(t.id, [ELSEWHERE])).toEqual([500, failed("add", "AddTargetCredentialSources", fkey)]);
      expect((await add(t.id, [STATIC]))[0]).toBe(200);
      expect((await add(t.id, [ELSEWHERE, STATIC]))[1]).toMatchObject({ message: expect.stringContaining("target_static_credential_pkey") });
    });
  }

  if (r.credentialSourceConstraints)
    test("cs/set-other-project: SetTargetCredentialSources' own words for the foreign key, libraries first, after the version", async () => {
      const t = await c.create({ name: "cs-set-other" });
      const set = async (ids: string[], version = c.store.getTarget(t.id).version) => {
        const res = await c.act(t.id, `set-${creds.noun}`, { version, [creds.field]: ids });
        return [res.status, res.body];
      };
      const at = "target.(Repository).SetTargetCredentialSources";
      const refused = (cause: string) => [500, { kind: "Internal", message: `Unable to set credential sources in target: ${at}: db.DoTx: ${at}: ${cause}.` }];
      expect(await set([STATIC, ELSEWHERE])).toEqual(
        refused(
          'unable to add target static credential : db.CreateItems: insert or update on table "target_static_credential" violates foreign key ' +
            'constraint "credential_static_fkey": integrity violation: error #1003',
        ),
      );
      expect(await set([ELSEWHERE, LIBRARY_ELSEWHERE])).toEqual(
        refused(
          'unable to add target credential libraries: db.CreateItems: insert or update on table "target_credential_library" violates foreign key ' +
            'constraint "credential_library_fkey": integrity violation: error #1003',
        ),
      );
      expect(await set([ELSEWHERE], t.version + 5)).toEqual(refused("invalid target version: integrity violation: error #1105"));
      expect(c.store.getTarget(t.id).version).toBe(t.version);
    });

  test("cs/remove-not-present: the static check counts the libraries' rows (rowsDeleted, len(deleteCredLibs))", async () => {
    const t = await c.create({ name: "cs-remove" });
    expect((await add(t.id, [LIBRARY]))[0]).toBe(200);
    const remove = async (ids: string[]) => {
      const res = await c.act(t.id, `remove-${creds.noun}`, { version: c.store.getTarget(t.id).version, [creds.field]: ids });
      return [res.status, res.body];
    };
    const op = "DeleteTargetCredentialSources";
    expect(await remove([STATIC])).toEqual([500, failed("remove", op, "static credential deleted 0 did not match request for 0: search issue: error #1101")]);
    expect(await remove([LIBRARY, STATIC])).toEqual([
      500,
      failed("remove", op, "static credential deleted 1 did not match request for 1: search issue: error #1101"),
    ]);
    expect(await remove(["clvlt_1234567891"])).toEqual([
      500,
      failed("remove", op, "credential libraries deleted 0 did not match request for 1: search issue: error #1101"),
    ]);
    // each refusal rolled the transaction back: the version moved by the add only
    expect(c.store.getTarget(t.id).version).toBe(t.version + 1);
  });
});
