/**
 * Starts a controller: the API listener (Target endpoints) and the ops listener (/health,
 * /metrics) over one store, and shuts both down gracefully. Used by the CLI, the tests, the demo
 * and the benchmarks alike.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http";
import { Server as TlsServer, createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { Drain } from "./drain";
import { ConfigError } from "./errors";
import { RateLimiter } from "./rate-limit";
import { Authenticator } from "./http/auth";
import { AuthTokens } from "./sessions/auth-tokens";
import { apiChain } from "./http/chain";
import { Metrics, opsHandler, type HealthState } from "./http/ops";
import { requestLogger, silentLogger } from "./log";
import { Sessions } from "./sessions";
import { Store, defaultFixtures } from "./store";
import type { ControllerOptions, ListenerOptions, HostPort } from "./config/options";
import { rereadTls, secureOptions } from "./config/tls";
import { sleep } from "../common/sleep";

/** A started controller: its addresses, its data, and how to stop it. */
export interface RunningController {
  apiUrl: string;
  opsUrl: string;
  store: Store;
  sessions: Sessions;
  metrics: Metrics;
  /** Starts graceful shutdown (idempotent); resolves when both listeners are closed. */
  shutdown(): Promise<void>;
  /**
   * Reads the listeners' certificate and key files again and serves them to new connections (SIGHUP).
   * Returns what was reloaded, one line per listener; a file that cannot be read or used leaves
   * that listener as it was and is named in its line.
   */
  reloadTls(): { listener: string; ok: boolean; message: string }[];
}

/** How long in-flight requests get after the API listener closes before connections are cut. */
const DRAIN_MS = 5000;
/**
 * Even without a grace period, answers carry `Connection: close` this long before the listener
 * closes: keep-alive clients move off their sockets instead of meeting a reset on them.
 */
const DRAIN_WINDOW_MS = 250;
/** Before the listener closes, how long no new connection must arrive (clients have stopped reconnecting)… */
const SETTLE_MS = 100;
/** …waiting at most this long for it. */
const SETTLE_MAX_MS = 2000;
/**
 * After the listener closes, a connection with no request in flight is closed once it has been
 * idle this long: a client still sending sends again well within it, even on a loaded machine.
 */
const IDLE_MS = 300;

/**
 * Starts a controller: binds the API and ops listeners (port 0 picks a free port) over one store,
 * and resolves once both listen. Rejects when a listener cannot bind.
 */
