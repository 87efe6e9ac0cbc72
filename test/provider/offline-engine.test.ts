/**
 * The demo's offline engine does what the Pulumi engine does for the three jobs: drift detection
 * (`preview --refresh --expect-no-changes` reports the field, old and new, exits 7, and changes
 * neither the state nor the controller; `up --refresh` puts it back), and a failing resource ends
 * as a failure in the result, a partial one recorded in state with its id, never as a rejection
 * that skips the rest of the plan and the destroy.
 */
import * as path from "node:path";
import * as boundary from "pulumi-boundary";
import { OfflineEngine } from "../../examples/offline/engine";
import { ADMIN_TOKEN, PROJECT, startTestController, useTestController, type TestController } from "../helpers/controller";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy";

const programDir = path.join(__dirname, "..", "..", "examples", "basic");
const engineFor = (addr: string) =>
  new OfflineEngine({ programDir, project: "offline-test", stack: "dev", config: { "boundary:addr": addr, "boundary:token": ADMIN_TOKEN } });
const program = () => {
  const web = new boundary.Target("web", { scopeId: PROJECT, name: "web", description: "Web servers", hostSetIds: ["hsst_1234567891"], defaultPort: 22 });
  const db = new boundary.Target("db", {
    scopeId: PROJECT,
    name: "db",
    hostSetIds: ["hsst_1234567890"],
    applicationCredentialLibraryIds: ["clvlt_1234567890"],
  });
  return { webId: web.id, dbId: db.id };
};
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));
const byName = <T extends { name: string }>(xs: T[]) => [...xs].sort((a, b) => a.name.localeCompare(b.name));

describe("drift detection", () => {
  const c = useTestController();

  test("preview --refresh --expect-no-changes: the field, old and new, exit 7, nothing written; up --refresh puts it back", async () => {
    const engine = engineFor(c.apiUrl);
    try {
      const first = await engine.up(program);
      expect(first.failed).toBe(false);
      const webId = engine.state.get("web")!.id;
      const read = await c.call("GET", `/v1/targets/${webId}`);
      // another operator, through the API
      expect(
        (await c.call("PATCH", `/v1/targets/${webId}?update_mask=description`, { version: read.body.version, description: "changed outside" })).status,
      ).toBe(200);

      const drift = await engine.preview(program, { refresh: true, expectNoChanges: true });
      expect(drift).toMatchObject({ changes: true, exitCode: 7, error: "no changes were expected for preview but changes were proposed" });
      expect(plain(drift.steps.filter((s) => s.op !== "same"))).toEqual([
        { name: "web", op: "refresh", diffs: [{ field: "description", old: "Web servers", new: "changed outside" }] },
        { name: "web", op: "update", diffs: [{ field: "description", old: "changed outside", new: "Web servers" }] },
      ]);
      // a preview writes nothing: not the state, not the controller
      expect(engine.state.get("web")!.inputs.description).toBe("Web servers");
      expect((await c.call("GET", `/v1/targets/${webId}`)).body.description).toBe("changed outside");

      const fixed = await engine.up(program, { refresh: true });
      expect(fixed.failed).toBe(false);
      expect(plain(fixed.steps.filter((s) => s.op === "update"))).toEqual([
        { name: "web", op: "update", diffs: [{ field: "description", old: "changed outside", new: "Web servers" }] },
      ]);
      expect((await c.call("GET", `/v1/targets/${webId}`)).body.description).toBe("Web servers");
      expect(await engine.preview(program, { refresh: true, expectNoChanges: true })).toMatchObject({ changes: false, exitCode: 0 });
    } finally {
      await engine.destroy();
    }
    expect(c.store.size).toBe(0);
  });

  test("a Target deleted outside Pulumi: refresh drops it, the preview proposes to create it again", async () => {
    const engine = engineFor(c.apiUrl);
    try {
      await engine.up(program);
      await c.call("DELETE", `/v1/targets/${engine.state.get("db")!.id}`);
      const drift = await engine.preview(program, { refresh: true, expectNoChanges: true });
      expect(drift.exitCode).toBe(7);
      expect(drift.steps.filter((s) => s.name === "db").map((s) => s.op)).toEqual(["refresh", "create"]);
    } finally {
      await engine.destroy();
    }
    expect(c.store.size).toBe(0);
  });
});

