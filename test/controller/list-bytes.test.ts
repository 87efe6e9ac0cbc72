/**
 * A list's answer is joined from each Target's own JSON, kept with its record until the Target
 * changes (view.ts), and an unchanged list is answered from its kept body: neither may change a
 * byte. Each answer here, as it came over HTTP, is compared with the list made from scratch
 * (`JSON.stringify` of every item's view) byte for byte: a first list (every fragment rendered), the
 * same list again (the kept body), after a read of one Target (its kept JSON shared with the read
 * where the release's list items carry the lists), after changes (only those fragments rebuilt),
 * and for a caller with other actions (fragments of their own).
 */
import type { Emulation } from "../../controller";
import { actionsOf } from "../../controller/http/auth";
import { listItemView } from "../../controller/view";
import { ADMIN_TOKEN, PROJECT, READ_ONLY_TOKEN, startTestController, type TestController } from "../helpers/controller";

/**
 * What the list answers, made from scratch: every item's view, in the order the answer has them
 * (a paginated release sorts by time), then the page's own fields as the answer has them.
 */
function fromScratch(c: TestController, token: string, answered: string): string {
  const actions = actionsOf({ grant: token === ADMIN_TOKEN ? "admin" : "read-only" }, c.store.release);
  const { items, ...fields } = JSON.parse(answered) as { items: { id: string }[] } & Record<string, unknown>;
  const stored = c.store.listTargets(PROJECT, false);
  // the answer holds every Target of the project, each once
  expect(items.map((t) => t.id).sort()).toEqual(stored.map((t) => t.id).sort());
  const records = items.map((t) => c.store.getTarget(t.id));
  return JSON.stringify({ items: records.map((t) => listItemView(c.store, t, actions)), ...fields });
}

describe.each(["spec", "0.4", "0.21"] as Emulation[])("--emulate %s: a list's bytes equal the list made from scratch", (emulation) => {
  test("first, again, after a read, after changes, for another caller", async () => {
    const c = await startTestController({ emulation, rateLimits: "disabled" });
    try {
      const made = [];
      for (let i = 0; i < 40; i++) {
        // descriptions JSON escapes (quotes, backslashes) and non-ASCII, which the byte lengths must count
        const description = i % 3 === 0 ? `say "hi" \\ back ünïcode ✓ ${i}` : undefined;
        made.push(await c.create({ name: `t-${i}`, ...(description ? { description } : {}), ...(i % 4 === 0 ? { host_set_ids: ["hsst_1234567890"] } : {}) }));
      }
      const check = async (token: string) => {
        const res = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`, undefined, token);
        expect(res.status).toBe(200);
        expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(res.text));
        expect(res.text).toBe(fromScratch(c, token, res.text));
        return res.text;
      };
      const first = await check(ADMIN_TOKEN);
      // asked again: the kept body (a paginated release's page carries a new token each time)
      const again = await check(ADMIN_TOKEN);
      if (!c.store.release.pagination) expect(again).toBe(first);
      else expect(JSON.parse(again).items).toEqual(JSON.parse(first).items);
      expect((await c.call("GET", `/v1/targets/${made[5].id}`)).status).toBe(200);
      await check(ADMIN_TOKEN);
      const patched = await c.call("PATCH", `/v1/targets/${made[7].id}?update_mask=description`, { version: made[7].version, description: 'now "changed"' });
      expect(patched.status).toBe(200);
      expect(JSON.parse(await check(ADMIN_TOKEN)).items).not.toEqual(JSON.parse(first).items);
      expect((await c.call("DELETE", `/v1/targets/${made[9].id}`)).status).toBe(204);
      await c.create({ name: "late" });
      await check(ADMIN_TOKEN);
      await check(READ_ONLY_TOKEN);
      await check(ADMIN_TOKEN);
    } finally {
      await c.shutdown();
    }
  });
});
