/**
 * The dynamic provider (the adapter over the core that Pulumi's host calls) in process against the
 * real controller in each mode: ours (applies lists on create), Boundary v0.4.0 (ignores them;
 * stale versions 404/500) and current Boundary v0.21.3 (current names and actions, a default port
 * required, egress filters instead of worker filters), with the API calls counted from the
 * controller's /metrics.
 */
import { DynamicTargetProvider } from "../../provider/resource/dynamic";
import { CreateOutcomeUnknownError, ResourceInitError } from "../../provider/errors";
import type { TargetState } from "../../provider/resource/state";
import type { TargetInputs } from "../../provider/resource/inputs";
import { BoundaryClient } from "../../provider/client";
import { requires } from "../../wire/releases";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { startFaultProxy } from "../helpers/fault-proxy";
import { countCalls } from "../helpers/metrics";
import { MATRIX, facts } from "../helpers/releases";

const PROVIDER_TEXT = "exports.handler = () => ({});"; // stands for the serialized provider

/** Against every release of the matrix: how each differs, as the provider sees it, is the release table's. */
describe.each(MATRIX)("--emulate %s", (mode) => {
  const f = facts(mode);
  const m = { createVersion: f.r.createAppliesLists ? 1 : 3, connectionLimit: f.connectionLimit };
  const portRequired = requires(f.r, "defaultPort");
  const ignoreCreateAssociations = !f.r.createAppliesLists;
  const [filterWire, filterInput] = f.filter === "worker_filter" ? ["worker_filter", "workerFilter"] : ["egress_worker_filter", "egressWorkerFilter"];
  // the provider goes by each list's newest action once the first answer told it the release
  const setHostSets = `POST /v1/targets/{id}:set-${f.hosts.noun}`;
  const setCreds = `POST /v1/targets/{id}:set-${f.creds.noun}`;
  /** The Target's ids of a list, under the names the release answers it by. */
  const ids = (t: Record<string, unknown>, list: "hosts" | "creds") => t[(list === "hosts" ? f.hosts : f.creds).answers.at(-1)!] as string[] | undefined;
  let c: TestController;
  let provider: DynamicTargetProvider;
  let raw: BoundaryClient;
  let n = 0;
  const program = (extra: Partial<TargetInputs> = {}): TargetInputs => ({
    scopeId: PROJECT,
    name: `p-${mode}-${++n}`,
    hostSetIds: ["hsst_1234567891", "hsst_1234567890"],
    applicationCredentialLibraryIds: ["clvlt_1234567890"],
    description: "managed by pulumi",
    // required since Boundary 0.9
    ...(portRequired && { defaultPort: 22 }),
    ...extra,
  });
  const calls = <T>(fn: () => Promise<T>) => countCalls(c.opsUrl, fn);

  beforeAll(async () => {
    c = await startTestController({ emulation: mode });
    provider = new DynamicTargetProvider({ addr: c.apiUrl, token: ADMIN_TOKEN });
    provider.core.warn = jest.fn();
    raw = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN }, {});
  });
  afterAll(async () => {
    await provider.core.client.close();
    await raw.close();
    await c.shutdown();
  });

  test("create: POST, plus one set-* per list the POST did not apply, versions threaded", async () => {
    const inputs = program();
    const { result, calls: made } = await calls(() => provider.create(inputs));
    const expected: Record<string, number> = { "POST /v1/targets": 1 };
    if (ignoreCreateAssociations) {
      expected[setHostSets] = 1;
      expected[setCreds] = 1;
    }
    expect(made).toEqual(expected);
    expect(result.id).toMatch(/^ttcp_/);
    expect(result.outs).toMatchObject({
      scopeId: PROJECT,
      name: inputs.name,
      description: "managed by pulumi",
      type: "tcp",
      hostSetIds: ["hsst_1234567890", "hsst_1234567891"],
      applicationCredentialLibraryIds: ["clvlt_1234567890"],
      sessionMaxSeconds: 28800,
      sessionConnectionLimit: m.connectionLimit, // the controller's default (1 until Boundary 0.9.1)
      version: m.createVersion,
      scope: { id: PROJECT, type: "project" },
      hostSets: [
        { id: "hsst_1234567890", hostCatalogId: "hcst_1234567890" },
        { id: "hsst_1234567891", hostCatalogId: "hcst_1234567890" },
      ],
      applicationCredentialLibraries: [{ id: "clvlt_1234567890", credentialStoreId: "csvlt_1234567890" }],
      __managed: ["scopeId", "name", "description", "hostSetIds", "applicationCredentialLibraryIds", ...(portRequired ? ["defaultPort"] : [])],
    });
    expect(result.outs.authorizedActions).toContain("authorize-session");
    expect((await raw.getTarget(result.id)).version).toBe(result.outs.version);
  });

  test("read is one GET returning state and the managed inputs; an unchanged target needs no call", async () => {
    const inputs = program();
    const created = await provider.create(inputs);
    const { result: read, calls: readCalls } = await calls(() => provider.read(created.id, created.outs));
    expect(readCalls).toEqual({ "GET /v1/targets/{id}": 1 });
    expect(read.props).toEqual(created.outs);
    expect(read.inputs).toEqual({
      scopeId: PROJECT,
      name: inputs.name,
      description: inputs.description,
      hostSetIds: ["hsst_1234567890", "hsst_1234567891"],
      applicationCredentialLibraryIds: ["clvlt_1234567890"],
      ...(inputs.defaultPort && { defaultPort: inputs.defaultPort }),
    });
    const { result: diff, calls: diffCalls } = await calls(() => provider.diff(created.id, read.props, inputs));
    expect(diff).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(diffCalls).toEqual({});
  });

  test.each([
    ["a scalar", { description: "changed" }, { "PATCH /v1/targets/{id}": 1 }],
    ["the host sets only", { hostSetIds: ["hsst_1234567890"] }, { [setHostSets]: 1 }],
    [
      "a scalar and both lists",
      { sessionMaxSeconds: 60, hostSetIds: [], applicationCredentialLibraryIds: ["clvlt_1234567891"] },
      {
        "PATCH /v1/targets/{id}": 1,
        [setHostSets]: 1,
        [setCreds]: 1,
      },
    ],
  ])("update of %s makes only those calls, threading the version", async (_what, change, expected) => {
    const inputs = program();
    const created = await provider.create(inputs);
    const news = { ...inputs, ...change };
    expect((await provider.diff(created.id, created.outs as TargetState, news)).changes).toBe(true);
    const { result, calls: made } = await calls(() => provider.update(created.id, created.outs as TargetState, news));
    expect(made).toEqual(expected);
    expect(result.outs).toMatchObject(change);
    const server = await raw.getTarget(created.id);
    expect(server.version).toBe((created.outs.version as number) + Object.keys(expected).length);
    expect(result.outs!.version).toBe(server.version);
  });

  test("removing a field from the program resets it to the controller's default", async () => {
    const inputs = program({ sessionMaxSeconds: 60, defaultPort: 22 });
    const created = await provider.create(inputs);
    // current releases require the default port: it stays in the program there
    // the fields the new program leaves out
    const { description, sessionMaxSeconds, defaultPort, applicationCredentialLibraryIds, ...rest } = inputs;
    const news = portRequired ? { ...rest, defaultPort } : rest;
    const { result, calls: made } = await calls(() => provider.update(created.id, created.outs as TargetState, news));
    expect(made).toEqual({ "PATCH /v1/targets/{id}": 1, [setCreds]: 1 });
    const server = await raw.getTarget(created.id);
    expect(server.description).toBeUndefined();
    expect(server.session_max_seconds).toBe(28800);
    expect(server.attributes).toEqual(portRequired ? { default_port: 22 } : {});
    expect(server).toHaveProperty(f.hosts.field); // the list is read under this release's name
    expect(ids(server, "creds")).toBeUndefined();
    expect(result.outs!.__managed).toEqual(["scopeId", "name", "hostSetIds", ...(portRequired ? ["defaultPort"] : [])]);
  });

  test("a field the program never set is left alone, even when the server's value changes", async () => {
    const inputs = program();
    const created = await provider.create(inputs);
    await raw.updateTarget(created.id, created.outs.version, [filterWire], { [filterWire]: '"dev" in "/tags/type"' });
    const refreshed = await provider.read(created.id, created.outs);
    expect(refreshed.props[filterInput]).toBe('"dev" in "/tags/type"');
    expect((await provider.diff(created.id, refreshed.props, inputs)).changes).toBe(false);
  });

  test("drift on a managed field shows after a refresh, field by field", async () => {
    const inputs = program();
    const created = await provider.create(inputs);
    await raw.updateTarget(created.id, created.outs.version, ["description"], { description: "edited in the UI" });
    const refreshed = await provider.read(created.id, created.outs);
    expect(refreshed.inputs.description).toBe("edited in the UI");
    // the name is the program's: were the engine to replace it (replaceOnChanges), the old one must go first
    expect(await provider.diff(created.id, refreshed.props, inputs)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true });
  });

  test("a version conflict mid-update: re-read, warn naming what changed outside, retry once, keep unmanaged fields", async () => {
    const inputs = program();
    const created = await provider.create(inputs);
    // someone edits the target outside Pulumi: a field the program does not manage
    await raw.updateTarget(created.id, created.outs.version, [filterWire], { [filterWire]: '"dev" in "/tags/type"' });
    const warn = jest.fn();
    provider.core.warn = warn;
    const news = { ...inputs, description: "new", hostSetIds: ["hsst_1234567890"] };
    const { result, calls: made } = await calls(() => provider.update(created.id, created.outs as TargetState, news));
    expect(made).toEqual({
      "PATCH /v1/targets/{id}": 2, // the stale one (409, or 404 on Boundary) and the retry
      "GET /v1/targets/{id}": 1,
      [setHostSets]: 1,
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toBe(
      `target ${created.id} was changed outside Pulumi (version ${created.outs.version} → ${created.outs.version + 1}; changed: ${filterInput}); ` +
        `retrying once from the current version.`,
    );
    const server = await raw.getTarget(created.id);
    expect(server).toMatchObject({ description: "new", [filterWire]: '"dev" in "/tags/type"' });
    expect(ids(server, "hosts")).toEqual(["hsst_1234567890"]);
    expect(result.outs!.version).toBe(server.version);
  });

  test("a target deleted outside Pulumi disappears on read, and its delete succeeds", async () => {
    const created = await provider.create(program());
    await raw.deleteTarget(created.id);
    expect(await provider.read(created.id, created.outs)).toEqual({ id: "" });
    await expect(provider.delete(created.id)).resolves.toBeUndefined();
  });

  test("delete is one DELETE", async () => {
    const created = await provider.create(program());
    const { calls: made } = await calls(() => provider.delete(created.id));
    expect(made).toEqual({ "DELETE /v1/targets/{id}": 1 });
  });

  test("bad input is refused at the core's door: no API call, nothing created", async () => {
    const before = (await raw.listTargets({ scopeId: PROJECT })).length;
    const { result, calls: made } = await calls(() => provider.create({ scopeId: PROJECT, name: "bad-filter", workerFilter: "((" }).catch((e: unknown) => e));
    expect(String(result)).toMatch(/workerFilter is not a valid filter/);
    expect(made).toEqual({});
    expect((await raw.listTargets({ scopeId: PROJECT })).length).toBe(before);
  });
});

