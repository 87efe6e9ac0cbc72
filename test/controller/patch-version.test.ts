/**
 * When a PATCH advances a Target's version, release by release, as the repository decides it
 * (internal/target/repository.go UpdateTarget at v0.4.0, v0.12.2, v0.15.5 and v0.21.3): the
 * database's triggers move the version and update time only when the Target's row changes; from
 * 0.12 the address is a child row (target_address, no version trigger), and a PATCH whose only path
 * is `address` advances the version whatever it changes (UpdateTarget puts `Version` in the mask).
 * The first case is Boundary's own TestUpdateTarget_DeleteAddress (internal/tests/api/targets, v0.21.3).
 */
import { knows, release } from "../../wire/releases";
import { useTestController } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";

const WITH_ADDRESS = MATRIX.filter((k) => knows(release(k), "address"));
const WITHOUT_ADDRESS = MATRIX.filter((k) => !knows(release(k), "address"));

describe.each(WITH_ADDRESS)("--emulate %s: the address is a child row of the Target", (mode) => {
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  const patch = (id: string, body: object) => c.call("PATCH", `/v1/targets/${id}`, body);

  test("TestUpdateTarget_DeleteAddress: clearing an address, then clearing it again, advances the version each time", async () => {
    const withAddress = await c.create({ name: "addr-delete", address: "127.0.0.1", attributes: { default_port: 22 } });
    const without = await c.create({ name: "aliased", attributes: { default_port: 2 } });
    for (const t of [withAddress, without]) {
      const first = await patch(t.id, { version: 1, address: null });
      expect(first.status).toBe(200);
      expect(first.body.address).toBe("");
      expect(first.body.version).toBe(2);
      // the same version again is refused: the first clear moved it
      expect((await patch(t.id, { version: 1, address: null })).status).not.toBe(200);
      const second = await patch(t.id, { version: first.body.version, address: null });
      expect(second.status).toBe(200);
      expect(second.body.address).toBe("");
      expect(second.body.version).toBe(3);
      expect(second.body.updated_time).not.toBe(t.updated_time);
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(3);
    }
  });

  test("setting the address it already has, alone, advances the version; so does a clear by the mask alone", async () => {
    const t = await c.create({ name: "addr-same", address: "10.0.0.1", attributes: { default_port: 22 } });
    const same = await patch(t.id, { version: t.version, address: "10.0.0.1" });
    expect([same.status, same.body.address, same.body.version]).toEqual([200, "10.0.0.1", t.version + 1]);
    const masked = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=address`, { version: same.body.version });
    expect([masked.status, masked.body.address, masked.body.version]).toEqual([200, "", t.version + 2]);
    const again = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=address`, { version: masked.body.version });
    expect([again.status, again.body.address, again.body.version]).toEqual([200, "", t.version + 3]);
  });

  test("beside a path whose value is unchanged, a new address keeps the version and update time (no trigger sees the child row)", async () => {
    const t = await c.create({ name: "addr-beside", address: "10.0.0.1", attributes: { default_port: 22 } });
    const res = await patch(t.id, { version: t.version, name: "addr-beside", address: "10.0.0.2" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ address: "10.0.0.2", version: t.version, updated_time: t.updated_time });
    expect((await c.call("GET", `/v1/targets/${t.id}`)).body).toMatchObject({ address: "10.0.0.2", version: t.version });
    // beside a path that changes, the row's trigger moves it once
    const both = await patch(t.id, { version: t.version, name: "renamed", address: "10.0.0.3" });
    expect(both.body).toMatchObject({ name: "renamed", address: "10.0.0.3", version: t.version + 1 });
  });

  test("a PATCH of other fields that changes nothing keeps the version", async () => {
    const t = await c.create({ name: "row-same", description: "d", address: "10.0.0.1", attributes: { default_port: 22 } });
    const res = await patch(t.id, { version: t.version, name: "row-same", description: "d" });
    expect(res.body).toMatchObject({ version: t.version, updated_time: t.updated_time, address: "10.0.0.1" });
  });
});

describe.each(WITHOUT_ADDRESS)("--emulate %s: no address; only a change of the Target's row advances the version", (mode) => {
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });

  test("a PATCH that changes nothing keeps the version; one that changes a field advances it by one", async () => {
    const t = await c.create({ name: "row-only", description: "d" });
    const same = await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, name: "row-only", description: "d" });
    expect(same.body).toMatchObject({ version: t.version, updated_time: t.updated_time });
    const changed = await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, description: "e" });
    expect(changed.body.version).toBe(t.version + 1);
  });
});
