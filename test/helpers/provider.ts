/**
 * The dynamic provider (the adapter Pulumi's host loads) in process against the real controller,
 * optionally through a proxy in front of it: one call starts them, one `close` stops them in order.
 */
import type { ControllerOptions } from "../../controller";
import { BoundaryClient, type BoundaryClientOptions } from "../../provider/client";
import { DynamicTargetProvider } from "../../provider/resource/dynamic";
import { ADMIN_TOKEN, startTestController, type TestController } from "./controller";
import { forward, useForSuite } from "./suite";

/** What a proxy starter gives (the fault proxy, the rewrite proxy): its URL and its close. */
interface Proxy {
  url: string;
  close(): Promise<void>;
}

/** How to start one: the controller's options, or a running controller to use; a proxy starter; the client's options. */
export interface ProviderSetup<P extends Proxy | undefined> {
  /** Options of a fresh controller, shut down by `close` (ignored when `on` is given). */
  controller?: Partial<ControllerOptions>;
  /** A running controller to use instead; `close` leaves it running. */
  on?: TestController;
  /** Starts a proxy in front of the controller's API (e.g. `startFaultProxy`); the provider then talks to it. */
  proxy?: (target: string) => Promise<P>;
  /** The client's options beyond the address and ADMIN_TOKEN (timeouts, retries, generation). */
  client?: BoundaryClientOptions;
}

/** A started provider, its controller and proxy (undefined without one). */
export interface ProviderRun<P extends Proxy | undefined> {
  c: TestController;
  proxy: P;
  provider: DynamicTargetProvider;
  /** A plain client of the controller itself (not through the proxy): to look at or change a Target outside Pulumi. */
  raw: BoundaryClient;
  /** Closes the clients, then the proxy, then the controller it started. */
  close(): Promise<void>;
}

/** Starts the controller (unless `on` is given), the proxy, and a provider talking to the proxy, else the controller. */
export async function startProvider<P extends Proxy | undefined = undefined>(setup: ProviderSetup<P> = {}): Promise<ProviderRun<P>> {
  const c = setup.on ?? (await startTestController(setup.controller));
  let proxy: P;
  try {
    proxy = (await setup.proxy?.(c.apiUrl)) as P;
  } catch (err) {
    if (!setup.on) await c.shutdown(); // the controller this call started is not left running
    throw err;
  }
  const provider = new DynamicTargetProvider({ addr: proxy?.url ?? c.apiUrl, token: ADMIN_TOKEN, ...setup.client });
  const raw = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN }, {});
  const close = async () => {
    await provider.core.client.close();
    await raw.close();
    await proxy?.close();
    if (!setup.on) await c.shutdown();
  };
  return { c, proxy, provider, raw, close };
}

/** Runs `body` with a started provider, and closes it afterwards whatever happened. */
export async function withProvider<P extends Proxy | undefined = undefined>(
  setup: ProviderSetup<P>,
  body: (run: ProviderRun<P>) => Promise<void>,
): Promise<void> {
  const run = await startProvider(setup);
  try {
    await body(run);
  } finally {
    await run.close();
  }
}

/**
 * A provider for the enclosing `describe` (or the file): started in `beforeAll`, closed in `afterAll`.
 * The handle's fields read the started one, so tests name them as `p.c`, `p.provider`, `p.proxy`, `p.raw`.
 */
export function useProvider<P extends Proxy | undefined = undefined>(setup: ProviderSetup<P> = {}): Omit<ProviderRun<P>, "close"> {
  return useForSuite(
    "provider",
    () => startProvider(setup),
    (run) => run.close(),
  );
}

/**
 * For the enclosing `describe` (or the file): a controller of `controller`'s options and a plain
 * client of it (ADMIN_TOKEN, default options), for tests of the client itself; closed in `afterAll`.
 * Each handle reads the started one.
 */
export function useClient(controller: Partial<ControllerOptions> = {}): { c: TestController; client: BoundaryClient } {
  const all = useForSuite(
    "controller and client",
    async () => {
      const c = await startTestController(controller);
      return { c, client: new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN }, {}) };
    },
    async ({ c, client }) => {
      await client.close();
      await c.shutdown();
    },
  );
  return { c: forward(() => all.c), client: forward(() => all.client) };
}
