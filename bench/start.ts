/**
 * The benchmarks' controller: in this process, on free loopback ports, with the default seed, the
 * benchmarks' token and no grace period (a benchmark stops it as soon as it is done).
 */
import { defaultFixtures, startController, type ControllerOptions, type RunningController } from "../controller";

/** The token every benchmark's controller takes (Boundary's `at_…` format). */
export const TOKEN = "at_1234567890_s1bench";

/** Starts a controller for a benchmark; `options` override the defaults above. */
export function benchController(options: Partial<ControllerOptions> = {}): Promise<RunningController> {
  return startController({
    api: { host: "127.0.0.1", port: 0 },
    ops: { host: "127.0.0.1", port: 0 },
    token: TOKEN,
    gracefulShutdownWaitMs: 0,
    fixtures: defaultFixtures(),
    ...options,
  });
}
