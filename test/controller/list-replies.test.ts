/**
 * An unpaginated list asked again with the same query string, by a caller with the same actions,
 * before any change, is answered with the reply kept for it (controller/list-replies.ts): no
 * parse, no check, no query. These tests hold it to what keeps that safe: the store's change count
 * advances on every kind of change and on nothing else; a kept reply is found only for its own
 * query string and caller and only at the count it was made at; and over HTTP every answer, kept
 * or not, is the list made from scratch, a refused query is refused every time.
 */
import { Store, defaultFixtures } from "../../controller";
import { actionsOf } from "../../controller/http/auth";
import { keepListReply, keptListReply } from "../../controller/list-replies";
import { listItemView } from "../../controller/view";
import { ADMIN_TOKEN, OTHER_PROJECT, PROJECT, READ_ONLY_TOKEN, startTestController } from "../helpers/controller";

const admin = (store: Store) => actionsOf({ grant: "admin" }, store.release);
const readOnly = (store: Store) => actionsOf({ grant: "read-only" }, store.release);

describe("the store's change count", () => {
  test("advances once on a create, an update, an association change and a delete; not on reads or refused changes", () => {
    const store = new Store(defaultFixtures());
    const counts = [store.changes];
    const t = store.createTarget({ scope_id: PROJECT, name: "a", type: "tcp", attributes: { default_port: 22 } });
    counts.push(store.changes);
    const u = store.updateTarget(t.id, { version: t.version, description: "changed" }, undefined);
    counts.push(store.changes);
    const v = store.changeAssociation(t.id, "set", u.version, [{ field: "hostSetIds", name: "host_set_ids", ids: ["hsst_1234567890"] }], "host-sets");
    counts.push(store.changes);
    store.getTarget(t.id);
    store.listTargets(PROJECT, false);
    expect(() => store.updateTarget(t.id, { version: t.version, description: "stale" }, undefined)).toThrow();
    expect(() => store.createTarget({ scope_id: PROJECT, name: "a", type: "tcp", attributes: { default_port: 22 } })).toThrow();
    counts.push(store.changes);
    store.deleteTarget(v.id);
    counts.push(store.changes);
    expect(counts.map((n) => n - counts[0]!)).toEqual([0, 1, 2, 3, 3, 4]);
  });
});

describe("a kept list reply", () => {
  const made = () => {
    const store = new Store(defaultFixtures());
    store.createTarget({ scope_id: PROJECT, name: "a", type: "tcp", attributes: { default_port: 22 } });
    return store;
  };
  const reply = { status: 200 };

  test("is found for its own query string and caller while the store is unchanged", () => {
    const store = made();
    keepListReply(store, admin(store), "scope_id=p_1234567890", store.changes, reply);
    expect(keptListReply(store, admin(store), "scope_id=p_1234567890")).toBe(reply);
    expect(keptListReply(store, readOnly(store), "scope_id=p_1234567890")).toBeUndefined();
    expect(keptListReply(store, admin(store), "scope_id=p_1234567890&recursive=false")).toBeUndefined();
    expect(keptListReply(new Store(defaultFixtures()), admin(store), "scope_id=p_1234567890")).toBeUndefined();
  });

  test("is not found after any change, in any project", () => {
    const store = made();
    keepListReply(store, admin(store), "scope_id=p_1234567890", store.changes, reply);
    store.createTarget({ scope_id: OTHER_PROJECT, name: "b", type: "tcp", attributes: { default_port: 22 } });
    expect(keptListReply(store, admin(store), "scope_id=p_1234567890")).toBeUndefined();
  });

  test("is not kept when the store changed while the list was made", () => {
    const store = made();
    const before = store.changes;
    store.createTarget({ scope_id: PROJECT, name: "b", type: "tcp", attributes: { default_port: 22 } });
    keepListReply(store, admin(store), "scope_id=p_1234567890", before, reply);
    expect(keptListReply(store, admin(store), "scope_id=p_1234567890")).toBeUndefined();
  });

  test("is kept for the 16 most recent query strings of a store", () => {
    const store = made();
    for (let i = 0; i < 17; i++) keepListReply(store, admin(store), `scope_id=p_1234567890&n=${i}`, store.changes, { status: 200, n: i });
    expect(keptListReply(store, admin(store), "scope_id=p_1234567890&n=0")).toBeUndefined();
    expect(keptListReply(store, admin(store), "scope_id=p_1234567890&n=1")).toEqual({ status: 200, n: 1 });
    expect(keptListReply(store, admin(store), "scope_id=p_1234567890&n=16")).toEqual({ status: 200, n: 16 });
  });
});

describe("over HTTP (--emulate spec): every answer is the list made from scratch", () => {
  test("asked again, after each kind of change, by another caller, with the query spelled otherwise; a refused query every time", async () => {
    const c = await startTestController({ rateLimits: "disabled" });
    try {
      const made = [];
      for (let i = 0; i < 12; i++) made.push(await c.create({ name: `t-${i}` }));
      const fromScratch = (token: string) => {
        const actions = token === ADMIN_TOKEN ? admin(c.store) : readOnly(c.store);
        return JSON.stringify({ items: c.store.listTargets(PROJECT, false).map((t) => listItemView(c.store, t, actions)) });
      };
      const check = async (query: string, token = ADMIN_TOKEN) => {
        const res = await c.call("GET", `/v1/targets?${query}`, undefined, token);
        expect(res.status).toBe(200);
        expect(res.text).toBe(fromScratch(token));
        expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(res.text));
        return res.text;
      };
      const query = `scope_id=${PROJECT}`;
      const first = await check(query);
      expect(await check(query)).toBe(first);
      // the second answer came from the kept reply: the one the route keeps for this query string
      const kept = keptListReply<{ list: { pieces: Buffer[] } }>(c.store, admin(c.store), query);
      expect(kept?.list.pieces.map((p) => p.toString()).join("")).toBe(first);
      await check(`recursive=false&scope_id=${PROJECT}`);
      await check(query, READ_ONLY_TOKEN);
      await check(query);
      const t = made[3];
      expect((await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, description: "changed" })).status).toBe(200);
      expect(await check(query)).not.toBe(first);
      expect((await c.act(made[4].id, "set-host-sets", { version: made[4].version, host_set_ids: ["hsst_1234567890"] })).status).toBe(200);
      await check(query);
      expect((await c.call("DELETE", `/v1/targets/${made[5].id}`)).status).toBe(204);
      await check(query);
      await c.create({ name: "late" });
      await check(query);
      // a change elsewhere makes the list afresh, the same bytes
      await c.create({ name: "elsewhere", scope_id: OTHER_PROJECT });
      await check(query);
      for (let i = 0; i < 2; i++) expect((await c.call("GET", `/v1/targets?${query}&recursive=maybe`)).status).toBe(400);
    } finally {
      await c.shutdown();
    }
  });
});
