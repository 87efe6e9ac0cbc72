/**
 * Both routes Pulumi runs the provider by (the dynamic-provider host, the plugin over gRPC), started
 * from the packed tarball for a test: one provider process per stack, its warnings where a user
 * sees them (the host's output; the plugin's Engine/Log, through a fake engine).
 */
import { packedProgram, serializedProvider } from "../../harness/provider-host";
import { startRoute, type Route, type RouteKind, type RouteOptions } from "../../harness/stack";
import { ADMIN_TOKEN, startTestController, type TestController } from "./controller";
import { startFakeEngine, type FakeEngine } from "./fake-engine";
import { startGateway, type Gateway } from "./gateway";
import { forward, useForSuite } from "./suite";

/** Every route, for `describe.each`. */
export const ROUTES: RouteKind[] = ["dynamic", "plugin"];

let providerText: string | undefined;

/** A started route with the warnings it gave so far. */
export interface TestRoute extends Route {
  /** Every warning the user would have seen from this provider process. */
  warnings(): string[];
}

/** Starts a provider process of `kind` configured for `addr`; `env` reaches the provider's client (BOUNDARY_CLIENT_TIMEOUT, …). */
export async function routeTo(
  kind: RouteKind,
  addr: string,
  options: { env?: Record<string, string>; token?: string; login?: RouteOptions["login"] } = {},
): Promise<TestRoute> {
  const program = packedProgram();
  let fake: FakeEngine | undefined;
  if (kind === "plugin") fake = await startFakeEngine(program);
  if (kind === "dynamic") providerText ??= serializedProvider(program);
  const route = await startRoute(kind, {
    program,
    addr,
    token: options.token ?? ADMIN_TOKEN,
    login: options.login,
    providerText,
    engineAddress: fake?.address,
    env: options.env,
  });
  return {
    ...route,
    warnings: () =>
      fake
        ? fake.logs.filter((l) => l.severity === fake!.severity.WARNING).map((l) => l.message)
        : route.host
            .output()
            .split("\n")
            .filter((l) => l.startsWith("warning: "))
            .map((l) => l.slice("warning: ".length)),
    stop: async () => {
      await route.stop();
      await fake?.stop();
    },
  };
}

/** How `routeTo` starts a route: its kind, its address, and its options. */
export type RouteSpec = [kind: RouteKind, addr: string, options?: Parameters<typeof routeTo>[2]];

/**
 * Provider processes a suite's tests will each need one of, all started at once (a process spends
 * most of its start loading Pulumi's SDK, and a test starting its own waits for it alone): `start`
 * begins one under a name, `take` gives it to the test that needs it, `stop` (in `afterAll`) ends
 * every one started, taken or not. A route's own `stop` may be called too: the second stop does nothing.
 */
export class RoutePool {
  private readonly started = new Map<string, Promise<TestRoute>>();

  /** Begins starting the route `spec` under `name` (not awaited: `take` waits for it). */
  start(name: string, ...spec: RouteSpec): void {
    if (this.started.has(name)) throw new Error(`route ${name} is already started`);
    const starting = routeTo(...spec).then((route) => {
      let stopping: Promise<void> | undefined;
      return { ...route, stop: () => (stopping ??= route.stop()) };
    });
    starting.catch(() => undefined); // a failed start is reported by take
    this.started.set(name, starting);
  }

  /** The route started under `name`, once it is up. */
  take(name: string): Promise<TestRoute> {
    const route = this.started.get(name);
    if (!route) throw new Error(`no route ${name} was started: start it in beforeAll`);
    return route;
  }

  /** Once every route started so far is up (a suite whose tests measure times waits for this in beforeAll, so no start runs beside them). */
  async ready(): Promise<void> {
    await Promise.all(this.started.values());
  }

  /** Stops every route started (waiting for those still starting), then forgets them. */
  async stop(): Promise<void> {
    const all = [...this.started.values()];
    this.started.clear();
    await Promise.all(
      all.map((r) =>
        r.then(
          (route) => route.stop(),
          () => undefined,
        ),
      ),
    );
  }
}

/**
 * For the enclosing `describe`: a controller, a gateway in front of it (its behaviour reset after
 * each test) and a provider process of `kind` configured for the gateway, with the client's retries
 * off (BOUNDARY_MAX_RETRIES=0), so that a test sees what one answer did. Stopped in `afterAll`, the
 * route first. Each handle reads the started one.
 */
export function useGatewayRoute(kind: RouteKind): { c: TestController; gw: Gateway; route: TestRoute } {
  const all = useForSuite(
    "controller, gateway and route",
    async () => {
      const c = await startTestController();
      let gw: Gateway | undefined;
      try {
        gw = await startGateway(c.apiUrl);
        return { c, gw, route: await routeTo(kind, gw.url, { env: { BOUNDARY_MAX_RETRIES: "0" } }) };
      } catch (err) {
        await gw?.close();
        await c.shutdown();
        throw err;
      }
    },
    async ({ c, gw, route }) => {
      await route.stop();
      await gw.close();
      await c.shutdown();
    },
    60_000,
  );
  afterEach(() => all.gw.on(undefined));
  return { c: forward(() => all.c), gw: forward(() => all.gw), route: forward(() => all.route) };
}
