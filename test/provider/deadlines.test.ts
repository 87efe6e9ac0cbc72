/**
 * Every wait has a deadline and a reason, through the real engine path on both routes: a refused
 * connection fails at once naming the address; a rate-limit window that would outlast the
 * operation fails at once naming the server's reset (no TimeoutOverflowWarning storm);
 * `customTimeouts` are each operation's deadline (the plugin gets them as `timeout`, the dynamic
 * route from the Target class); Cancel (plugin route) aborts what is in flight, and a create whose
 * POST was sent ends recorded or says it made nothing. Times are measured with short budgets, each
 * stretched by an ordinary call timed just before in the same test (see expectWithin).
 */
import { createServer } from "node:net";
import { registeredInputs } from "../../harness/program";
import { packedProgram } from "../../harness/provider-host";
import { Stack, StepFailed } from "../../harness/stack";
import { PROJECT, useTestController } from "../helpers/controller";
import { startGateway, type Gateway } from "../helpers/gateway";
import { startQuotaProxy, type QuotaProxy } from "../helpers/quota-proxy";
import { ROUTES, RoutePool, type TestRoute } from "../helpers/routes";
import { until } from "../helpers/wait";

/** The timings docs/behaviour.md quotes, printed only when asked (PB_VERBOSE=1): the suite runs quietly. */
const measured = (line: string) => {
  if (process.env.PB_VERBOSE) console.log(line);
};

/** The error's text, as the engine shows it. */
const shown = (err: unknown) => String(err instanceof StepFailed ? err.message : ((err as { details?: string }).details ?? err));

/** Runs `fn`, resolving with its error (or undefined) and how long it took. */
async function timed(fn: () => Promise<unknown>): Promise<{ err: unknown; ms: number }> {
  const started = Date.now();
  const err = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { err, ms: Date.now() - started };
}

/**
 * Expects `ms` within `budgetMs` (what the behaviour takes on a quiet machine) plus three times
 * `baselineMs`: an ordinary call of the same kind through the same kind of route, timed just before
 * in the same test, so a loaded machine stretches the bound as it stretches the call. What these
 * tests catch (a wait for a window's reset, a connect timeout, a retry loop, a deadline not kept)
 * takes far longer than either.
 */
