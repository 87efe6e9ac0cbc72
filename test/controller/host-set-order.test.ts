/**
 * Host set ids in the order Boundary answers them: v0.4.0 in the order the host sets were created
 * (fetchSets reads the target_set view, a join with no ORDER BY: real v0.4.0's `hs/add-dev-project`
 * answered `boundary dev`'s host set, created first, before three attached earlier), asserted on
 * the action's answer and on a read; the `hostSetOrder` column says which releases.
 */
import { release } from "../../wire/releases";
import { useTestController } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";

// the default fixtures create hsst_1234567890, hsst_1234567891, then (in the second project) hsst_0987654321
const SUMMARY: Record<string, { id: string; host_catalog_id: string }> = {
  hsst_1234567890: { id: "hsst_1234567890", host_catalog_id: "hcst_1234567890" },
  hsst_1234567891: { id: "hsst_1234567891", host_catalog_id: "hcst_1234567890" },
  hsst_0987654321: { id: "hsst_0987654321", host_catalog_id: "hcst_0987654321" },
};

test("real v0.4.0 answered host sets in the order they were created", () => {
  expect(release("0.4").hostSetOrder).toBe("created");
});

describe.each(MATRIX.filter((k) => release(k).hostSetsAnyProject && release(k).errors === "boundary"))("--emulate %s", (mode) => {
  const r = release(mode);
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  const order =
    r.hostSetOrder === "created" ? ["hsst_1234567890", "hsst_1234567891", "hsst_0987654321"] : ["hsst_0987654321", "hsst_1234567891", "hsst_1234567890"];

  test(`hs/add-dev-project: host sets in the order they were ${r.hostSetOrder}`, async () => {
    const t = await c.create({ name: "hs-order" });
    let version = t.version;
    let res;
    for (const id of ["hsst_0987654321", "hsst_1234567891", "hsst_1234567890"]) {
      res = await c.act(t.id, "add-host-sets", { version, host_set_ids: [id] });
      expect(res.status).toBe(200);
      version = res.body.version;
    }
    const want = { host_set_ids: order, host_sets: order.map((id) => SUMMARY[id]) };
    expect({ host_set_ids: res!.body.host_set_ids, host_sets: res!.body.host_sets }).toEqual(want);
    const read = await c.call("GET", `/v1/targets/${t.id}`);
    expect([read.status, { host_set_ids: read.body.host_set_ids, host_sets: read.body.host_sets }]).toEqual([200, want]);
  });
});
