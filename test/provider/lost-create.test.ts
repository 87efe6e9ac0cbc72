/**
 * A create whose answer proves nothing, through the real engine path on both routes (the dynamic
 * host and the plugin over gRPC), with a gateway in front of the real controller: the POST is never
 * sent twice; the Target it made is recorded (a second `up` changes nothing, no "already exists"),
 * a Target it did not make is not taken for it, and a create that made nothing says so. Whether a
 * Target is the one our POST made is judged on the controller's clock, which here runs 10 minutes
 * behind or ahead of ours.
 */
import { Store, defaultFixtures } from "../../controller";
import { Stack, StepFailed } from "../../harness/stack";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { pages, startGateway, type Behaviour, type Gateway } from "../helpers/gateway";
import { ROUTES, routeTo, type TestRoute } from "../helpers/routes";

const isCreate = (s: { method: string; path: string }) => s.method === "POST" && s.path === "/v1/targets";

describe.each(ROUTES)("through the %s route", (kind) => {
  /** Moves the controller's store's clock, to make a Target "a minute ago" (the gateway shifts what its answers show). */
  let storeClock = 0;
  let c: TestController;
  let gw: Gateway;
  let route: TestRoute;
  let n = 0;
  beforeAll(async () => {
    c = await startTestController({ store: new Store(defaultFixtures(), { now: () => new Date(Date.now() + storeClock) }) });
    gw = await startGateway(c.apiUrl);
    // a short client timeout: a held answer times out quickly; no retries to count
    route = await routeTo(kind, gw.url, { env: { BOUNDARY_CLIENT_TIMEOUT: "1s", BOUNDARY_MAX_RETRIES: "0" } });
  }, 60_000);
  afterAll(async () => {
    await route?.stop();
    await gw?.close();
    await c?.shutdown();
  });
  afterEach(() => {
    gw.on(undefined);
    gw.shiftClock(0);
    storeClock = 0;
  });

  const named = (name: string) => c.store.listTargets(PROJECT, false).filter((t) => t.name === name);
  const posts = () => gw.seen.filter(isCreate).length;

  describe.each<[string, Behaviour]>([
    ["a 502 page after the controller applied the POST", { forward: true, page: pages.badGateway }],
    ["a 504 page after the controller applied the POST", { forward: true, page: pages.gatewayTimeout }],
    ["a 200 whose body breaks the contract", { forward: true, page: pages.brokenTarget }],
    ["a proxy's 503 page (not Boundary's rate limiter) after the controller applied the POST", { forward: true, page: pages.unavailable }],
    ["no answer at all after sending (the client times out)", { hold: true }],
  ])("%s", (_what, behaviour) => {
    test("the Target is recorded, the POST was sent once, and a second up converges without 'already exists'", async () => {
      const name = `lost-${kind}-${++n}`;
      const program = { scopeId: PROJECT, name, description: "made once", hostSetIds: ["hsst_1234567890"] };
      const stack = new Stack(route, "web");
      gw.on((s) => (isCreate(s) ? behaviour : undefined));
      const before = posts();
      expect(await stack.up(program)).toBe("create");
      expect(posts() - before).toBe(1);
      const [made] = named(name);
      expect(stack.id).toBe(made!.id);
      expect(stack.outputs).toMatchObject({ name, description: "made once", hostSetIds: ["hsst_1234567890"] });
      expect(route.warnings().join("\n")).toContain(`creating target "${name}": POST `);
      expect(route.warnings().join("\n")).toContain(`it was created as ${made!.id} and is recorded in the stack.`);

      gw.on(undefined);
      expect(await stack.up(program)).toBe("same");
      expect(named(name)).toHaveLength(1);
      await stack.destroy();
      expect(named(name)).toHaveLength(0);
    });
  });

  test("a 502 page before the controller saw the POST: nothing was made, the error says so, and the next up creates it once", async () => {
    const name = `not-made-${kind}`;
    const stack = new Stack(route, "web");
    gw.on((s) => (isCreate(s) ? { page: pages.badGateway } : undefined));
    const err = await stack.up({ scopeId: PROJECT, name }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepFailed);
    expect(String(err)).toContain(
      `creating target "${name}" in ${PROJECT}: POST ${gw.url}/v1/targets: 502, and not an answer from Boundary's API (content-type text/html, body starts "<html>`,
    );
    expect(String(err)).toContain(
      "The controller, asked afterwards, holds no target of that name: it was not created, and nothing needs cleaning up. Run `pulumi up` again.",
    );
    expect(stack.id).toBeUndefined();
    gw.on(undefined);
    expect(await stack.up({ scopeId: PROJECT, name })).toBe("create");
    expect(named(name)).toHaveLength(1);
    await stack.destroy();
  });

  test("two stacks create one name and the second one's answer is lost: it does not adopt the first one's Target, and says whose it is and the ways out", async () => {
    const other = await routeTo(kind, c.apiUrl);
    try {
      const name = `shared-${kind}`;
      const a = new Stack(other, "web");
      const b = new Stack(route, "web");
      expect(await a.up({ scopeId: PROJECT, name, description: "stack A" })).toBe("create");
      // B's POST reaches the controller (which refuses the taken name) but its answer never comes back
      gw.on((s) => (isCreate(s) ? { hold: true } : undefined));
      const err = await b.up({ scopeId: PROJECT, name, description: "stack B" }).catch((e: unknown) => e);
      expect(String(err)).toContain(
        `creating target "${name}" in ${PROJECT}: the answer was lost (POST /v1/targets: no answer within 1000 ms (BOUNDARY_CLIENT_TIMEOUT)). A target of that name exists, ${a.id}, but it is not the one this create made (its description is "stack A", this create asked for "stack B"`,
      );
      expect(String(err)).toContain(`pulumi import boundary:index:Target <resource name> ${a.id}`);
      expect(String(err)).toContain("give this resource another name (or leave name unset, so Pulumi names it)");
      expect(b.id).toBeUndefined();
      // A's Target is as A left it, and A still manages it alone
      expect(named(name)).toMatchObject([{ id: a.id, description: "stack A", version: 1 }]);
      await a.destroy();
    } finally {
      await other.stop();
    }
  });

  test.each([
    ["behind", -600_000],
    ["ahead of", 600_000],
  ])("the controller's clock 10 minutes %s ours: the Target our lost answer made is adopted", async (_how, skew) => {
    const name = `skewed-${kind}-${skew}`;
    gw.shiftClock(skew);
    gw.on((s) => (isCreate(s) ? { hold: true } : undefined));
    const stack = new Stack(route, "web");
    expect(await stack.up({ scopeId: PROJECT, name })).toBe("create");
    expect(stack.id).toBe(named(name)[0]!.id);
    await stack.destroy();
  });

  test("the controller's clock 10 minutes ahead: a Target of our name and fields made a minute before our POST is not adopted", async () => {
    const name = `earlier-${kind}`;
    // made a minute before our POST; the gateway shows the controller's clock 10 minutes ahead
    storeClock = -60_000;
    const earlier = c.store.createTarget({ scope_id: PROJECT, name, type: "tcp" });
    storeClock = 0;
    gw.shiftClock(600_000);
    gw.on((s) => (isCreate(s) ? { hold: true } : undefined));
    const stack = new Stack(route, "web");
    const err = await stack.up({ scopeId: PROJECT, name }).catch((e: unknown) => e);
    expect(String(err)).toContain(`A target of that name exists, ${earlier.id}, but it is not the one this create made (it was made at `);
    const before = /on the controller's clock, (\d+) s or more before this create was sent\)/.exec(String(err));
    expect(Number(before?.[1])).toBeGreaterThanOrEqual(58);
    expect(stack.id).toBeUndefined();
    c.store.deleteTarget(earlier.id);
  });
});