describe("a failure after create leaves no orphan", () => {
  test("the Target is recorded as a partial failure; a later up finishes it and destroy removes it", async () => {
    const c = await startTestController({ ignoreCreateAssociations: true });
    const provider = new DynamicTargetProvider({ addr: c.apiUrl, token: ADMIN_TOKEN });
    const raw = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN }, {});
    try {
      // the POST succeeds (v0.4 ignores the lists), then :set-host-sets fails on an unknown host set
      const inputs = { scopeId: PROJECT, name: "half-made", hostSetIds: ["hsst_zzzzzzzzzz"], __provider: PROVIDER_TEXT };
      let err: ResourceInitError | undefined;
      try {
        await provider.create(inputs);
      } catch (e) {
        if (e instanceof ResourceInitError) err = e;
      }
      expect(err).toBeInstanceOf(ResourceInitError);
      if (!err) return;
      const [target] = await raw.listTargets({ scopeId: PROJECT, filter: '"/item/name" == "half-made"' });
      expect(err.id).toBe(target!.id);
      expect(err.properties).toMatchObject({
        name: "half-made",
        hostSetIds: [],
        version: 1,
        __provider: PROVIDER_TEXT,
        __managed: ["scopeId", "name", "hostSetIds"],
      });
      expect(Object.values(err.properties).includes(undefined)).toBe(false);
      expect(err.reasons).toEqual([
        `target ${target!.id} was created, but setting host sets failed: POST /v1/targets/${target!.id}:set-host-sets: 400 InvalidArgument: Error in ` +
          `provided request. (host_set_ids: Host set hsst_zzzzzzzzzz was not found.). It is recorded in the stack; the next \`pulumi up\` finishes it, ` +
          `\`pulumi destroy\` removes it.`,
      ]);

      // the next `pulumi up`, with the program fixed: diff against the recorded state, then update
      const fixed = { ...inputs, hostSetIds: ["hsst_1234567890"] };
      expect((await provider.diff(err.id, err.properties, fixed)).changes).toBe(true);
      const updated = await provider.update(err.id, err.properties, fixed);
      expect(updated.outs).toMatchObject({ hostSetIds: ["hsst_1234567890"], version: 2 });

      // and `pulumi destroy` of a recorded one
      await provider.delete(err.id);
      expect(await raw.listTargets({ scopeId: PROJECT })).toEqual([]);
    } finally {
      await provider.core.client.close();
      await raw.close();
      await c.shutdown();
    }
  });

  test("a failure in the middle of an update records what the controller now holds", async () => {
    const c = await startTestController();
    const provider = new DynamicTargetProvider({ addr: c.apiUrl, token: ADMIN_TOKEN });
    try {
      const created = await provider.create({ scopeId: PROJECT, name: "mid-update" });
      const news = { scopeId: PROJECT, name: "mid-update", description: "applied", hostSetIds: ["hsst_zzzzzzzzzz"], __provider: PROVIDER_TEXT };
      const err: unknown = await provider.update(created.id, created.outs as TargetState, news).catch((e: unknown) => e);
      if (!(err instanceof ResourceInitError)) throw new Error(`expected a partial failure, got ${String(err)}`);
      expect(err.properties).toMatchObject({ description: "applied", hostSetIds: [], version: 2, __provider: PROVIDER_TEXT });
      expect(err.reasons[0]).toMatch(/^updating target ttcp_\w+: setting host sets failed: /);
    } finally {
      await provider.core.client.close();
      await c.shutdown();
    }
  });
});

