/**
 * A version conflict replays exactly this run's planned changes (what the preview showed: the
 * difference between the engine's olds and news) on the fresh Target, and nothing else, through
 * the real engine path on both routes: `ignoreChanges` holds against an outside attach, and two
 * stacks (two provider processes) changing disjoint fields of one Target both keep their change.
 */
import { Stack } from "../../harness/stack";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { ROUTES, routeTo, type TestRoute } from "../helpers/routes";

const A = "hsst_1234567890";
const B = "hsst_1234567891";

describe.each(ROUTES)("through the %s route", (kind) => {
  let c: TestController;
  let route: TestRoute;
  let second: TestRoute;
  let n = 0;
  beforeAll(async () => {
    c = await startTestController();
    [route, second] = await Promise.all([routeTo(kind, c.apiUrl), routeTo(kind, c.apiUrl)]);
  }, 60_000);
  afterAll(async () => {
    await route?.stop();
    await second?.stop();
    await c?.shutdown();
  });

  test('ignoreChanges: ["hostSetIds"], a host set attached outside Pulumi and a version conflict: the preview shows the description only, and up keeps the attached host set', async () => {
    const name = `ignoring-${kind}`;
    const stack = new Stack(route, "web", { ignoreChanges: ["hostSetIds"] });
    await stack.up({ scopeId: PROJECT, name, description: "v1", hostSetIds: [A] });
    // someone attaches a second host set outside Pulumi: the Target's version moves
    const t = c.store.getTarget(stack.id!);
    expect((await c.call("POST", `/v1/targets/${t.id}:set-host-sets`, { version: t.version, host_set_ids: [A, B] })).status).toBe(200);

    const program = { scopeId: PROJECT, name, description: "v2", hostSetIds: [A] };
    const preview = await stack.preview(program);
    expect(preview.step).toBe("update");
    if (kind === "plugin") expect(Object.keys(preview.detailed)).toEqual(["description"]);
    expect(await stack.up(program)).toBe("update");
    expect(c.store.getTarget(stack.id!)).toMatchObject({ description: "v2", host_set_ids: [A, B] });
    expect(route.warnings().join("\n")).toContain(
      `target ${stack.id} was changed outside Pulumi (version 1 → 2; changed: hostSetIds); retrying once from the current version.`,
    );
    await stack.destroy();
  });

  test.each<[string, { description: string; hostSetIds?: string[] }]>([
    ["the description and the host sets", { description: "from A", hostSetIds: [A, B] }],
    ["the description", { description: "from A" }],
  ])("two stacks planned from the same version: A changes %s, B the session length; neither change is lost", async (_what, changeA) => {
    const base = { scopeId: PROJECT, name: `shared-${kind}-${++n}`, description: "base", hostSetIds: [A], sessionMaxSeconds: 28800 };
    const a = new Stack(route, "web");
    await a.up(base);
    const b = new Stack(second, "web");
    b.recordSame(a);
    // both previews are planned from version 1
    expect((await a.preview({ ...base, ...changeA })).step).toBe("update");
    expect((await b.preview({ ...base, sessionMaxSeconds: 60 })).step).toBe("update");
    expect(await a.up({ ...base, ...changeA })).toBe("update");
    expect(await b.up({ ...base, sessionMaxSeconds: 60 })).toBe("update");
    const held = c.store.getTarget(a.id!);
    expect(held).toMatchObject({ description: changeA.description, session_max_seconds: 60 });
    expect([...held.host_set_ids].sort()).toEqual(changeA.hostSetIds ?? [A]);
    // B recorded what the controller holds: A's change shows as drift against B's program, nothing was reverted
    expect(b.outputs).toMatchObject({ description: changeA.description, sessionMaxSeconds: 60 });
    expect(second.warnings().join("\n")).toContain(`target ${a.id} was changed outside Pulumi`);
    await a.destroy();
  });

  test("two stacks apply at the same moment (A the description, B the session length): one meets the conflict, replays its own change, and neither is lost", async () => {
    const base = { scopeId: PROJECT, name: `at-once-${kind}`, description: "base", sessionMaxSeconds: 28800 };
    const a = new Stack(route, "web");
    await a.up(base);
    const b = new Stack(second, "web");
    b.recordSame(a);
    const steps = await Promise.all([a.up({ ...base, description: "from A" }), b.up({ ...base, sessionMaxSeconds: 60 })]);
    expect(steps).toEqual(["update", "update"]);
    expect(c.store.getTarget(a.id!)).toMatchObject({ description: "from A", session_max_seconds: 60, version: 3 });
    // exactly one of them met the other's change
    expect([...route.warnings(), ...second.warnings()].filter((w) => w.includes(`target ${a.id} was changed outside Pulumi`))).toHaveLength(1);
    await a.destroy();
  });

  if (kind === "plugin") {
    test("ignoreChanges reaches Diff and Update: an ignored field is left alone even where the recorded state and the old inputs disagree", async () => {
      const name = `ignored-state-${kind}`;
      // a controller that sets lists only through the actions, as Boundary does
      const v04 = await startTestController({ ignoreCreateAssociations: true });
      const own = await routeTo(kind, v04.apiUrl);
      try {
        const first = new Stack(own, "web");
        // a create whose host set is refused: recorded with none, while the inputs still name it
        await expect(first.up({ scopeId: PROJECT, name, hostSetIds: ["hsst_zzzzzzzzzz"] })).rejects.toThrow("setting host sets failed");
        expect(first.outputs).toMatchObject({ hostSetIds: [] });
        // the program now ignores the host sets (the engine copies the old inputs' value into the news)
        const stack = new Stack(own, "web", { ignoreChanges: ["hostSetIds"] });
        stack.recordSame(first);
        stack.initErrors = first.initErrors;
        const program = { scopeId: PROJECT, name, description: "now managed" };
        expect(Object.keys((await stack.preview(program)).detailed)).toEqual(["description"]);
        expect(await stack.up(program)).toBe("update");
        expect(v04.store.getTarget(stack.id!)).toMatchObject({ description: "now managed", host_set_ids: [] });
        await stack.destroy();
      } finally {
        await own.stop();
        await v04.shutdown();
      }
    });
  }
});
