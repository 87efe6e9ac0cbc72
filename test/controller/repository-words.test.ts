/**
 * The repository's errors in the words of their wrapping, as real v0.12.2, v0.15.5 and v0.21.3
 * answered them (boundary-v0.*-observed.md, "Still different"): AddTargetHostSources wraps "error
 * creating sets", UpdateTarget "failed for <id>" and updateInRepo "unable to update target"; and the
 * address is read before the version is moved, so a stale version on an address Target is the
 * address conflict (400 FailedPrecondition), not the version's 500.
 */
import { knows, release } from "../../wire/releases";
import { useTestController } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";

const WITH_ADDRESS = MATRIX.filter((k) => knows(release(k), "address"));
const ADD =
  "target.(Repository).AddTargetHostSources: error creating sets: db.DoTx: target.(Repository).AddTargetHostSources: unable to add host sources " +
  `because a network address is directly assigned to the given target: integrity violation: error #409`;
const SET =
  "target.(Repository).SetTargetHostSources: db.DoTx: target.(Repository).SetTargetHostSources: unable to set host sources because a network " +
  "address is directly assigned to the given target: integrity violation: error #409";
const updateInRepo = (id: string, why: string) =>
  `targets.(Service).updateInRepo: unable to update target: target.(Repository).UpdateTarget: failed for ${id}: db.DoTx: target.(Repository).UpdateTarget: ${why}`;

describe.each(WITH_ADDRESS)("--emulate %s", (mode) => {
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });

  test.each([
    ["current", 0],
    ["stale", 5],
  ])("host sources on an address Target, with a %s version: the address conflict, in the repository's words", async (_how, delta) => {
    const t = await c.create({ address: "10.0.0.1", attributes: { default_port: 22 } });
    const add = await c.act(t.id, "add-host-sources", { version: t.version + delta, host_source_ids: ["hsst_1234567890"] });
    expect([add.status, add.body]).toEqual([400, { kind: "FailedPrecondition", message: ADD }]);
    const set = await c.act(t.id, "set-host-sources", { version: t.version + delta, host_source_ids: ["hsst_1234567890"] });
    expect([set.status, set.body]).toEqual([400, { kind: "FailedPrecondition", message: SET }]);
    expect(c.store.getTarget(t.id).version).toBe(t.version);
  });

  test("an address on a Target with host sources: UpdateTarget's conflict wrapped by updateInRepo", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"] });
    const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, address: "10.0.0.2" });
    const why = "unable to set address because one or more host sources is assigned to the given target: integrity violation: error #409";
    expect([res.status, res.body]).toEqual([400, { kind: "FailedPrecondition", message: updateInRepo(t.id, why) }]);
  });

  test("a new legacy worker_filter: the database's refusal wrapped by updateInRepo", async () => {
    const t = await c.create();
    const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, worker_filter: '"dev" in "/tags/type"' });
    const why = "db.Update: worker_filter is deprecated and cannot be set: integrity violation: error #1104";
    expect([res.status, res.body]).toEqual([500, { kind: "Internal", message: updateInRepo(t.id, why) }]);
  });
});
