/**
 * The dynamic provider (the adapter over the core that Pulumi's host calls) in process against the
 * real controller in each mode: ours (applies lists on create), Boundary v0.4.0 (ignores them;
 * stale versions 404/500) and current Boundary v0.21.3 (current names and actions, a default port
 * required, egress filters instead of worker filters), with the API calls counted from the
 * controller's /metrics; and its stack config. When a call fails: target-provider-failures.test.ts.
 */
import { DynamicTargetProvider } from "../../provider/resource/dynamic";
import type { TargetState } from "../../provider/resource/state";
import type { TargetInputs } from "../../provider/resource/inputs";
import { requires } from "../../wire/releases";
import { ADMIN_TOKEN, PROJECT, startTestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";
import { useProvider } from "../helpers/provider";
import { MATRIX, facts } from "../helpers/releases";

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
  const p = useProvider({ controller: { emulation: mode } });
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
  const calls = <T>(fn: () => Promise<T>) => countCalls(p.c.opsUrl, fn);
  beforeEach(() => {
    p.provider.core.warn = jest.fn();
  });

  test("create: POST, plus one set-* per list the POST did not apply, versions threaded", async () => {
    const inputs = program();
    const { result, calls: made } = await calls(() => p.provider.create(inputs));
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
    expect((await p.raw.getTarget(result.id)).version).toBe(result.outs.version);
  });

  test("read is one GET returning state and the managed inputs; an unchanged target needs no call", async () => {
    const inputs = program();
    const created = await p.provider.create(inputs);
    const { result: read, calls: readCalls } = await calls(() => p.provider.read(created.id, created.outs));
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
    const { result: diff, calls: diffCalls } = await calls(() => p.provider.diff(created.id, read.props, inputs));
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
    const created = await p.provider.create(inputs);
    const news = { ...inputs, ...change };
    expect((await p.provider.diff(created.id, created.outs as TargetState, news)).changes).toBe(true);
    const { result, calls: made } = await calls(() => p.provider.update(created.id, created.outs as TargetState, news));
    expect(made).toEqual(expected);
    expect(result.outs).toMatchObject(change);
    const server = await p.raw.getTarget(created.id);
    expect(server.version).toBe((created.outs.version as number) + Object.keys(expected).length);
    expect(result.outs!.version).toBe(server.version);
  });

  test("removing a field from the program resets it to the controller's default", async () => {
    const inputs = program({ sessionMaxSeconds: 60, defaultPort: 22 });
    const created = await p.provider.create(inputs);
    // current releases require the default port: it stays in the program there
    // the fields the new program leaves out
    const { description, sessionMaxSeconds, defaultPort, applicationCredentialLibraryIds, ...rest } = inputs;
    const news = portRequired ? { ...rest, defaultPort } : rest;
    const { result, calls: made } = await calls(() => p.provider.update(created.id, created.outs as TargetState, news));
    expect(made).toEqual({ "PATCH /v1/targets/{id}": 1, [setCreds]: 1 });
    const server = await p.raw.getTarget(created.id);
    expect(server.description).toBeUndefined();
    expect(server.session_max_seconds).toBe(28800);
    expect(server.attributes).toEqual(portRequired ? { default_port: 22 } : {});
    expect(server).toHaveProperty(f.hosts.field); // the list is read under this release's name
    expect(ids(server, "creds")).toBeUndefined();
    expect(result.outs!.__managed).toEqual(["scopeId", "name", "hostSetIds", ...(portRequired ? ["defaultPort"] : [])]);
  });

  test("a field the program never set is left alone, even when the server's value changes", async () => {
    const inputs = program();
    const created = await p.provider.create(inputs);
    await p.raw.updateTarget(created.id, created.outs.version, [filterWire], { [filterWire]: '"dev" in "/tags/type"' });
    const refreshed = await p.provider.read(created.id, created.outs);
    expect(refreshed.props[filterInput]).toBe('"dev" in "/tags/type"');
    expect((await p.provider.diff(created.id, refreshed.props, inputs)).changes).toBe(false);
  });

  test("drift on a managed field shows after a refresh, field by field", async () => {
    const inputs = program();
    const created = await p.provider.create(inputs);
    await p.raw.updateTarget(created.id, created.outs.version, ["description"], { description: "edited in the UI" });
    const refreshed = await p.provider.read(created.id, created.outs);
    expect(refreshed.inputs.description).toBe("edited in the UI");
    // the name is the program's: were the engine to replace it (replaceOnChanges), the old one must go first
    expect(await p.provider.diff(created.id, refreshed.props, inputs)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true });
  });

  test("a version conflict mid-update: re-read, warn naming what changed outside, retry once, keep unmanaged fields", async () => {
    const inputs = program();
    const created = await p.provider.create(inputs);
    // someone edits the target outside Pulumi: a field the program does not manage
    await p.raw.updateTarget(created.id, created.outs.version, [filterWire], { [filterWire]: '"dev" in "/tags/type"' });
    const warn = jest.fn();
    p.provider.core.warn = warn;
    const news = { ...inputs, description: "new", hostSetIds: ["hsst_1234567890"] };
    const { result, calls: made } = await calls(() => p.provider.update(created.id, created.outs as TargetState, news));
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
    const server = await p.raw.getTarget(created.id);
    expect(server).toMatchObject({ description: "new", [filterWire]: '"dev" in "/tags/type"' });
    expect(ids(server, "hosts")).toEqual(["hsst_1234567890"]);
    expect(result.outs!.version).toBe(server.version);
  });

  test("a target deleted outside Pulumi disappears on read, and its delete succeeds", async () => {
    const created = await p.provider.create(program());
    await p.raw.deleteTarget(created.id);
    expect(await p.provider.read(created.id, created.outs)).toEqual({ id: "" });
    await expect(p.provider.delete(created.id)).resolves.toBeUndefined();
  });

  test("delete is one DELETE", async () => {
    const created = await p.provider.create(program());
    const { calls: made } = await calls(() => p.provider.delete(created.id));
    expect(made).toEqual({ "DELETE /v1/targets/{id}": 1 });
  });

  test("bad input is refused at the core's door: no API call, nothing created", async () => {
    const before = (await p.raw.listTargets({ scopeId: PROJECT })).length;
    const { result, calls: made } = await calls(() => p.provider.create({ scopeId: PROJECT, name: "bad-filter", workerFilter: "((" }).catch((e: unknown) => e));
    expect(String(result)).toMatch(/workerFilter is not a valid filter/);
    expect(made).toEqual({});
    expect((await p.raw.listTargets({ scopeId: PROJECT })).length).toBe(before);
  });
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