test("429 with Retry-After during create: retried, exactly one target", async () => {
  const c = await startTestController();
  const proxy = await startFaultProxy(c.apiUrl);
  let limited = 0;
  proxy.intercept((req) => (req.method === "POST" && limited++ === 0 ? { status: 429, headers: { "retry-after": "1" } } : undefined));
  const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN });
  try {
    const created = await provider.create({ scopeId: PROJECT, name: "rate-limited", hostSetIds: ["hsst_1234567890"] });
    expect(created.outs.hostSetIds).toEqual(["hsst_1234567890"]);
    expect(c.store.size).toBe(1);
    expect(limited).toBe(2);
  } finally {
    await provider.core.client.close();
    await proxy.close();
    await c.shutdown();
  }
});

test("configure takes boundary:addr and boundary:token from stack config", async () => {
  const c = await startTestController();
  const provider = new DynamicTargetProvider();
  const config: Record<string, string> = { "boundary:addr": c.apiUrl, "boundary:token": ADMIN_TOKEN };
  await provider.configure({ config: { get: (k: string) => config[k], require: (k: string) => config[k]! } });
  try {
    const created = await provider.create({ scopeId: PROJECT, name: "configured" });
    expect(created.id).toMatch(/^ttcp_/);
    expect(JSON.stringify(created)).not.toContain(ADMIN_TOKEN);
  } finally {
    await provider.core.client.close();
    await c.shutdown();
  }
});

