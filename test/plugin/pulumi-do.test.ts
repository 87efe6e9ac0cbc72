/**
 * `pulumi do` against the plugin, replayed over gRPC exactly as the CLI sends its requests
 * (test/helpers/pulumi-do.ts): Configure only, with nulls, the address and token only in the
 * plugin's environment; create, read by id, patch, upsert, delete; and `list` over an estate of
 * 2,100 Targets in two projects, on a controller of each kind of list: paginated (0.21), whole
 * (0.14), and the spec's.
 */
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { ADMIN_TOKEN, OTHER_PROJECT, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { callCounts, callsBetween } from "../helpers/metrics";
import { pulumiDo, type PulumiDo } from "../helpers/pulumi-do";
import { packedProgram, startPlugin, type Host } from "../../harness/provider-host";
import { UNKNOWN } from "../../harness/engine";
import type { Emulation } from "../../controller";

const ESTATE = 2100;
const EVERYTHING = { scopeId: "global", recursive: true };
const INVALID_ARGUMENT = 3;
const FAILED_PRECONDITION = 9;

let program: string;
/**
 * The plugin processes of the three tests below, each as its test starts it, started at once in
 * beforeAll (each spends seconds loading Pulumi's SDK) and all up before the first test; each test
 * stops its own, and afterAll whatever is left.
 */
const plugins = new Map<string, Promise<Host>>();
const plugin = (name: string) => plugins.get(name)!;
beforeAll(async () => {
  program = packedProgram();
  plugins.set("schema", startPlugin(program));
  plugins.set("unconfigured", startPlugin(program));
  plugins.set("no address", startPlugin(program, { env: { BOUNDARY_ADDR: "", BOUNDARY_TOKEN: ADMIN_TOKEN } }));
  await Promise.all([...plugins.values()].map((p) => p.catch(() => undefined)));
}, 120_000);
afterAll(async () => {
  await Promise.all(
    [...plugins.values()].map((p) =>
      p.then(
        (host) => host.stop(),
        () => undefined,
      ),
    ),
  );
}, 60_000);

test("GetSchema declares listInputs (scopeId, recursive, filter) as an objectTypeSpec, and the whole schema validates against Pulumi's metaschema", async () => {
  const p = await plugin("schema");
  try {
    const schema = await pulumiDo(p).engine.getSchema();
    expect(schema.resources["boundary:index:Target"].listInputs).toEqual({
      type: "object",
      description: expect.stringContaining("pulumi do boundary:index:Target list"),
      properties: {
        scopeId: { type: "string", description: expect.any(String) },
        recursive: { type: "boolean", description: expect.any(String) },
        filter: { type: "string", description: expect.any(String) },
      },
      required: ["scopeId"],
    });
    // Pulumi's own metaschema (pulumi/pulumi pkg/codegen/schema/pulumi.json, Apache-2.0), kept as a fixture
    const metaschema = JSON.parse(readFileSync(path.join(__dirname, "../fixtures/pulumi-package-metaschema.json"), "utf8"));
    // the metaschema names two formats ajv does not know by itself (ajv-formats would check them; the shape is what counts here)
    const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { regex: true, "uri-reference": true } });
    const validate = ajv.compile(metaschema);
    expect(validate(schema) ? [] : validate.errors).toEqual([]);
    // the check can fail: listInputs of the wrong shape is refused
    expect(validate({ ...schema, resources: { "boundary:index:Target": { listInputs: { properties: { scopeId: { type: "strung" } } } } } })).toBe(false);
  } finally {
    await p.stop();
  }
});

test("List before Configure is FailedPrecondition; a misspelt config key is refused naming the nearest one", async () => {
  const p = await plugin("unconfigured");
  try {
    const d = pulumiDo(p);
    await expect(d.list(EVERYTHING)).rejects.toMatchObject({ code: FAILED_PRECONDITION, details: expect.stringContaining("not configured") });
    await expect(d.engine.configure({}, { "boundary:config:address": "http://127.0.0.1:1" })).rejects.toThrow(
      /boundary:address is not a config key of the boundary provider: did you mean boundary:addr\?/,
    );
    expect((await d.engine.checkConfig({ adr: "http://127.0.0.1:1" })).failures).toEqual(["adr"]);
  } finally {
    await p.stop();
  }
});

test("with no address anywhere (nulls, no BOUNDARY_ADDR), a refused connection says the default address was used and how to set one", async () => {
  const free = await new Promise<boolean>((resolve) => {
    const socket = connect(9200, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(true));
  });
  if (!free) return console.warn("something listens on 127.0.0.1:9200, the default address: this test cannot see the message");
  const p = await plugin("no address");
  try {
    const d = pulumiDo(p);
    await d.configure();
    await expect(d.read("ttcp_1234567890")).rejects.toMatchObject({
      details: expect.stringContaining(
        "no controller answers at http://127.0.0.1:9200, the default address: neither boundary:addr nor BOUNDARY_ADDR is set. " +
          "Is the controller running, and is that its API address? Set it with `pulumi config set boundary:addr <address>` (or BOUNDARY_ADDR)",
      ),
    });
  } finally {
    await p.stop();
  }
});

