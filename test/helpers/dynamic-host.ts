/**
 * Pulumi's real dynamic-provider host, started from the packed program and configured for a real
 * controller as the engine configures it: the whole stack config, namespaced, the token wrapped as
 * a secret. A fresh host knows nothing of the controller yet (which release it is, which names it reads).
 */
import type { ControllerOptions } from "../../controller";
import { engine, secret, type Engine } from "../../harness/engine";
import { packedProgram, serializedProvider, startHost, type Host } from "../../harness/provider-host";
import { ADMIN_TOKEN, startTestController, type TestController } from "./controller";
import { useForSuite } from "./suite";

let serialized: string | undefined;

/** The `__provider` text the SDK serializes for a Target of the packed program: what state holds (made once per test file). */
export function providerText(): string {
  return (serialized ??= serializedProvider(packedProgram()));
}

/** A controller, the host configured for it, and the engine's client of the host. */
export interface HostedProvider {
  c: TestController;
  host: Host;
  e: Engine;
  /** The serialized provider a dynamic resource's inputs carry. */
  providerText: string;
  /** Check as the engine calls it for a dynamic resource: the program's inputs `news` plus `__provider`. */
  check(news: object, olds?: object): ReturnType<Engine["check"]>;
}

/** Starts a controller of `controller`'s options and a host configured for it, for the resource `urn`; `stop` ends both. */
export async function startHostedProvider(urn: string, controller: Partial<ControllerOptions> = {}): Promise<HostedProvider & { stop(): Promise<void> }> {
  const text = providerText();
  const c = await startTestController(controller);
  const host = await startHost(packedProgram()).catch(async (err: unknown) => {
    await c.shutdown();
    throw err;
  });
  const stop = async () => {
    await host.stop();
    await c.shutdown();
  };
  const e = engine(host, urn);
  await e.configure({ "boundary:addr": c.apiUrl, "boundary:token": secret(ADMIN_TOKEN) }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  return { c, host, e, providerText: text, check: (news, olds = {}) => e.check({ ...news, __provider: text }, olds), stop };
}

/**
 * A hosted provider for the enclosing `describe` (or the file): started in `beforeAll`, stopped in
 * `afterAll`. The handle's fields read the started one (`h.c`, `h.e`, `h.host`, `h.check`).
 */
export function useHostedProvider(urn: string, controller: Partial<ControllerOptions> = {}): HostedProvider {
  return useForSuite(
    "hosted provider",
    () => startHostedProvider(urn, controller),
    (run) => run.stop(),
    60_000,
  );
}