describe("a create whose answer is lost", () => {
  test("the Target the controller made is found by its name and recorded, not orphaned", async () => {
    const c = await startTestController();
    const proxy = await startFaultProxy(c.apiUrl);
    proxy.intercept((req) => (req.method === "POST" && req.url === "/v1/targets" ? { status: 0, dropAnswer: true } : undefined));
    const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN });
    const warn = jest.fn();
    provider.core.warn = warn;
    try {
      const created = await provider.create({ scopeId: PROJECT, name: "answer-lost", hostSetIds: ["hsst_1234567890"] });
      expect(c.store.size).toBe(1);
      expect(created.id).toBe(c.store.listTargets(PROJECT, false)[0]!.id);
      expect(created.outs).toMatchObject({ name: "answer-lost", hostSetIds: ["hsst_1234567890"] });
      expect(warn.mock.calls[0][0]).toMatch(
        new RegExp(`^creating target "answer-lost": POST /v1/targets: .*; it was created as ${created.id} and is recorded in the stack.$`),
      );
    } finally {
      await provider.core.client.close();
      await proxy.close();
      await c.shutdown();
    }
  });

  test("when the controller made nothing, the error stands and nothing is adopted", async () => {
    const c = await startTestController();
    c.store.createTarget({ scope_id: PROJECT, name: "other-project-target", type: "tcp" });
    const proxy = await startFaultProxy(c.apiUrl);
    proxy.intercept((req) => (req.method === "POST" ? { status: 0, hang: true } : undefined));
    const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN, timeoutMs: 200, maxRetries: 0 });
    try {
      await expect(provider.create({ scopeId: PROJECT, name: "never-made" })).rejects.toThrow("POST /v1/targets: no answer within 200 ms");
      expect(c.store.size).toBe(1);
    } finally {
      await provider.core.client.close();
      await proxy.close();
      await c.shutdown();
    }
  });
});

