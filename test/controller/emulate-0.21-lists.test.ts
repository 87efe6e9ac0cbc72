/**
 * `--emulate 0.21`'s lists, as Boundary v0.21.3 answers them: items without association ids, the
 * current empty-list shape, pages of at most `max_page_size` (1,000 unless the config file says),
 * a list token's refresh that returns only what changed and the deleted ids, and the tokens it
 * refuses. How each item of a large page decodes: list-pages.test.ts.
 */
import { loadDevConfig } from "../../controller";
import { PROJECT, startTestController, useTestController } from "../helpers/controller";

const c = useTestController({ emulation: "0.21" });

test("lists: items without association ids, and the current empty-list shape", async () => {
  const empty = await startTestController({ emulation: "0.21" });
  try {
    expect((await empty.call("GET", `/v1/targets?scope_id=${PROJECT}`)).body).toEqual({ response_type: "complete", sort_by: "created_time", sort_dir: "desc" });
  } finally {
    await empty.shutdown();
  }
  const t = await c.create();
  expect((await c.call("POST", `/v1/targets/${t.id}:set-host-sources`, { version: 1, host_source_ids: ["hsst_1234567890"] })).status).toBe(200);
  const list = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`);
  expect(list.body.items.length).toBeGreaterThan(0);
  for (const item of list.body.items) expect(item).not.toHaveProperty("host_source_ids");
  expect(list.body).toMatchObject({ response_type: "complete", sort_by: "created_time", sort_dir: "desc", est_item_count: list.body.items.length });
});

describe("paginated lists", () => {
  test("2,500 targets: three pages of 1,000 (page_size clamped), then a refresh returns only what changed and the deleted ids", async () => {
    const big = await startTestController({ emulation: "0.21" });
    try {
      for (let i = 0; i < 2500; i++) big.store.createTarget({ scope_id: PROJECT, name: `paged-${i}`, type: "tcp", attributes: { default_port: 22 } });
      const list = (params: Record<string, string>) => big.call("GET", `/v1/targets?${new URLSearchParams({ scope_id: PROJECT, ...params })}`);
      const seen = new Set<string>();
      let token: string | undefined;
      const types: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await list({ page_size: "5000", ...(token ? { list_token: token } : {}) });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ sort_by: "created_time", sort_dir: "desc", est_item_count: 2500 });
        for (const t of res.body.items) seen.add(t.id);
        types.push(res.body.response_type);
        token = res.body.list_token;
      }
      expect(types).toEqual(["delta", "delta", "complete"]);
      expect(seen.size).toBe(2500);
      // the refresh: one target changed, one deleted since the list began
      const [changed, removed] = big.store.listTargets(PROJECT, false);
      await big.call("PATCH", `/v1/targets/${changed!.id}`, { version: 1, description: "changed" });
      await big.call("DELETE", `/v1/targets/${removed!.id}`);
      const refresh = await list({ list_token: token! });
      expect(refresh.body).toMatchObject({ response_type: "complete", sort_by: "updated_time", removed_ids: [removed!.id] });
      expect(refresh.body.items.map((t: { id: string }) => t.id)).toEqual([changed!.id]);
    } finally {
      await big.shutdown();
    }
  });

  test("the config file's max_page_size is the default and the largest page", async () => {
    const cfg = loadDevConfig(["--config", "dev.hcl"], () => 'controller {\n  emulate = "0.21"\n  max_page_size = 100\n}\n');
    expect(cfg.maxPageSize).toBe(100);
    expect(() => loadDevConfig(["--config", "dev.hcl"], () => "controller {\n  max_page_size = 0\n}\n")).toThrow(
      "controller.max_page_size: 0 must be a whole number > 0",
    );
    const small = await startTestController({ emulation: "0.21", maxPageSize: cfg.maxPageSize });
    try {
      for (let i = 0; i < 250; i++) small.store.createTarget({ scope_id: PROJECT, name: `small-${i}`, type: "tcp", attributes: { default_port: 22 } });
      const first = await small.call("GET", `/v1/targets?scope_id=${PROJECT}`);
      expect([first.body.items.length, first.body.response_type]).toEqual([100, "delta"]);
      const asked = await small.call("GET", `/v1/targets?scope_id=${PROJECT}&page_size=500`);
      expect(asked.body.items).toHaveLength(100);
    } finally {
      await small.shutdown();
    }
  });

  test("a token that does not decode is ParseListToken's 500; one from another query a 400 of kind invalid list token", async () => {
    const bad = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&list_token=garbage`);
    // real v0.21.3: list/list-token-garbage
    expect([bad.status, bad.body]).toEqual([
      500,
      { kind: "Internal", message: "handlers.ParseListToken: unknown, unknown: error #0: proto: cannot parse invalid wire-format data" },
    ]);
    await c.create();
    const first = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&page_size=1`);
    const foreign = await c.call(
      "GET",
      `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent('"/item/name" == "x"')}&list_token=${first.body.list_token}`,
    );
    expect(foreign.body).toEqual({ kind: "invalid list token", message: "list token was issued for a different request" });
    // 0.19.3+: grants are fetched for the request's scope, so a token used in another scope fails listtoken.Validate
    const otherScope = await c.call("GET", `/v1/targets?scope_id=p_0987654321&list_token=${first.body.list_token}`);
    expect(otherScope.body).toEqual({ kind: "invalid list token", message: "grants have changed since list token was issued" });
  });
});