export async function startController(options: ControllerOptions): Promise<RunningController> {
  const logger = options.logger ?? silentLogger;
  const store =
    options.store ??
    new Store(options.fixtures, { ignoreCreateAssociations: options.ignoreCreateAssociations, emulation: options.emulation, maxPageSize: options.maxPageSize });
  const sessions = new Sessions(store, options.maxSessions);
  // fixtures built before auth methods were seeded hold none: `boundary dev`'s then
  const tokens = new AuthTokens(options.fixtures.auth_methods ?? defaultFixtures().auth_methods, options.authTokenTtlMs);
  const auth = new Authenticator(options.token, options.readOnlyToken, tokens);
  const metrics = new Metrics();
  const health: HealthState = { shuttingDown: false };
  let closing = false;

  // releases with the rate limiter (the release table: 0.14.3+) limit every /v1/ request by default
  const limiter =
    store.release.rateLimiter && options.rateLimits !== "disabled" ? new RateLimiter(store.release, options.rateLimits ?? [], options.maxQuotas) : undefined;
  const handleApi = apiChain({
    store,
    sessions,
    auth,
    tokens,
    metrics,
    logger: requestLogger(logger),
    closing: () => closing,
    limiter,
    answered: (req) => apiDrain.answered(req),
  });

  const api = serve(options.api, (req, res) => {
    apiDrain.started(req);
    handleApi(req, res);
  });
  const handleOps = opsHandler(health, metrics, store.release.healthBody);
  const ops = serve(options.ops, (req, res) => {
    opsDrain.request(req, res);
    // from the first signal, probes close their connection too: the ops listener's close then waits on no poller
    if (health.shuttingDown) res.setHeader("connection", "close");
    void handleOps(req, res);
  });
  const apiDrain = new Drain(api);
  const opsDrain = new Drain(ops);
  const tls = { api: options.api.tls, ops: options.ops.tls };
  const apiAddr = await listen(api, options.api, "API");
  let opsAddr: AddressInfo;
  try {
    opsAddr = await listen(ops, options.ops, "ops");
  } catch (err) {
    await apiDrain.close(0, 0); // nothing may keep serving when the controller failed to start
    throw err;
  }

  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      health.shuttingDown = true;
      // during the wait every answer closes its connection: clients (and load balancers) move off
      closing = true;
      logger.info("shutdown started", { grace_ms: options.gracefulShutdownWaitMs });
      await sleep(Math.max(options.gracefulShutdownWaitMs, DRAIN_WINDOW_MS));
      if (options.gracefulShutdownWaitMs > 0) logger.info("grace period over; closing the API listener");
      // Clients still sending reconnect after every answer, so at any instant some sit in the
      // kernel's accept queue, and closing the listener resets them. Keep connections alive until
      // none has been accepted for a moment: they have stopped reconnecting, the queue is empty,
      // and the listener closes on no one. Then each connection closes after its next answer.
      closing = false;
      await apiDrain.acceptsQuiet(SETTLE_MS, SETTLE_MAX_MS);
      closing = true;
      await apiDrain.close(IDLE_MS, DRAIN_MS);
      await opsDrain.close(IDLE_MS, DRAIN_MS);
      logger.info("shutdown complete");
    })());

  const reloadTls = () =>
    (["api", "ops"] as const).flatMap((which) => {
      const current = tls[which];
      if (!current) return [];
      try {
        tls[which] = rereadTls(current);
        const server = which === "api" ? api : ops;
        if (server instanceof TlsServer) server.setSecureContext(secureOptions(tls[which]!));
        return [{ listener: which, ok: true, message: `certificate ${current.certFile} and key ${current.keyFile} reloaded` }];
      } catch (err) {
        return [{ listener: which, ok: false, message: `${(err as Error).message}; still serving the certificate loaded before` }];
      }
    });

  return {
    apiUrl: url(apiAddr, !!options.api.tls),
    opsUrl: url(opsAddr, !!options.ops.tls),
    store,
    sessions,
    metrics,
    shutdown,
    reloadTls,
  };
}

/** A listener: HTTP, or HTTPS when it has TLS. */
type Listener = Server | TlsServer;

/**
 * What both listeners ask of Node's server. `optimizeEmptyRequests` (Node 24): a request without
 * Content-Length or Transfer-Encoding has no body (RFC 9112 6.3), so Node marks it read and ended
 * at once instead of running it through a stream's life cycle (its `resume`, `end` and `close`
 * events, on later ticks): a tenth of Node's own work per GET. Handlers never wait for such a
 * request's events (body.ts reads a body only when there is one). Older Nodes ignore the option.
 */
const SERVER_OPTIONS: ServerOptions = { optimizeEmptyRequests: true };

/** An HTTP server, or an HTTPS one when the listener has TLS. */
function serve(listener: ListenerOptions, handler: (req: IncomingMessage, res: ServerResponse) => void): Listener {
  return listener.tls ? createTlsServer({ ...SERVER_OPTIONS, ...secureOptions(listener.tls) }, handler) : createServer(SERVER_OPTIONS, handler);
}

/** Binds a listener; the error names which one and where ("cannot listen on the ops address …"). */
function listen(server: Listener, at: HostPort, which: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(new ConfigError(`cannot listen on the ${which} address ${at.host}:${at.port}: ${err.code ?? err.message}`, { cause: err })),
    );
    server.listen(at.port, at.host, () => {
      server.removeAllListeners("error");
      resolve(server.address() as AddressInfo);
    });
  });
}

function url(a: AddressInfo, https: boolean): string {
  const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
  return `${https ? "https" : "http"}://${host}:${a.port}`;
}