describe("a failing resource", () => {
  let c: TestController;
  let proxy: FaultProxy;
  let unhandled: unknown[];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeAll(async () => {
    // v0.4 applies lists only through the set actions: the POST succeeds, then a set can fail
    c = await startTestController({ emulation: "0.4" });
    proxy = await startFaultProxy(c.apiUrl);
  });
  afterAll(async () => {
    await proxy.close();
    await c.shutdown();
  });
  beforeEach(() => {
    unhandled = [];
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(() => {
    process.off("unhandledRejection", onUnhandled);
    proxy.intercept(undefined);
  });

  test("a partial failure (created, then a set action fails) is recorded with its id; the rest is applied; destroy leaves nothing", async () => {
    proxy.intercept((req) =>
      req.url?.endsWith(":set-credential-libraries") ? { status: 500, body: JSON.stringify({ kind: "Internal", message: "disk full" }) } : undefined,
    );
    const engine = engineFor(proxy.url);
    const result = await engine.up(program);
    expect(result.failed).toBe(true);
    const db = result.steps.find((s) => s.name === "db")!;
    expect(db).toMatchObject({ op: "create", failed: expect.stringMatching(/^partial failure: .*disk full/) });
    expect(result.steps.find((s) => s.name === "web")).toEqual({ name: "web", op: "create" });
    // both exist on the controller, and both are in state: db with its id, as the controller left it
    expect(
      c.store
        .listTargets(PROJECT, false)
        .map((t) => t.name)
        .sort(),
    ).toEqual(["db", "web"]);
    expect(engine.state.get("db")!.id).toBe(c.store.listTargets(PROJECT, false).find((t) => t.name === "db")!.id);
    expect(engine.state.get("db")!.outputs).toMatchObject({ hostSetIds: ["hsst_1234567890"] });
    proxy.intercept(undefined);
    // the next up finishes it
    const again = await engine.up(program);
    expect(again.failed).toBe(false);
    expect(byName(plain(again.steps))).toEqual([
      { name: "db", op: "update", diffs: expect.any(Array) },
      { name: "web", op: "same" },
    ]);
    expect(byName(await engine.destroy())).toEqual([
      { name: "db", op: "delete" },
      { name: "web", op: "delete" },
    ]);
    expect(c.store.size).toBe(0);
    expect(unhandled).toEqual([]);
  });

  test("a program that exports nothing: every resource it registered is waited for, and its failure reported", async () => {
    proxy.intercept((req) =>
      req.method === "POST" && req.url === "/v1/targets" ? { status: 400, body: JSON.stringify({ kind: "InvalidArgument", message: "refused" }) } : undefined,
    );
    const engine = engineFor(proxy.url);
    const silent = () => {
      program();
      return {};
    };
    try {
      const result = await engine.up(silent);
      expect(result.failed).toBe(true);
      expect(byName(plain(result.steps)).map((s: { name: string; failed?: string }) => [s.name, !!s.failed])).toEqual([
        ["db", true],
        ["web", true],
      ]);
      proxy.intercept(undefined);
      const fixed = await engine.up(silent);
      expect([fixed.failed, fixed.steps.map((s) => s.op).sort()]).toEqual([false, ["create", "create"]]);
      expect(c.store.size).toBe(2);
    } finally {
      await engine.destroy();
    }
    expect(c.store.size).toBe(0);
  });

  test("a create refused outright: nothing recorded for it, no rejection escapes, destroy removes the rest", async () => {
    let creates = 0;
    // the first create is refused (as a 400 would: nothing made); the other goes through
    proxy.intercept((req) =>
      req.method === "POST" && req.url === "/v1/targets" && ++creates === 1
        ? { status: 400, body: JSON.stringify({ kind: "InvalidArgument", message: "refused" }) }
        : undefined,
    );
    const engine = engineFor(proxy.url);
    try {
      const result = await engine.up(program);
      expect(result.failed).toBe(true);
      const failed = result.steps.filter((s) => s.failed);
      expect(failed).toHaveLength(1);
      expect(engine.state.has(failed[0]!.name)).toBe(false);
      expect(engine.state.size).toBe(1);
      expect(c.store.size).toBe(1);
      await engine.destroy();
      expect(c.store.size).toBe(0);
      expect(unhandled).toEqual([]);
    } finally {
      await engine.destroy();
    }
  });
});