describe("a create whose answer is lost while the controller stays away", () => {
  test("the provider keeps looking, and adopts the Target once the controller answers again", async () => {
    const c = await startTestController();
    const proxy = await startFaultProxy(c.apiUrl);
    let lookups = 0;
    // the POST is processed but its answer lost; then the first two lookups find no controller
    proxy.intercept((req) =>
      req.method === "POST" ? { status: 0, dropAnswer: true } : req.method === "GET" && ++lookups <= 2 ? { status: 0, reset: true } : undefined,
    );
    const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN, timeoutMs: 5000, maxRetries: 0 });
    provider.core.warn = jest.fn();
    try {
      const created = await provider.create({ scopeId: PROJECT, name: "came-back" });
      expect(lookups).toBe(3);
      expect(created.id).toBe(c.store.listTargets(PROJECT, false)[0]!.id);
    } finally {
      await provider.core.client.close();
      await proxy.close();
      await c.shutdown();
    }
  });

  test("when it never answers within the client timeout, the error names the Target and says how to adopt it", async () => {
    const c = await startTestController();
    const proxy = await startFaultProxy(c.apiUrl);
    proxy.intercept((req) => (req.method === "POST" ? { status: 0, dropAnswer: true } : { status: 0, reset: true }));
    const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN, timeoutMs: 1000, maxRetries: 0 });
    try {
      const started = Date.now();
      const err = await provider.create({ scopeId: PROJECT, name: "maybe-made" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CreateOutcomeUnknownError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect((err as Error).message).toMatch(
        new RegExp(
          '^creating target "maybe-made" in p_1234567890: the answer was lost \\(POST /v1/targets: .*\\), ' +
            "and the controller could not be asked afterwards whether it was created",
        ),
      );
      expect((err as Error).message).toContain("pulumi import boundary:index:Target <resource name> <its id>");
      expect(c.store.size).toBe(1); // it was made: exactly what the message warns about
    } finally {
      await provider.core.client.close();
      await proxy.close();
      await c.shutdown();
    }
  });
});

describe("a stale version answered as current Boundary does on the actions (a plain 500)", () => {
  test("is a conflict once a fresh read shows the version moved: re-read, warn, retry once", async () => {
    const c = await startTestController();
    const proxy = await startFaultProxy(c.apiUrl);
    const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN, maxRetries: 0 });
    const warn = jest.fn();
    provider.core.warn = warn;
    try {
      const created = await provider.create({ scopeId: PROJECT, name: "current-conflict" });
      await c.call("PATCH", `/v1/targets/${created.id}`, { version: 1, description: "changed outside" }); // version 1 → 2
      let sets = 0;
      proxy.intercept((req) =>
        req.url?.endsWith(":set-host-sets") && ++sets === 1
          ? { status: 500, body: JSON.stringify({ kind: "Internal", message: "Failed to set target host sources" }) }
          : undefined,
      );
      const updated = await provider.update(created.id, created.outs as TargetState, {
        scopeId: PROJECT,
        name: "current-conflict",
        hostSetIds: ["hsst_1234567890"],
      });
      expect(updated.outs).toMatchObject({ hostSetIds: ["hsst_1234567890"], description: "changed outside" });
      expect(sets).toBe(2);
      expect(warn.mock.calls[0][0]).toContain("was changed outside Pulumi (version 1 → 2");
    } finally {
      await provider.core.client.close();
      await proxy.close();
      await c.shutdown();
    }
  });

  test("a 500 while the version did not move is a real failure, reported as it is", async () => {
    const c = await startTestController();
    const proxy = await startFaultProxy(c.apiUrl);
    const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN, maxRetries: 0 });
    try {
      const created = await provider.create({ scopeId: PROJECT, name: "real-500" });
      proxy.intercept((req) =>
        req.url?.endsWith(":set-host-sets") ? { status: 500, body: JSON.stringify({ kind: "Internal", message: "database is down" }) } : undefined,
      );
      const err = await provider
        .update(created.id, created.outs as TargetState, { scopeId: PROJECT, name: "real-500", hostSetIds: ["hsst_1234567890"] })
        .catch((e: unknown) => e);
      expect(String(err)).toContain("500 Internal: database is down");
      expect(proxy.seen.filter((r) => r.path.endsWith(":set-host-sets"))).toHaveLength(1);
    } finally {
      await provider.core.client.close();
      await proxy.close();
      await c.shutdown();
    }
  });
});