describe.each(["0.21", "0.14", "spec"] as Emulation[])("pulumi do on --emulate %s", (emulation) => {
  let c: TestController;
  let p: Host;
  let d: PulumiDo;
  /** Every Target id the controller holds now, from its store. */
  const stored = () => c.store.listTargets("global", true).map((t) => t.id);

  beforeAll(async () => {
    c = await startTestController({ emulation });
    // the address and token only in the environment, as `pulumi do` users set them; the plugin
    // starts while the estate is filled in (it asks nothing before Configure)
    const starting = startPlugin(program, { env: { BOUNDARY_ADDR: c.apiUrl, BOUNDARY_TOKEN: ADMIN_TOKEN } });
    for (let i = 0; i < ESTATE; i++)
      c.store.createTarget({ scope_id: i % 2 ? PROJECT : OTHER_PROJECT, name: `t-${i}`, type: "tcp", attributes: { default_port: 22 } });
    p = await starting;
    d = pulumiDo(p);
    await d.configure();
  }, 60_000);
  afterAll(async () => {
    await p?.stop();
    await c?.shutdown();
  });

  test("list --all: every Target of the estate once, in pages of at most Boundary's page", async () => {
    const all = await d.listAll(EVERYTHING);
    expect(all.ids.length).toBe(ESTATE);
    expect(new Set(all.ids)).toEqual(new Set(stored()));
    expect(new Set(all.names).size).toBe(ESTATE);
    expect(Math.max(...all.pages)).toBeLessThanOrEqual(1000);
  });

  test("list --all with a page size: pages of that size, every Target once; one project alone", async () => {
    const all = await d.listAll(EVERYTHING, { pageSize: 300 });
    expect(all.pages.slice(0, 7)).toEqual([300, 300, 300, 300, 300, 300, 300]);
    expect(all.ids.length).toBe(ESTATE);
    expect(new Set(all.ids)).toEqual(new Set(stored()));
    const one = await d.listAll({ scopeId: PROJECT }, { pageSize: 400 });
    expect(one.ids.length).toBe(ESTATE / 2);
    expect(new Set(one.ids)).toEqual(new Set(c.store.listTargets(PROJECT, false).map((t) => t.id)));
  });

  test("list --count 1500: the limit lowered on each call, the budget kept in the token; the default lists one page", async () => {
    const counted = await d.listCount(EVERYTHING, 1500);
    expect(counted.limits).toEqual([1500, 500]);
    expect(new Set(counted.ids).size).toBe(1500);
    // a follow-up resent with a larger limit still stops at the first call's budget
    const first = await d.list(EVERYTHING, { limit: 1200, pageSize: 1000 });
    const second = await d.list(EVERYTHING, { limit: 5000, token: first.continuation });
    expect([first.results.length, second.results.length, second.continuation]).toEqual([1000, 200, ""]);
    const one = await d.list(EVERYTHING);
    expect(one.results.length).toBe(1000);
    expect(one.continuation).not.toBe("");
  });

  test("Targets created, updated and deleted between pages: each Target that lived throughout is listed exactly once", async () => {
    const before = new Set(stored());
    const listed: string[] = [];
    const created: string[] = [];
    const deleted: string[] = [];
    let token = "";
    for (let n = 0; ; n++) {
      const page = await d.list(EVERYTHING, { pageSize: 500, token });
      listed.push(...page.results.map((r) => r.id));
      token = page.continuation ?? "";
      if (!token) break;
      await new Promise((r) => setTimeout(r, 5));
      // a new Target, an update of one not listed yet, a deletion of one listed and of one not listed yet
      created.push(c.store.createTarget({ scope_id: PROJECT, name: `new-${emulation}-${n}`, type: "tcp", attributes: { default_port: 22 } }).id);
      const unlisted = [...before].filter((id) => !listed.includes(id) && !deleted.includes(id));
      if (unlisted.length > 1)
        c.store.updateTarget(unlisted[0]!, { description: `changed ${n}`, version: c.store.getTarget(unlisted[0]!).version }, ["description"]);
      for (const id of [listed[n]!, ...(unlisted.length > 1 ? [unlisted[unlisted.length - 1]!] : [])]) {
        c.store.deleteTarget(id);
        deleted.push(id);
      }
    }
    expect(new Set(listed).size).toBe(listed.length); // nobody twice
    const throughout = [...before].filter((id) => !deleted.includes(id));
    for (const id of throughout) expect(listed).toContain(id);
    for (const id of deleted.filter((id) => !listed.includes(id))) expect(listed).not.toContain(id);
    // Boundary's refresh pass finds every Target created meanwhile; a whole-list release only those whose id orders after the cursor
    if (emulation === "0.21") for (const id of created) expect(listed).toContain(id);
    for (const id of [...created, ...deleted]) if (c.store.listTargets("global", true).some((t) => t.id === id)) c.store.deleteTarget(id);
  });

  test("a filter is Boundary's; a bad one, a bogus or foreign token, a negative limit or page size are InvalidArgument before any call", async () => {
    const filtered = await d.listAll({ ...EVERYTHING, filter: '"/item/name" matches "^t-1[0-9]$"' });
    // what the store holds now (the test above deletes Targets it picks by the list's order, ties in created time included)
    const matching = c.store
      .listTargets("global", true)
      .map((t) => t.name ?? "")
      .filter((name) => /^t-1[0-9]$/.test(name));
    expect(matching.length).toBeGreaterThanOrEqual(5);
    expect(filtered.names.sort()).toEqual(matching.sort());
    const before = await callCounts(c.opsUrl);
    const refused = [
      d.list({ ...EVERYTHING, filter: '"/item/name" matches' }),
      d.list(EVERYTHING, { token: "bogus" }),
      d.list(EVERYTHING, { limit: -1 }),
      d.list(EVERYTHING, { pageSize: -5 }),
      d.list({ ...EVERYTHING, colour: "red" }),
      d.list(EVERYTHING, { type: "boundary:index:HostSet" }),
    ];
    for (const r of refused) await expect(r).rejects.toMatchObject({ code: INVALID_ARGUMENT });
    await expect(d.list({ ...EVERYTHING, filter: "x" })).rejects.toMatchObject({ details: expect.stringMatching(/^filter: /) });
    const first = await d.list(EVERYTHING, { pageSize: 10 });
    await expect(d.list({ scopeId: PROJECT }, { token: first.continuation })).rejects.toMatchObject({
      code: INVALID_ARGUMENT,
      details: expect.stringContaining("another query"),
    });
    expect(callsBetween(before, await callCounts(c.opsUrl))).toEqual({ "GET /v1/targets": 1 }); // the one page asked above
    expect(await d.list({ ...EVERYTHING, filter: UNKNOWN })).toEqual({ results: [], continuation: undefined, computed: true });
  });

  test("create (nameless: Target-<7 hex>), read by id with empty state, patch, upsert, delete", async () => {
    const made = await d.create({ scopeId: PROJECT, description: "made by pulumi do", defaultPort: 22 });
    expect(made.props.name).toMatch(/^Target-[0-9a-f]{7}$/);
    const read = await d.read(made.id);
    expect(read!.inputs).toMatchObject({ scopeId: PROJECT, name: made.props.name, description: "made by pulumi do" });

    const patched = await d.patch(made.id, { description: "patched" });
    expect(patched.diff.replaces).toEqual([]);
    expect(patched.props).toMatchObject({ description: "patched", version: made.props.version + 1 });
    // an unchanged patch is sent anyway, and changes nothing
    const same = await d.patch(made.id, {});
    expect(same.diff.changes).toBe(d.engine.proto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(same.props.version).toBe(patched.props.version);

    // upsert replaces the inputs wholesale: the description it does not give goes
    const upserted = await d.upsert(made.id, { scopeId: PROJECT, name: made.props.name, defaultPort: 22 });
    expect(upserted.id).toBe(made.id);
    expect(upserted.props.description).toBeUndefined();
    const fresh = await d.upsert("ttcp_0000000000", { scopeId: PROJECT, name: `upserted-${emulation}`, defaultPort: 22 });
    expect(fresh.id).not.toBe("ttcp_0000000000");

    for (const id of [made.id, fresh.id]) await d.delete(id);
    expect(await d.read(made.id)).toBeUndefined();
    await expect(d.delete(made.id)).rejects.toThrow(/was not found/);
  });

  test("patch of a field that forces replacement is refused, naming the field and what to do; the Target is unchanged", async () => {
    const made = await d.create({ scopeId: PROJECT, name: `moving-${emulation}`, defaultPort: 22 });
    const error = await d.patch(made.id, { scopeId: OTHER_PROJECT }).catch((err: unknown) => err);
    expect(String((error as { details?: string }).details)).toMatch(/scopeId cannot change in place.*pulumi up.*delete it and create a new one/);
    const after = await d.read(made.id);
    expect(after!.props).toMatchObject({ scopeId: PROJECT, version: made.props.version });
    await d.delete(made.id);
  });
});
