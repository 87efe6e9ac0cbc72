/**
 * A loopback proxy that enforces a quota the way Boundary (≥ 0.14.3) does, in front of the real
 * controller: per action (a method and path, ids left out: Boundary keeps a quota per resource and
 * action), `limit` requests per `windowMs` window; over it, 429 with an empty body and
 * `Retry-After`; every answer carries its action's `RateLimit: limit=N, remaining=M, reset=S`.
 * Options make it what real clusters are: `controllers` counts kept apart and taken in turn, as a
 * round-robin balancer in front of controllers that each keep their own quotas; `holdMs` holds
 * each answer (after it was counted) for that long, so concurrent answers arrive out of order;
 * `reachMs` delays a request on its way to the controller the balancer chose (a slow leg), so one
 * controller's window may start later than another's.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The running proxy: its URL, how many requests it refused, and close. */
export interface QuotaProxy {
  url: string;
  /** How many requests it refused with 429. */
  refused(): number;
  /** How many requests reached it. */
  seen(): number;
  close(): Promise<void>;
}

/** How the proxy stands for a cluster; see the module comment. */
export interface QuotaProxyOptions {
  /** Counts kept apart, taken in turn request by request (a round-robin balancer); default 1. */
  controllers?: number;
  /** How long to hold the `n`th answer (1-based) once counted, in ms; default none. */
  holdMs?: (n: number) => number;
  /** How long the `n`th request (1-based) takes to reach the controller chosen for it, in ms; default none. */
  reachMs?: (n: number) => number;
  /** Per controller, how much of each action's first window another client already used; default none. */
  used?: number[];
}

/** Starts a proxy on a loopback port in front of `target` (the controller's API URL) with `limit` requests per action per `windowMs` (per controller). */
export async function startQuotaProxy(target: string, limit: number, windowMs: number, options: QuotaProxyOptions = {}): Promise<QuotaProxy> {
  const upstream = new URL(target);
  const counts = Array.from({ length: options.controllers ?? 1 }, () => new Map<string, { start: number; used: number }>());
  let refused = 0;
  let n = 0;
  const server: Server = createServer((req, res) => {
    const nth = ++n;
    const which = (nth - 1) % counts.length;
    const reach = options.reachMs?.(nth) ?? 0;
    if (reach > 0) setTimeout(() => counted(req, res, nth, which), reach);
    else counted(req, res, nth, which);
  });
  /** The `nth` request, as controller `which` counts and answers it. */
  const counted = (req: IncomingMessage, res: ServerResponse, nth: number, which: number) => {
    const now = Date.now();
    const hold = options.holdMs?.(nth) ?? 0;
    const windows = counts[which]!;
    // the action: the method and the path without query and ids (`POST /v1/targets/{id}:set-host-sources`)
    const action = `${req.method} ${(req.url ?? "").split("?")[0]!.replace(/\/[a-z]+_[0-9A-Za-z]+/g, "/{id}")}`;
    let w = windows.get(action);
    if (!w || now - w.start >= windowMs) windows.set(action, (w = { start: now, used: w ? 0 : (options.used?.[which] ?? 0) }));
    const window = w;
    const reset = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    const rateLimit = (remaining: number) => `limit=${limit}, remaining=${remaining}, reset=${reset}`;
    if (window.used >= limit) {
      refused++;
      req.resume();
      setTimeout(() => {
        res.writeHead(429, { "retry-after": String(reset), ratelimit: rateLimit(0) });
        res.end();
      }, hold);
      return;
    }
    window.used++;
    const remaining = limit - window.used;
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      setTimeout(() => {
        res.writeHead(up.statusCode!, { ...up.headers, ratelimit: rateLimit(remaining) });
        up.pipe(res);
      }, hold);
    });
    req.pipe(out);
  };
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused: () => refused,
    seen: () => n,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
