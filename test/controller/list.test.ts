/**
 * List with scope_id, recursive and go-bexpr filters, against every release of the matrix;
 * pagination has its own tests in emulate-0.21-lists.test.ts.
 */
import { ADMIN_TOKEN, OTHER_PROJECT, PROJECT, READ_ONLY_TOKEN, startTestController, type TestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";
import type { Target } from "../../wire/target";

describe.each(MATRIX)("--emulate %s", (mode) => {
  const m = { ...facts(mode), empty: facts(mode).r.emptyList };
  let c: TestController;
  let web: Target;
  /** A controller with the seed every test reads: web and db in PROJECT, elsewhere in OTHER_PROJECT. */
  const seeded = async (): Promise<{ ctl: TestController; web: Target }> => {
    const ctl = await startTestController({ emulation: mode, rateLimits: "disabled" });
    const first = await ctl.create({ name: "web", attributes: { default_port: 22 }, description: "front end" });
    await ctl.create({ name: "db", session_connection_limit: 2, attributes: { default_port: 5432 } });
    await ctl.call("POST", "/v1/targets", { scope_id: OTHER_PROJECT, name: "elsewhere", type: "tcp", attributes: { default_port: 22 } });
    return { ctl, web: first };
  };
  // the tests that only read share one seeded controller; the one that changes Targets has its own,
  // so a failure halfway through it cannot leave a Target behind for the others
  beforeAll(async () => {
    ({ ctl: c, web } = await seeded());
  });
  afterAll(() => c.shutdown());

  const list = async (query: string, on: TestController = c) => {
    const res = await on.call("GET", `/v1/targets?${query}`);
    return { ...res, names: res.status === 200 ? ((res.body.items ?? []) as { name: string }[]).map((t) => t.name).sort() : [] };
  };
  const filtered = (f: string) => list(`scope_id=${PROJECT}&filter=${encodeURIComponent(f)}`);

  test("a project lists its own targets as full Targets", async () => {
    const res = await list(`scope_id=${PROJECT}`);
    expect(res.names).toEqual(["db", "web"]);
    expect(res.body.items.find((t: Target) => t.id === web.id)).toEqual(web);
  });

  test("a list asked again shows every change since (a new, an updated, a deleted Target) and each caller's own actions", async () => {
    const { ctl } = await seeded();
    try {
      const before = await list(`scope_id=${PROJECT}`, ctl);
      const extra = await ctl.create({ name: "extra", attributes: { default_port: 22 } });
      expect((await list(`scope_id=${PROJECT}`, ctl)).names).toEqual(["db", "extra", "web"]);
      expect((await ctl.call("PATCH", `/v1/targets/${extra.id}?update_mask=description`, { version: extra.version, description: "changed" })).status).toBe(200);
      const updated = (await list(`scope_id=${PROJECT}`, ctl)).body.items.find((t: Target) => t.id === extra.id);
      expect(updated).toMatchObject({ description: "changed", version: extra.version + 1 });
      expect((await ctl.call("DELETE", `/v1/targets/${extra.id}`)).status).toBe(204);
      const after = await list(`scope_id=${PROJECT}`, ctl);
      expect(after.body.items).toEqual(before.body.items);
      const readOnly = await ctl.call("GET", `/v1/targets?scope_id=${PROJECT}`, undefined, READ_ONLY_TOKEN);
      expect(readOnly.body.items.map((t: Target) => t.authorized_actions)).toEqual(before.body.items.map(() => ["no-op", "read"]));
      expect(before.body.items[0].authorized_actions).toContain("update");
    } finally {
      await ctl.shutdown();
    }
  });

  test(`an empty project answers ${JSON.stringify(m.empty)}`, async () => {
    const empty = await startTestController({ emulation: mode });
    try {
      expect((await empty.call("GET", `/v1/targets?scope_id=${PROJECT}`)).body).toEqual(m.empty);
    } finally {
      await empty.shutdown();
    }
  });

  test("recursive from global or an org covers every project below it", async () => {
    expect((await list("scope_id=global&recursive=true")).names).toEqual(["db", "elsewhere", "web"]);
    expect((await list("scope_id=o_1234567890&recursive=true")).names).toEqual(["db", "elsewhere", "web"]);
    expect((await list(`scope_id=${OTHER_PROJECT}&recursive=true`)).names).toEqual(["elsewhere"]);
  });

  test("scope rules: missing is 400, an org without recursive 400, unknown 404, bad recursive 400 (a release's gateway: ParseBool's 500)", async () => {
    expect((await list("")).status).toBe(400);
    expect((await list("scope_id=o_1234567890")).status).toBe(400);
    expect((await list("scope_id=p_zzzzzzzzzz")).status).toBe(404);
    expect((await list(`scope_id=${PROJECT}&recursive=yes`)).status).toBe(facts(mode).r.bodyDecoding === "gateway" ? 500 : 400);
  });

  test.each([
    ['"/item/name" == "web"', ["web"]],
    ['item.name == "web"', ["web"]],
    ['"/item/name" != "web"', ["db"]],
    ['"/item/name" matches "^w"', ["web"]],
    ['"/item/name" not matches "^w"', ["db"]],
    ['"authorize-session" in "/item/authorized_actions"', ["db", "web"]],
    ['"fly" not in "/item/authorized_actions"', ["db", "web"]],
    ['"/item/attributes/default_port" == 22', ["web"]],
    [`"/item/session_connection_limit" == ${m.connectionLimit}`, ["web"]],
    ['"/item/description" contains "front"', ["web"]],
    ['"/item/description" is empty', ["db"]],
    ['"/item/description" is not empty', ["web"]],
    ['"/item/name" == "web" or "/item/name" == "db"', ["db", "web"]],
    ['not ("/item/name" == "web") and "/item/type" == "tcp"', ["db"]],
    ['"/item/name" == "db" or "/item/attributes/default_port" == 22', ["db", "web"]],
  ])("filter %s", async (f, names) => {
    expect((await filtered(f)).names).toEqual(names);
  });

  // go-bexpr v0.1.12 (Boundary 0.13+) answers a key missing from a map by the operator (grammar/ast.go NotPresentDisposition)
  const byOperator = m.r.errors === "boundary" && (m.r.bexprGrammar === "v0.1.12" || m.r.bexprGrammar === "v0.1.13");
  test("an item on which evaluation fails is excluded, not an error", async () => {
    // db has no description: comparing a missing field excludes it (from go-bexpr v0.1.12: != holds for it)
    expect((await filtered('"/item/description" != "front end"')).names).toEqual(byOperator ? ["db"] : []);
    // as in go-bexpr, the error ends the whole expression for that item, even under "or"
    expect((await filtered('"/item/description" == "front end" or "/item/name" == "db"')).names).toEqual(byOperator ? ["db", "web"] : ["web"]);
    // under no map the key is an error on every release
    expect((await filtered('"/nothing" == "x" or "/item/name" == "db"')).names).toEqual([]);
  });

  // [filter, our position, go-bexpr's column (its parser's words on a real release: filter-words.test.ts)]
  test.each([
    ['"/item/name" ==', 16, 16],
    ['"/item/name" = "x"', 14, 14],
    ['("/item/name" == "x"', 21, 21],
    // a pattern RE2 cannot compile: ours only (go-bexpr parses it and the evaluation fails, see boundary-words.test.ts)
    ...(m.r.errors === "ours" ? [['"/item/name" matches "("', 22, 0] as [string, number, number]] : []),
    ['"/item/name == "x"', 18, 17],
    // go-bexpr refuses a JSON pointer without its quotes: a typo must not silently match nothing
    ['/item/name == "web"', 1, 1],
    // go-bexpr reads the number 10.0 and finds no white space after it
    ['"/item/address" == 10.0.0.1', 20, 24],
  ])("an unparsable filter %s is 400 naming filter and the position", async (f, position, column) => {
    const res = await filtered(f);
    expect(res.status).toBe(400);
    expect(res.body.details.request_fields).toHaveLength(1);
    expect(res.body.details.request_fields[0].name).toBe("filter");
    expect(res.body.details.request_fields[0].description).toContain(m.r.errors === "ours" ? `at position ${position}` : `: 1:${column} (${column - 1}): `);
  });
});

test("a list of up to 1 MiB goes out in one piece with its length; a larger one is written piece by piece, its length known, and arrives whole", async () => {
  const big = await startTestController();
  try {
    for (let i = 0; i < 100; i++) big.store.createTarget({ scope_id: PROJECT, name: `small-${i}`, type: "tcp" });
    const small = await fetch(`${big.apiUrl}/v1/targets?scope_id=${PROJECT}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const text = await small.text();
    expect(small.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text).items).toHaveLength(100);
    for (const t of big.store.listTargets(PROJECT, false)) big.store.deleteTarget(t.id);
    for (let i = 0; i < 5000; i++) big.store.createTarget({ scope_id: PROJECT, name: `bulk-${i}`, type: "tcp", description: "x".repeat(40) });
    const res = await fetch(`${big.apiUrl}/v1/targets?scope_id=${PROJECT}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const raw = await res.text();
    expect(raw.length).toBeGreaterThan(1 << 20);
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(raw)));
    const body = JSON.parse(raw) as { items: { id: string }[] };
    expect(body.items).toHaveLength(5000);
    expect(body.items.map((t) => t.id)).toEqual(big.store.listTargets(PROJECT, false).map((t) => t.id));
  } finally {
    await big.shutdown();
  }
});
