/**
 * A paginated list's order and filter are made once per unchanged estate and kept with it
 * (controller/derived.ts, store/indexes.ts): a page after the first is a search and a slice, not a
 * sort of the whole estate; and whatever changes between two pages, each page is the one a list
 * made from scratch answers. The cost is counted in pause points and filter calls (work done),
 * never timed.
 */
import { Store, defaultFixtures } from "../../controller";
import { page, pageSteps, type PageQuery } from "../../controller/pagination";
import type { TargetRecord } from "../../controller/record";
import type { Steps } from "../../controller/slices";
import { listItemView } from "../../controller/view";
import { OTHER_PROJECT, PROJECT, READ_ONLY_TOKEN, startTestController } from "../helpers/controller";

/** Runs steps to their end: the result, and how many times they paused (each pause marks about 256 items of work). */
function counted<R>(steps: Steps<R>): { value: R; pauses: number } {
  let pauses = 0;
  for (;;) {
    const next = steps.next();
    if (next.done) return { value: next.value, pauses };
    pauses++;
  }
}

const seeded = (n: number): Store => {
  const store = new Store(defaultFixtures(), { emulation: "0.21" });
  for (let i = 0; i < n; i++) store.createTarget({ scope_id: i % 2 ? PROJECT : OTHER_PROJECT, name: `t-${i}`, type: "tcp", attributes: { default_port: 22 } });
  return store;
};

describe("a recursive list of 20,000 over two projects, paged by 1,000", () => {
  const store = seeded(20_000);
  const actions = ["no-op", "read", "update"];
  const query = JSON.stringify(["global", true, null]);
  const records = () => counted(store.listTargetsSteps("global", true));
  const pageOf = (token: string | undefined) => counted(pageSteps(records().value, { query, token, pageSize: "1000" }, Date.now(), () => []));

  test("the store hands out one merged array while nothing changes, and a new one after any change", () => {
    const first = records();
    expect(first.value).toHaveLength(20_000);
    const again = records();
    expect(again.value).toBe(first.value);
    expect(again.pauses).toBe(0);
    const t = store.createTarget({ scope_id: PROJECT, name: "late", type: "tcp", attributes: { default_port: 22 } });
    const after = records();
    expect(after.value).not.toBe(first.value);
    expect(after.value).toContain(t);
    expect(records().value).toBe(after.value);
    store.deleteTarget(t.id);
    expect(records().value).not.toContain(t);
  });

  test("the first page sorts the estate; every page after it does no work in proportion to the estate", () => {
    records(); // the merge, so that only the order is counted below
    const first = pageOf(undefined);
    // a merge sort of 20,000 in runs of 256 pauses hundreds of times
    expect(first.pauses).toBeGreaterThan(20_000 / 256);
    let token = first.value.fields.list_token as string;
    for (let p = 1; p < 20; p++) {
      const next = pageOf(token);
      expect(next.value.items).toHaveLength(1000);
      expect(next.pauses).toBe(0);
      token = next.value.fields.list_token as string;
    }
  });

  test("a filter is evaluated once per estate and caller: the next page calls it for no Target", () => {
    let views = 0;
    const view = (t: TargetRecord) => (views++, listItemView(store, t, actions));
    const q = { scopeId: "global", recursive: "true", filter: '"/item/name" matches "7"' };
    const a = counted(store.queryTargetsSteps(q, view, actions.join(",")));
    expect(views).toBe(store.size);
    const b = counted(store.queryTargetsSteps(q, view, actions.join(",")));
    expect(b.value).toBe(a.value);
    expect([views, b.pauses]).toEqual([store.size, 0]);
    // another caller's actions are another view: filtered afresh
    counted(store.queryTargetsSteps(q, view, "read"));
    expect(views).toBe(2 * store.size);
  });
});

describe("pages while the estate changes between them equal the pages made from scratch", () => {
  test("creates, updates, association changes and deletes between pages; then the refresh", async () => {
    const c = await startTestController({ emulation: "0.21", rateLimits: "disabled" });
    try {
      for (let i = 0; i < 1200; i++)
        c.store.createTarget({ scope_id: i % 3 ? PROJECT : OTHER_PROJECT, name: `k-${i}`, type: "tcp", attributes: { default_port: 22 } });
      const params = { scope_id: "global", recursive: "true", page_size: "200" };
      const query: Omit<PageQuery, "token"> = { query: JSON.stringify(["global", "true", null]), pageSize: "200" };
      // the oracle: the same token (of the query the route makes: the scope, recursive as the gateway
      // reads it, no filter) over a new copy of the store's Targets, with which nothing is kept
      const fromScratch = (token: string | undefined) =>
        page([...c.store.listTargets("global", true)], { ...query, token }, Date.now(), (since) => c.store.deletedSince(since, c.store.projectsOf("global")));
      const ids = (items: { id: string }[]) => items.map((t) => t.id);
      // each answers 200 (a delete 204; a create that fails throws)
      const changes: (() => Promise<{ status: number }>)[] = [
        async () => (await c.create(), { status: 200 }),
        async () => {
          const t = c.store.listTargets(OTHER_PROJECT, false)[5]!;
          return c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, description: "changed" });
        },
        async () => {
          const t = c.store.listTargets(PROJECT, false)[7]!;
          return c.act(t.id, "set-host-sources", { version: t.version, host_source_ids: ["hsst_1234567890"] });
        },
        async () => c.call("DELETE", `/v1/targets/${c.store.listTargets(PROJECT, false)[3]!.id}`),
        async () => (await c.create(), { status: 200 }),
      ];
      let token: string | undefined;
      let pages = 0;
      for (; pages === 0 || token; pages++) {
        const expected = fromScratch(token);
        const res = await c.call("GET", `/v1/targets?${new URLSearchParams({ ...params, ...(token ? { list_token: token } : {}) })}`);
        expect(res.status).toBe(200);
        expect(ids(res.body.items ?? [])).toEqual(ids(expected.items));
        expect(res.body.est_item_count).toBe(expected.fields.est_item_count);
        expect(res.body.response_type).toBe(expected.fields.response_type);
        token = res.body.response_type === "complete" ? undefined : res.body.list_token;
        const refreshToken = res.body.list_token as string;
        expect([200, 204]).toContain((await changes[pages % changes.length]!()).status);
        if (!token) {
          // the refresh after the pass: what changed since it began, and what was deleted
          const wanted = fromScratch(refreshToken);
          const refresh = await c.call("GET", `/v1/targets?${new URLSearchParams({ ...params, list_token: refreshToken })}`);
          expect(ids(refresh.body.items ?? [])).toEqual(ids(wanted.items));
          expect(refresh.body.removed_ids).toEqual(wanted.fields.removed_ids);
          expect(refresh.body.items.length).toBeGreaterThan(0);
        }
      }
      expect(pages).toBeGreaterThanOrEqual(6);
      // a reader's filter on its own actions is not the admin's, though the estate is the same
      const filter = '"update" in "/item/authorized_actions"';
      const admin = await c.call("GET", `/v1/targets?${new URLSearchParams({ ...params, filter })}`);
      const reader = await c.call("GET", `/v1/targets?${new URLSearchParams({ ...params, filter })}`, undefined, READ_ONLY_TOKEN);
      expect([admin.body.items.length, admin.body.est_item_count]).toEqual([200, c.store.size]);
      expect([reader.status, reader.body.items, reader.body.est_item_count]).toEqual([200, undefined, undefined]);
    } finally {
      await c.shutdown();
    }
  }, 60_000);
});
