/**
 * `--emulate 0.21`, what only current releases do: Boundary v0.21.3's names and actions (host
 * sources, credential sources), v0.4's actions answered 405 with an empty body before
 * authentication, unknown JSON keys discarded (the trap), create's rules, the wording of stale
 * versions, credential_source, paginated lists and rate limits. The Target fields later releases
 * added are in current-fields.test.ts; the rules all modes share run in the parameterised suites.
 */
import { defaultFixtures, loadDevConfig, parseFixtures } from "../../controller";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { until } from "../helpers/wait";
import { UNIQUENESS } from "../../controller/rules/fields";

let c: TestController;
beforeAll(async () => {
  c = await startTestController({ emulation: "0.21" });
});
afterAll(() => c.shutdown());

let n = 0;
const create = (extra: object = {}) => c.create({ name: `current-${++n}`, attributes: { default_port: 22 }, ...extra });
const act = (id: string, action: string, body: object, token?: string | null) => c.call("POST", `/v1/targets/${id}:${action}`, body, token);

test("a Target has current names: host_source_ids, brokered_credential_source_ids, current authorized_actions; no v0.4 names", async () => {
  const t = await create();
  const withSources = await act(t.id, "set-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
  const withCreds = await act(t.id, "set-credential-sources", { version: 2, brokered_credential_source_ids: ["clvlt_1234567890"] });
  expect(withSources.status).toBe(200);
  expect(withCreds.body).toMatchObject({
    version: 3,
    host_source_ids: ["hsst_1234567890"],
    host_sources: [{ id: "hsst_1234567890", host_catalog_id: "hcst_1234567890" }],
    brokered_credential_source_ids: ["clvlt_1234567890"],
    brokered_credential_sources: [{ id: "clvlt_1234567890", credential_store_id: "csvlt_1234567890" }],
  });
  for (const old of ["host_set_ids", "host_sets", "application_credential_library_ids", "application_credential_libraries"])
    expect(withCreds.body).not.toHaveProperty(old);
  expect(withCreds.body.authorized_actions).toEqual([
    "no-op",
    "read",
    "update",
    "delete",
    "add-host-sources",
    "set-host-sources",
    "remove-host-sources",
    "add-credential-sources",
    "set-credential-sources",
    "remove-credential-sources",
    "authorize-session",
  ]);
});

test.each(["set-host-sets", "add-host-sets", "remove-credential-libraries"])("v0.4's :%s is 405 with an empty body, before authentication", async (action) => {
  const t = await create();
  for (const token of [undefined, null]) {
    const res = await act(t.id, action, { version: 1, host_set_ids: ["hsst_1234567890"] }, token);
    expect(res.status).toBe(405);
    expect(res.text).toBe("");
  }
});

test("an unknown action is 400 and an unknown collection 404, both with empty bodies", async () => {
  const unknown = await act("ttcp_1234567890", "frobnicate", {});
  expect([unknown.status, unknown.text]).toEqual([400, ""]);
  const collection = await c.call("GET", "/v1/frobs");
  expect([collection.status, collection.text]).toEqual([404, ""]);
});

test("the trap: host_set_ids sent to :set-host-sources is discarded, so the host sources are cleared", async () => {
  const t = await create();
  await act(t.id, "set-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
  const res = await act(t.id, "set-host-sources", { version: 2, host_set_ids: ["hsst_1234567891"] });
  expect(res.status).toBe(200);
  expect(res.body).not.toHaveProperty("host_source_ids");
  expect(res.body.version).toBe(3);
});

test("unknown keys in a create are discarded; sources in a create are ignored", async () => {
  const res = await c.call("POST", "/v1/targets", {
    scope_id: PROJECT,
    name: "discarding",
    type: "tcp",
    attributes: { default_port: 22 },
    colour: "red",
    host_source_ids: ["hsst_1234567890"],
  });
  expect(res.status).toBe(200);
  expect(res.body).not.toHaveProperty("colour");
  expect(res.body).not.toHaveProperty("host_source_ids");
});

test("create: attributes.default_port is required, worker_filter is deprecated, the connection limit defaults to -1", async () => {
  const res = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "rules", type: "tcp", worker_filter: '"dev" in "/tags/type"' });
  expect(res.status).toBe(400);
  expect(res.body.details.request_fields).toEqual([
    { name: "attributes.default_port", description: "This field is required." },
    { name: "worker_filter", description: "This field is deprecated. Use egress_worker_filter instead." },
  ]);
  expect((await create()).session_connection_limit).toBe(-1);
});

