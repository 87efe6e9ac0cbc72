/**
 * A gateway in front of the real controller, doing what gateways and proxies do to a request whose
 * outcome then cannot be seen: pass it on and answer with a page of their own (a 502 or 504 after
 * the controller applied it, a 200 whose body breaks the contract), pass it on and never answer (a
 * timeout after sending), or never pass it on at all (a silent controller, a proxy's own 404 or
 * 503). It can also shift the controller's clock as its answers show it (the `Date` header and every
 * `*_time` field), to play a controller whose clock is behind or ahead of ours. It records each
 * request's method, path and body.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** An answer the gateway makes up. */
export interface Page {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** What the gateway does with one request; undefined passes it through. */
export type Behaviour =
  /** Answer with `page` without passing the request on (the controller never sees it). */
  | { page: Page; forward?: false }
  /** Pass the request on, wait for the controller's answer, drop it, answer with `page` instead. */
  | { page: Page; forward: true }
  /** Pass the request on and never answer (the controller applies it; the client times out). */
  | { hold: true }
  /** Neither pass it on nor answer. */
  | { hang: true }
  /** Pass it on with its body rewritten, and rewrite the answer's body (a controller of another kind, played). */
  | { rewrite: { request?: (body: string) => string; answer?: (body: string) => string } };

/** A request as the gateway saw it. */
export interface Seen {
  method: string;
  path: string;
  body: string;
}

/** The running gateway: its URL, the requests it saw, and how it treats the next ones. */
export interface Gateway {
  url: string;
  seen: Seen[];
  /** Decides per request (with its body); undefined passes everything through. */
  on(fn: ((req: Seen) => Behaviour | undefined) | undefined): void;
  /** Shifts the controller's clock as its answers show it by `ms` (negative: behind ours). */
  shiftClock(ms: number): void;
  close(): Promise<void>;
}

/** A typical gateway page. */
export const pages = {
  badGateway: { status: 502, headers: { "content-type": "text/html" }, body: "<html><body><h1>502 Bad Gateway</h1></body></html>" },
  gatewayTimeout: { status: 504, headers: { "content-type": "text/html" }, body: "<html><body><h1>504 Gateway Time-out</h1></body></html>" },
  unavailable: {
    status: 503,
    headers: { "content-type": "text/html" },
    body: "<html><body><h1>503 Service Unavailable</h1>No server is available to handle this request.</body></html>",
  },
  notFound: {
    status: 404,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>",
  },
  brokenTarget: { status: 200, headers: { "content-type": "application/json" }, body: '{"id": 7, "version": "one"}' },
} satisfies Record<string, Page>;

/** Starts a gateway on a loopback port in front of `target` (the controller's API URL); it passes everything on until told otherwise. */
export async function startGateway(target: string): Promise<Gateway> {
  const upstream = new URL(target);
  let decide: ((req: Seen) => Behaviour | undefined) | undefined;
  let shift = 0;
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const s: Seen = { method: req.method!, path: req.url!, body };
      seen.push(s);
      const b = decide?.(s);
      if (b && "hang" in b) return;
      if (b && "page" in b && !b.forward) return void answer(res, b.page);
      const rewrite = b && "rewrite" in b ? b.rewrite : {};
      forward(
        req,
        rewrite.request ? rewrite.request(body) : body,
        (status, headers, text) => {
          if (b && "hold" in b) return;
          if (b && "page" in b) return void answer(res, b.page);
          const rewritten = rewrite.answer ? rewrite.answer(text) : text;
          const shifted = shift === 0 ? rewritten : shiftTimes(rewritten, shift);
          const { "content-length": _l, "transfer-encoding": _t, date, ...rest } = headers;
          const out: Record<string, string | string[]> = {
            ...(rest as Record<string, string | string[]>),
            "content-length": String(Buffer.byteLength(shifted)),
          };
          if (typeof date === "string") out.date = new Date(Date.parse(date) + shift).toUTCString();
          res.writeHead(status, out);
          res.end(shifted);
        },
        () => res.destroy(),
      );
    });
  });
  function forward(
    req: IncomingMessage,
    body: string,
    done: (status: number, headers: IncomingMessage["headers"], text: string) => void,
    failed: () => void,
  ): void {
    const headers = { ...req.headers, "content-length": Buffer.byteLength(body) };
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (up) => {
      let text = "";
      up.on("data", (d) => (text += d));
      up.on("end", () => done(up.statusCode!, up.headers, text));
    });
    out.on("error", failed);
    out.end(body);
  }
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    on: (fn) => (decide = fn),
    shiftClock: (ms) => (shift = ms),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function answer(res: import("node:http").ServerResponse, page: Page): void {
  res.writeHead(page.status, { "content-length": String(Buffer.byteLength(page.body ?? "")), ...page.headers });
  res.end(page.body ?? "");
}

/** Every `"…_time": "<RFC 3339>"` in a JSON body moved by `ms`. */
function shiftTimes(text: string, ms: number): string {
  return text.replace(/("\w*_time"\s*:\s*")([^"]+)"/g, (all, key: string, value: string) => {
    const t = Date.parse(value);
    return Number.isNaN(t) ? all : `${key}${new Date(t + ms).toISOString()}"`;
  });
}
