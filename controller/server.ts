/**
 * Starts a controller: the API listener (Target endpoints) and the ops listener (/health,
 * /metrics) over one store, and shuts both down gracefully. Used by the CLI, the tests, the demo
 * and the benchmarks alike.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Fixtures } from "./fixtures";
import { Authenticator } from "./http/auth";
import { apiChain } from "./http/chain";
import { Metrics, opsHandler, type HealthState } from "./http/ops";
import { silentLogger, type Logger } from "./log";
import { Sessions } from "./sessions";
import { Store } from "./store";

/** A listener address; port 0 picks a free port. */
export interface HostPort {
  host: string;
  port: number;
}

/** How to start a controller. */
export interface ControllerOptions {
  api: HostPort;
  ops: HostPort;
  token: string;
  readOnlyToken?: string;
  /** 0 disables the grace period: shutdown starts at once. */
  gracefulShutdownWaitMs: number;
  fixtures: Fixtures;
  ignoreCreateAssociations?: boolean;
  logger?: Logger;
  /** Serve an existing store (a restart that keeps its data, as a real controller's database does). */
  store?: Store;
}

/** A started controller: its addresses, its data, and how to stop it. */
export interface RunningController {
  apiUrl: string;
  opsUrl: string;
  store: Store;
  sessions: Sessions;
  metrics: Metrics;
  /** Starts graceful shutdown (idempotent); resolves when both listeners are closed. */
  shutdown(): Promise<void>;
}

/** How long in-flight requests get after the API listener closes before connections are cut. */
const DRAIN_MS = 5000;

/**
 * Starts a controller: binds the API and ops listeners (port 0 picks a free port) over one store,
 * and resolves once both listen. Rejects when a listener cannot bind.
 */
export async function startController(options: ControllerOptions): Promise<RunningController> {
  const logger = options.logger ?? silentLogger;
  const store = options.store ?? new Store(options.fixtures, { ignoreCreateAssociations: options.ignoreCreateAssociations });
  const sessions = new Sessions(store);
  const auth = new Authenticator(options.token, options.readOnlyToken);
  const metrics = new Metrics();
  const health: HealthState = { shuttingDown: false };
  let closing = false;

  const handleApi = apiChain({ store, sessions, auth, metrics, logger, closing: () => closing });

  const api = createServer((req, res) => void handleApi(req, res));
  const handleOps = opsHandler(health, metrics);
  const ops = createServer((req, res) => void handleOps(req, res));
  const apiAddr = await listen(api, options.api);
  const opsAddr = await listen(ops, options.ops);

  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      health.shuttingDown = true;
      logger.info("shutdown started", { grace_ms: options.gracefulShutdownWaitMs });
      if (options.gracefulShutdownWaitMs > 0) {
        await new Promise((r) => setTimeout(r, options.gracefulShutdownWaitMs));
        logger.info("grace period over; closing the API listener");
      }
      closing = true;
      await close(api);
      await close(ops);
      logger.info("shutdown complete");
    })());

  return {
    apiUrl: url(apiAddr),
    opsUrl: url(opsAddr),
    store,
    sessions,
    metrics,
    shutdown,
  };
}

function listen(server: Server, at: HostPort): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(at.port, at.host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Stops accepting, lets in-flight requests finish (idle keep-alive sockets close now), then cuts. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function url(a: AddressInfo): string {
  const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
  return `http://${host}:${a.port}`;
}