test.each([
  ["add-host-sources", { host_source_ids: ["hsst_1234567890"] }, "Failed to add target host sources"],
  ["set-host-sources", { host_source_ids: ["hsst_1234567890"] }, "Failed to set target host sources"],
  [
    "add-credential-sources",
    { brokered_credential_source_ids: ["clvlt_1234567890"] },
    "Unable to add credential sources to target: target.(Repository).AddTargetCredentialSources: db.DoTx: target.(Repository).AddTargetCredentialSources: invalid target version: integrity violation: error #1105.",
  ],
])("a stale version on :%s is 500 as v0.21.3 words it; on PATCH 404", async (action, ids, message) => {
  const t = await create();
  const res = await act(t.id, action, { version: 9, ...ids });
  expect(res.status).toBe(500);
  expect(res.body).toEqual({ kind: "Internal", message });
  const patch = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 9, description: "x" });
  expect(patch.status).toBe(404);
  expect(patch.body.message).toBe(`Target "${t.id}" not found or incorrect version provided.`);
});

test("field errors name the current fields", async () => {
  const t = await create();
  const res = await act(t.id, "add-host-sources", { version: 1, host_source_ids: [] });
  expect(res.status).toBe(400);
  expect(res.body.details.request_fields).toEqual([{ name: "host_source_ids", description: "Must be non-empty." }]);
});

test("authorize-session names each credential's origin credential_source", async () => {
  const t = await create();
  await act(t.id, "set-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
  await act(t.id, "set-credential-sources", { version: 2, brokered_credential_source_ids: ["clvlt_1234567890"] });
  const res = await c.call("POST", `/v1/targets/${t.id}:authorize-session`, {});
  expect(res.body.credentials[0].credential_source).toMatchObject({ id: "clvlt_1234567890" });
  expect(res.body.credentials[0]).not.toHaveProperty("credential_library");
});

test("lists: items without association ids, and the current empty-list shape", async () => {
  const empty = await startTestController({ emulation: "0.21" });
  try {
    expect((await empty.call("GET", `/v1/targets?scope_id=${PROJECT}`)).body).toEqual({ response_type: "complete", sort_by: "created_time", sort_dir: "desc" });
  } finally {
    await empty.shutdown();
  }
  const list = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`);
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
    await create();
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

describe("rate limits", () => {
  test("every answer carries RateLimit and Boundary's default RateLimit-Policy (list has its own quota)", async () => {
    const t = await create();
    const read = await c.call("GET", `/v1/targets/${t.id}`);
    expect(read.headers.get("ratelimit-policy")).toBe('30000;w=30;comment="total", 30000;w=30;comment="ip-address", 3000;w=30;comment="auth-token"');
    expect(read.headers.get("ratelimit")).toMatch(/^limit=3000, remaining=\d+, reset=\d+$/);
    const list = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`);
    expect(list.headers.get("ratelimit-policy")).toBe('1500;w=30;comment="total", 1500;w=30;comment="ip-address", 150;w=30;comment="auth-token"');
  });

  test("a configured quota: refused with 429, an empty body and Retry-After once spent; served again after the window", async () => {
    const small = await startTestController({ emulation: "0.21", rateLimits: [{ action: "*", per: "auth-token", limit: 3, periodMs: 1000 }] });
    try {
      const get = () => small.call("GET", "/v1/targets/ttcp_1234567890");
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 3; i++) remaining.push((await get()).headers.get("ratelimit"));
      expect(remaining.map((r) => /remaining=(\d+)/.exec(r!)![1])).toEqual(["2", "1", "0"]);
      const refused = await get();
      expect(refused.status).toBe(429);
      expect(refused.text).toBe("");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get("ratelimit")).toMatch(/^limit=3, remaining=0, reset=\d+$/);
      await until(async () => (await get()).status !== 429, "the window to reset", 3000);
    } finally {
      await small.shutdown();
    }
  });

  test("the config file sets them as Boundary reads it; api_rate_limit_disable turns them off", async () => {
    const cfg = loadDevConfig(
      ["--config", "dev.hcl"],
      () =>
        'controller {\n  emulate = "0.21"\n  api_rate_limit {\n    resources = ["*"]\n    actions = ["list"]\n    per = "auth-token"\n    limit = 10\n    period = "1m"\n  }\n}\n',
    );
    expect(cfg.rateLimits).toEqual([{ action: "list", per: "auth-token", limit: 10, periodMs: 60_000 }]);
    expect(loadDevConfig(["--config", "dev.hcl"], () => "controller {\n  api_rate_limit_disable = true\n}\n").rateLimits).toBe("disabled");
    const off = await startTestController({ emulation: "0.21", rateLimits: "disabled" });
    try {
      expect((await off.call("GET", `/v1/targets?scope_id=${PROJECT}`)).headers.get("ratelimit")).toBeNull();
    } finally {
      await off.shutdown();
    }
  });
});

