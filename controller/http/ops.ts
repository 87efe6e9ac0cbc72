/**
 * The ops listener: `/health` (200, or 503 once shutdown has started; no auth) and
 * `/metrics` (Prometheus text, from a registry of this controller's own so that several
 * controllers in one process never share counters).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, Registry } from "prom-client";

/** The controller's Prometheus metrics: requests by method, route template and status, served on /metrics. */
export class Metrics {
  readonly registry = new Registry();
  /**
   * Requests are counted here, and handed to prom-client only when /metrics is read: its `inc`
   * with labels hashes and validates the label object on every call, a microsecond a request.
   */
  private readonly counts = new Map<string, Map<string, Map<number, { labels: { method: string; route: string; code: string }; n: number }>>>();
  readonly requests: Counter<"method" | "route" | "code">;

  /** A registry of its own holding the request counter (not prom-client's global one). */
  constructor() {
    const counts = this.counts;
    this.requests = new Counter({
      name: "boundary_http_requests_total",
      help: "API requests by method, route template and status code.",
      labelNames: ["method", "route", "code"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const byMethod of counts.values()) for (const byCode of byMethod.values()) for (const { labels, n } of byCode.values()) this.inc(labels, n);
      },
    });
  }

  /** The count the last request went to: a client repeating one request (most do) finds it without a lookup. */
  private last: { method: string; route: string; code: number; entry: { n: number } } | undefined;

  /** Counts one API request. */
  countRequest(method: string, route: string, code: number): void {
    const last = this.last;
    // the method and the route are the parser's and the table's own strings: compared by identity at once
    if (last && last.route === route && last.method === method && last.code === code) {
      last.entry.n++;
      return;
    }
    // by route, then method, then code: three lookups of values already interned, no key to build
    let byMethod = this.counts.get(route);
    if (!byMethod) this.counts.set(route, (byMethod = new Map()));
    let byCode = byMethod.get(method);
    if (!byCode) byMethod.set(method, (byCode = new Map()));
    let entry = byCode.get(code);
    if (entry) entry.n++;
    else byCode.set(code, (entry = { labels: { method, route, code: String(code) }, n: 1 }));
    this.last = { method, route, code, entry };
  }
}

/** What /health reports: 503 once shutdown has begun, so a load balancer stops sending. */
export interface HealthState {
  shuttingDown: boolean;
}

/** Boundary's health answer (handlers/health GetHealth: an empty GetHealthResponse through the gateway), 200 or 503 alike. */
const HEALTH_JSON = Buffer.from("{}");

/**
 * The ops listener's handler: GET/HEAD /health (200, or 503 while shutting down; its body `{}` as
 * Boundary's or empty as the spec's, the release table's `healthBody`), GET /metrics; 404 otherwise.
 */
export function opsHandler(health: HealthState, metrics: Metrics, healthBody: "json" | "empty" = "empty") {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/health" && (req.method === "GET" || req.method === "HEAD")) {
      const body = healthBody === "json" ? HEALTH_JSON : Buffer.alloc(0);
      res.writeHead(health.shuttingDown ? 503 : 200, {
        ...(body.length > 0 && { "content-type": "application/json" }),
        "content-length": body.length,
        "cache-control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } else if (path === "/metrics" && req.method === "GET") {
      const text = await metrics.registry.metrics();
      res.writeHead(200, { "content-type": metrics.registry.contentType, "cache-control": "no-store" });
      res.end(text);
    } else {
      res.writeHead(404, { "content-length": 0 });
      res.end();
    }
  };
}
