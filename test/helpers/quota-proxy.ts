/**
 * A loopback proxy that enforces a quota the way Boundary (≥ 0.14.3) does, in front of the real
 * controller: per action (a method and path, ids left out: Boundary keeps a quota per resource and
 * action), `limit` requests per `windowMs` window; over it, 429 with an empty body and
 * `Retry-After`; every answer carries its action's `RateLimit: limit=N, remaining=M, reset=S`.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The running proxy: its URL, how many requests it refused, and close. */
export interface QuotaProxy {
  url: string;
  /** How many requests it refused with 429. */
  refused(): number;
  close(): Promise<void>;
}

/** Starts a proxy on a loopback port in front of `target` (the controller's API URL) with `limit` requests per action per `windowMs`. */
export async function startQuotaProxy(target: string, limit: number, windowMs: number): Promise<QuotaProxy> {
  const upstream = new URL(target);
  const windows = new Map<string, { start: number; used: number }>();
  let refused = 0;
  const server: Server = createServer((req, res) => {
    const now = Date.now();
    // the action: the method and the path without query and ids (`POST /v1/targets/{id}:set-host-sources`)
    const action = `${req.method} ${(req.url ?? "").split("?")[0]!.replace(/\/[a-z]+_[0-9A-Za-z]+/g, "/{id}")}`;
    let w = windows.get(action);
    if (!w || now - w.start >= windowMs) windows.set(action, (w = { start: now, used: 0 }));
    const window = w;
    const reset = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    const rateLimit = (remaining: number) => `limit=${limit}, remaining=${remaining}, reset=${reset}`;
    if (window.used >= limit) {
      refused++;
      req.resume();
      res.writeHead(429, { "retry-after": String(reset), ratelimit: rateLimit(0) });
      res.end();
      return;
    }
    window.used++;
    const remaining = limit - window.used;
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode!, { ...up.headers, ratelimit: rateLimit(remaining) });
      up.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused: () => refused,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