describe("what v0.21.3 answers for its own client (section 2 of the release table's issue)", () => {
  test('every view carries "address": "" when a Target has none: create, read, update, the actions and list items', async () => {
    const created = await create({ name: "no-address" });
    expect(created.address).toBe("");
    expect((await c.call("GET", `/v1/targets/${created.id}`)).body.address).toBe("");
    const patched = await c.call("PATCH", `/v1/targets/${created.id}`, { version: 1, description: "d" });
    expect(patched.body.address).toBe("");
    const acted = await act(created.id, "set-host-sources", { version: 2, host_source_ids: ["hsst_1234567890"] });
    expect(acted.body).toMatchObject({ address: "", host_source_ids: ["hsst_1234567890"] });
    const listed = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent(`"/item/id" == "${created.id}"`)}`);
    expect(listed.body.items[0].address).toBe("");
    // and the filter sees the item as listed
    const empty = await c.call(
      "GET",
      `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent(`"/item/id" == "${created.id}" and "/item/address" == ""`)}`,
    );
    expect(empty.body.items).toHaveLength(1);
  });

  const at = (repo: string) => `target.(Repository).${repo}: db.DoTx: target.(Repository).${repo}`;
  test.each([
    ["add-host-sources", { host_source_ids: ["hsst_1234567890"] }, "Failed to add target host sources"],
    [
      "remove-host-sources",
      { host_source_ids: ["hsst_1234567891"] },
      `Unable to remove host sources from target: ${at("DeleteTargetHostSources")}: target host sources deleted 0 did not match request for 1: search issue: error #1101.`,
    ],
    [
      "remove-credential-sources",
      { brokered_credential_source_ids: ["clvlt_1234567890"] },
      /^Unable to remove credential sources from target: target\.\(Repository\)\.DeleteTargetCredentialSources: db\.DoTx: .*credential libraries deleted 0 did not match request for 1: search issue: error #1101\.$/,
    ],
  ])(
    "the actions' 500s in v0.21.3's words (add host sources says only that it failed; remove wraps the repository's error): :%s",
    async (action, ids, message) => {
      const t = await create();
      await act(t.id, "set-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
      const res = await act(t.id, action, { version: 2, ...ids });
      expect([res.status, res.body.kind]).toEqual([500, "Internal"]);
      if (typeof message === "string") expect(res.body).toEqual({ kind: "Internal", message });
      else expect(res.body.message).toMatch(message);
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(2);
    },
  );

  test("the update mask is the body's fields, nested ones included: clearing default_client_port with another field is one PATCH; default_port is checked only when in the mask", async () => {
    const t = await create({ name: "mask", attributes: { default_port: 22, default_client_port: 2222 } });
    const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, description: "d", attributes: { default_client_port: null } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 2, description: "d", attributes: { default_port: 22 } });
    expect(res.body.attributes).not.toHaveProperty("default_client_port");
    // naming default_port in the mask still requires it
    const port = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=attributes.default_port`, { version: 2 });
    expect(port.body.details.request_fields).toEqual([{ name: "attributes.default_port", description: "This field is required." }]);
  });

  test.each([
    ["PATCH", "", { version: 0, description: "d" }, "Error in provided request.", "Existing resource version is required for an update."],
    ["POST", ":add-host-sources", { version: 0, host_source_ids: ["hsst_1234567890"] }, "Errors in provided fields.", "Required field."],
  ])("a version 0 is missing, in the validators' words: %s …%s", async (method, action, body, message, description) => {
    const t = await create();
    const res = await c.call(method, `/v1/targets/${t.id}${action}`, body);
    expect(res.body).toEqual({ kind: "InvalidArgument", message, details: { request_fields: [{ name: "version", description }] } });
  });

  test("ids: letters, digits and _ only (400, in each verifier's words); a segment without _ is an alias value (404 when unknown)", async () => {
    const words = {
      GET: "Invalid formatted identifier.",
      PATCH: "Improperly formatted path identifier.",
      DELETE: "Incorrectly formatted identifier.",
    } as const;
    for (const [method, description] of Object.entries(words)) {
      const res = await c.call(method, "/v1/targets/ttcp_1234-567890", method === "PATCH" ? { version: 1, description: "x" } : undefined);
      expect([method, res.status, res.body.details.request_fields]).toEqual([method, 400, [{ name: "id", description }]]);
    }
    const action = await act("ttcp_12345.67890", "add-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
    expect(action.body).toEqual({
      kind: "InvalidArgument",
      message: "Errors in provided fields.",
      details: { request_fields: [{ name: "id", description: "Incorrectly formatted identifier." }] },
    });
    for (const alias of ["no-such-alias.example", "xyz"])
      expect(await c.call("GET", `/v1/targets/${alias}`)).toMatchObject({ status: 404, body: { kind: "NotFound", message: "Resource not found." } });
  });
});

describe("aliases (0.16+)", () => {
  test("with_aliases on create makes them; the aliases field shows them; their values name the Target in every path", async () => {
    const res = await c.call("POST", "/v1/targets", {
      scope_id: PROJECT,
      name: "aliased",
      type: "tcp",
      attributes: { default_port: 22 },
      with_aliases: [{ value: "db.prod.example", scope_id: "global" }],
    });
    expect(res.status).toBe(200);
    const t = res.body;
    expect(t.aliases).toEqual([{ id: expect.stringMatching(/^alt_[0-9A-Za-z]{10}$/), value: "db.prod.example" }]);
    expect(t).not.toHaveProperty("with_aliases");
    // the value in place of the id, case-insensitively: read, update, the actions, authorize-session
    expect((await c.call("GET", "/v1/targets/DB.prod.example")).body.id).toBe(t.id);
    const patched = await c.call("PATCH", "/v1/targets/db.prod.example", { version: 1, description: "by alias" });
    expect(patched.body).toMatchObject({ id: t.id, version: 2, description: "by alias" });
    // TS UpdateTarget answers the repository's updated Target, which carries no aliases; a read does
    expect(patched.body).not.toHaveProperty("aliases");
    expect((await c.call("GET", `/v1/targets/${t.id}`)).body.aliases).toEqual(t.aliases);
    const acted = await act("db.prod.example", "set-host-sources", { version: 2, host_source_ids: ["hsst_1234567890"] });
    expect(acted.body).toMatchObject({ id: t.id, host_source_ids: ["hsst_1234567890"] });
    const session = await act("db.prod.example", "authorize-session", {});
    expect(session.body.target_id).toBe(t.id);
    // list items carry no aliases (the list query loads none)
    const listed = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent(`"/item/id" == "${t.id}"`)}`);
    expect(listed.body.items[0]).not.toHaveProperty("aliases");
    // deleted: the alias points nowhere, and names nothing
    expect((await c.call("DELETE", "/v1/targets/db.prod.example")).status).toBe(204);
    expect((await c.call("GET", "/v1/targets/db.prod.example")).status).toBe(404);
  });

  test("with_aliases in Boundary's order: the validator's fields, the aliases' scopes (403, or iam's 500), then the repository (500 for a value, 400 for a taken one); nothing is made", async () => {
    const t = await create({ name: "alias-rules" });
    const update = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, description: "x", with_aliases: [{ value: "late.example" }] });
    expect(update.body.details.request_fields).toEqual([{ name: "with_aliases", description: "This field can only be set at target creation time." }]);
    const before = c.store.size;
    const make = (name: string, aliases: object[]) =>
      c.call("POST", "/v1/targets", { scope_id: PROJECT, name, type: "tcp", attributes: { default_port: 22 }, with_aliases: aliases });
    expect((await make("first-alias", [{ value: "taken.example", scope_id: "global" }])).status).toBe(200);
    // TS validateCreateRequest: only value, scope_id and attributes
    const extra = await make("bad-alias", [{ value: "x.example", scope_id: "global", id: "alt_1234567890" }]);
    expect(extra.body.details.request_fields).toEqual([
      { name: "with_aliases", description: "Included aliases can only specify a value, a scope id, and attributes." },
    ]);
    // TS aliasCreateAuthResult, before the repository: a project is no scope for an alias, even with a value the repository would refuse
    expect((await make("bad-alias", [{ value: "under_score.example", scope_id: PROJECT }])).body).toEqual({ kind: "PermissionDenied", message: "Forbidden." });
    expect((await make("bad-alias", [{ value: "ok.example" }])).body).toEqual({
      kind: "Internal",
      message: "iam.(Repository).LookupScope: missing public id: parameter violation: error #100",
    });
    // internal/target/repository.go CreateTarget: the alias domain's check constraint, in the create's transaction
    const shape = await make("bad-alias", [{ value: "under_score.example", scope_id: "global" }]);
    expect(shape.status).toBe(500);
    expect(shape.body.message).toMatch(
      /^targets\.\(Service\)\.createInRepo: unable to create target: target\.\(Repository\)\.CreateTarget: failed for ttcp_[0-9A-Za-z]{10} target id: db\.DoTx: target\.\(Repository\)\.CreateTarget: unable to create target alias: db\.Create: wt_target_alias_value_shape constraint failed: check constraint violated: integrity violation: error #1000$/,
    );
    // a value taken, case-insensitively: handlers/errors.go's uniqueness 400, naming no field
    expect((await make("second-alias", [{ value: "TAKEN.example", scope_id: "global" }])).body).toEqual({ kind: "InvalidArgument", message: UNIQUENESS });
    expect(c.store.size).toBe(before + 1);
  });

  test("aliases declared in the fixtures: one pointing nowhere names nothing (404), and its value cannot be taken again", async () => {
    const fixtures = defaultFixtures();
    fixtures.aliases = [{ id: "alt_1234567890", value: "seeded.example", scope_id: "global" }];
    const seeded = await startTestController({ emulation: "0.21", fixtures });
    try {
      expect(await seeded.call("GET", "/v1/targets/seeded.example")).toMatchObject({ status: 404, body: { kind: "NotFound", message: "Resource not found." } });
      const res = await seeded.call("POST", "/v1/targets", {
        scope_id: PROJECT,
        name: "t",
        type: "tcp",
        attributes: { default_port: 22 },
        with_aliases: [{ value: "seeded.example", scope_id: "global" }],
      });
      expect(res.status).toBe(400);
      expect(() => parseFixtures({ ...fixtures, aliases: [{ id: "alt_1234567890", value: "bad_value" }] })).toThrow(
        /fixtures: aliases\.0\.value: "bad_value" must be a DNS name/,
      );
    } finally {
      await seeded.shutdown();
    }
  });

  test("before 0.16 there are no aliases: with_aliases is discarded and a segment without _ is a malformed id", async () => {
    const older = await startTestController({ emulation: "0.15" });
    try {
      const t = await older.call("POST", "/v1/targets", {
        scope_id: PROJECT,
        name: "t",
        type: "tcp",
        attributes: { default_port: 22 },
        with_aliases: [{ value: "db.example", scope_id: "global" }],
      });
      expect(t.status).toBe(200);
      expect(t.body).not.toHaveProperty("aliases");
      expect((await older.call("GET", "/v1/targets/db.example")).status).toBe(400);
    } finally {
      await older.shutdown();
    }
  });
});
