/**
 * The ops listener: `/health` (200, or 503 once shutdown has started; empty body, no auth) and
 * `/metrics` (Prometheus text, from a registry of this controller's own so that several
 * controllers in one process never share counters).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, Registry } from "prom-client";

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: "boundary_http_requests_total",
    help: "API requests by method, route template and status code.",
    labelNames: ["method", "route", "code"] as const,
    registers: [this.registry],
  });
}

export interface HealthState {
  shuttingDown: boolean;
}

export function opsHandler(health: HealthState, metrics: Metrics) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/health" && (req.method === "GET" || req.method === "HEAD")) {
      res.writeHead(health.shuttingDown ? 503 : 200, { "content-length": 0, "cache-control": "no-store" });
      res.end();
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