function expectWithin(ms: number, budgetMs: number, baselineMs: number): void {
  expect(ms).toBeLessThan(budgetMs + 3 * baselineMs);
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

const c = useTestController();

/** Rate-limit windows longer than an operation may wait: what each is called, its length, how the error shows it. */
const WINDOWS: [what: string, windowMs: number, shown: string][] = [
  ["one hour", 3_600_000, "60 min"],
  ["longer than a timer can wait (2^31 ms)", 4_000_000_000, "46 days"],
];

describe.each(ROUTES)("through the %s route", (kind) => {
  let n = 0;
  const name = (what: string) => `${what}-${kind}-${++n}`;
  // the provider processes of the tests below, each configured as its test says, started at once and
  // all up before the first test: the tests measure times, and no start runs beside them
  const routes = new RoutePool();
  const quotas: QuotaProxy[] = [];
  let addr: string;
  /** A gateway passing everything on until a test says otherwise (the silent controller below). */
  let gw: Gateway;
  beforeAll(async () => {
    addr = `http://127.0.0.1:${await closedPort()}`;
    gw = await startGateway(c.apiUrl);
    // one process for the tests that need the controller answering and for the silent one (one provider start fewer)
    routes.start("through the gateway", kind, gw.url);
    routes.start("away", kind, addr);
    for (const [what, windowMs] of WINDOWS) {
      const quota = await startQuotaProxy(c.apiUrl, 1, windowMs);
      quotas.push(quota);
      routes.start(what, kind, quota.url);
    }
    await routes.ready();
  }, 120_000);
  afterAll(async () => {
    await routes.stop();
    for (const quota of quotas) await quota.close();
    await gw?.close();
  }, 60_000);

  test("a refused connection fails at once, naming the address and how to set it: create, refresh and destroy each in under 2 s (on a quiet machine)", async () => {
    // the gateway passes everything on: the Target is made through it as if directly
    const good = await routes.take("through the gateway");
    const away = await routes.take("away");
    try {
      const made = new Stack(good, "web");
      const base = await timed(() => made.up({ scopeId: PROJECT, name: name("refused") }));
      expect(base.err).toBeUndefined();
      const stack = new Stack(away, "web");
      const create = await timed(() => stack.up({ scopeId: PROJECT, name: name("refused") }));
      expectWithin(create.ms, 2000, base.ms);
      const where = `nothing was sent: no controller answers at ${addr}, the address boundary:addr gives. Is the controller running, and is that its API address? Set it with \`pulumi config set boundary:addr <address>\``;
      expect(shown(create.err)).toContain(`POST /v1/targets: ECONNREFUSED`);
      expect(shown(create.err)).toContain(where);
      expect(shown(create.err)).not.toMatch(/may exist|pulumi import/);
      stack.recordSame(made);
      const refresh = await timed(() => stack.refresh());
      expectWithin(refresh.ms, 2000, base.ms);
      expect(shown(refresh.err)).toContain(where);
      const destroy = await timed(() => stack.destroy());
      expectWithin(destroy.ms, 2000, base.ms);
      expect(shown(destroy.err)).toContain(where);
      expect(stack.id).toBe(made.id);
      measured(`refused connection (${kind}): create ${create.ms} ms, refresh ${refresh.ms} ms, destroy ${destroy.ms} ms`);
      await made.destroy();
    } finally {
      await away.stop();
    }
  }, 20_000);

  test.each(WINDOWS)(
    "a rate-limit window of %s: the next request fails at once naming the server's reset, with no TimeoutOverflowWarning",
    async (what, _windowMs, shownReset) => {
      const route = await routes.take(what);
      try {
        const stack = new Stack(route, "web");
        await stack.up({ scopeId: PROJECT, name: name("window") });
        // quotas are per action (as Boundary keeps them): the first refresh spends the reads' quota of 1
        const first = await timed(() => stack.refresh());
        expect(first.err).toBeUndefined();
        const refresh = await timed(() => stack.refresh());
        expectWithin(refresh.ms, 2000, first.ms);
        expect(shown(refresh.err)).toContain(
          `GET /v1/targets/${stack.id}: not sent: the controller's rate limit for target:read is spent until its window resets in ${shownReset} (RateLimit: limit=1, remaining=0, reset=`,
        );
        expect(shown(refresh.err)).toContain("which is after this operation's deadline (the provider's default of 20 min (set customTimeouts to change it))");
        expect(route.host.output()).not.toContain("TimeoutOverflowWarning");
        expect(stack.id).toBeDefined();
        c.store.deleteTarget(stack.id!);
      } finally {
        await route.stop();
      }
    },
  );

  describe("customTimeouts of 3 s against a controller that never answers", () => {
    let route: TestRoute;
    beforeAll(async () => {
      route = await routes.take("through the gateway");
    }, 60_000);
    // the gateway passes everything on again whatever the test did
    afterEach(() => gw.on(undefined));
    const timeouts = { create: "3s", update: "3s", delete: "3s", read: "3s" };

    test("create, read, update and delete each end within 5 s (on a quiet machine), naming the deadline; the Targets made stay in the stack", async () => {
      // three Targets made while the controller answers; then it falls silent and all four run at once
      const programs = ["read", "update", "delete"].map((op) => ({ scopeId: PROJECT, name: name(`silent-${op}`) }));
      const stacks = programs.map(() => new Stack(route, "web", { customTimeouts: timeouts }));
      // four calls at once, as below: the bound's baseline
      const base = await timed(() => Promise.all(stacks.map((s, i) => s.up(programs[i]!))));
      expect(base.err).toBeUndefined();
      const [reading, updating, deleting] = stacks as [Stack, Stack, Stack];
      const creating = new Stack(route, "web", { customTimeouts: timeouts });
      gw.on(() => ({ hang: true }));
      const [create, read, update, remove] = await Promise.all([
        timed(() => creating.up({ scopeId: PROJECT, name: name("silent-create") })),
        timed(() => reading.refresh()),
        timed(() => updating.up({ ...programs[1]!, description: "changed" })),
        timed(() => deleting.destroy()),
      ]);
      measured(`customTimeouts 3s, silent controller (${kind}): create ${create.ms} ms, read ${read.ms} ms, update ${update.ms} ms, delete ${remove.ms} ms`);
      for (const r of [create, read, update, remove]) {
        expectWithin(r.ms, 5000, base.ms);
        expect(r.ms).toBeGreaterThanOrEqual(2900);
      }
      expect(shown(create.err)).toContain("the answer was lost (POST /v1/targets: no answer before this operation's deadline (customTimeouts create 3");
      expect(shown(create.err)).toContain("and the controller could not be asked afterwards whether it was created");
      expect(shown(read.err)).toContain("no answer before this operation's deadline (customTimeouts read 3");
      expect(shown(update.err)).toContain("no answer before this operation's deadline (customTimeouts update 3");
      expect(shown(remove.err)).toContain("no answer before this operation's deadline (customTimeouts delete 3");
      for (const s of stacks) expect(s.id).toBeDefined();
      gw.on(undefined);
      for (const s of stacks) await s.destroy();
    });
  });
});

test("the dynamic route gets customTimeouts from the Target class, which copies them into its inputs (the host drops the engine's)", async () => {
  const [registered] = await registeredInputs(packedProgram(), [
    { name: "web", args: { scopeId: PROJECT, name: "web" }, opts: { customTimeouts: { create: "3s", delete: "1m" } } },
  ]);
  expect(registered).toMatchObject({ scopeId: PROJECT, name: "web", __timeouts: { create: "3s", delete: "1m" } });
});

describe("Cancel (Ctrl-C) on the plugin route", () => {
  const CASES = [
    ["the controller made it", { hold: true } as const, true],
    ["the controller never got it", { hang: true } as const, false],
  ] as const;
  let gw: Gateway;
  // Cancel ends the provider's work: one plugin process per case, both up before the first (timed) test
  const routes = new RoutePool();
  beforeAll(async () => {
    gw = await startGateway(c.apiUrl);
    for (const [what] of CASES) routes.start(what, "plugin", gw.url);
    await routes.ready();
  }, 120_000);
  afterAll(async () => {
    await routes.stop();
    await gw?.close();
  }, 60_000);
  afterEach(() => gw.on(undefined));

  test.each(CASES)(
    "during a hung create (%s): the create returns within 2 s (on a quiet machine), the Target recorded or never made",
    async (what, behaviour, made) => {
      const route = await routes.take(what);
      try {
        const name = `cancelled-${made}`;
        // an ordinary create and delete through the same process: the bound's baseline
        const warm = new Stack(route, "web");
        const base = await timed(() => warm.up({ scopeId: PROJECT, name: `base-${made}` }).then(() => warm.destroy()));
        expect(base.err).toBeUndefined();
        const stack = new Stack(route, "web");
        gw.on((s) => (s.method === "POST" && s.path === "/v1/targets" ? behaviour : undefined));
        const up = timed(() => stack.up({ scopeId: PROJECT, name }));
        await until(() => gw.seen.some((s) => s.method === "POST" && s.body.includes(name)), "the POST");
        const cancelledAt = Date.now();
        await route.engine.cancel();
        const { err } = await up;
        const ms = Date.now() - cancelledAt;
        measured(`Cancel during a hung create (${what}): returned ${ms} ms after Cancel`);
        expectWithin(ms, 2000, base.ms);
        const held = c.store.listTargets(PROJECT, false).filter((t) => t.name === name);
        if (made) {
          // a partial failure: recorded with its id; the next up finishes it
          expect((err as StepFailed).reasons?.[0]).toContain(
            `creating target "${name}" was cancelled after the controller made it: it was created as ${held[0]!.id} and is recorded in the stack.`,
          );
          expect(stack.id).toBe(held[0]!.id);
          c.store.deleteTarget(stack.id!);
        } else {
          expect(shown(err)).toContain("it was not created, and nothing needs cleaning up");
          expect(stack.id).toBeUndefined();
          expect(held).toHaveLength(0);
        }
        // whatever the engine asks after Cancel fails at once, sending nothing
        const before = gw.seen.length;
        await expect(new Stack(route, "web").up({ scopeId: PROJECT, name: `${name}-after` })).rejects.toThrow("cancelled before it was sent");
        expect(gw.seen.length).toBe(before);
      } finally {
        await route.stop();
      }
    },
  );
});
