/**
 * A loopback proxy in front of the real controller that forwards every request unchanged and lets a
 * test rewrite an answer's JSON body: how a test shows an answer real Boundary gives and the
 * emulation does not (yet), from the observed files (a list action's 200 that attached nothing, a
 * PATCH answer without `aliases`, static credentials in authorize-session's answer).
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the controller answered it. */
export interface Exchange {
  method: string;
  /** The path with its query. */
  path: string;
  /** The request's JSON body (undefined when none or not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a rewrite reads the body field by field
  sent: any;
  status: number;
}

/** Returns the body to answer instead (a JSON value), or undefined to pass the answer on unchanged. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the controller's answer, read and changed field by field
export type Rewrite = (exchange: Exchange, answer: any) => unknown;

/** Returns the JSON body to send the controller instead, or undefined to send the request unchanged. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the request's body, read and changed field by field
export type RewriteRequest = (method: string, path: string, body: any) => unknown;

/** The running proxy: its URL, the rewrites it applies, and close. */
export interface RewriteProxy {
  url: string;
  /** The exchanges whose answer or request was rewritten, in order. */
  rewritten: Exchange[];
  rewrite(fn: Rewrite | undefined): void;
  /** Changes requests before the controller sees them (a controller that drops ids it was sent). */
  rewriteRequest(fn: RewriteRequest | undefined): void;
  close(): Promise<void>;
}

/** Starts a proxy on a loopback port forwarding to `target` (the controller's API URL). */
export async function startRewriteProxy(target: string): Promise<RewriteProxy> {
  const upstream = new URL(target);
  let rewrite: Rewrite | undefined;
  let rewriteRequest: RewriteRequest | undefined;
  const rewritten: Exchange[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (d: Buffer) => chunks.push(d));
    req.on("end", () => {
      let raw = Buffer.concat(chunks);
      const sent = parse(raw);
      const changed = sent === undefined ? undefined : rewriteRequest?.(req.method!, req.url!, sent);
      if (changed !== undefined) raw = Buffer.from(JSON.stringify(changed));
      const headers = { ...req.headers, host: upstream.host, "content-length": String(raw.length) };
      const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (up) => {
        const answer: Buffer[] = [];
        up.on("data", (d: Buffer) => answer.push(d));
        up.on("end", () => {
          let body = Buffer.concat(answer);
          const exchange: Exchange = { method: req.method!, path: req.url!, sent, status: up.statusCode! };
          const parsed = parse(body);
          const replaced = parsed === undefined ? undefined : rewrite?.(exchange, parsed);
          if (replaced !== undefined) body = Buffer.from(JSON.stringify(replaced));
          if (replaced !== undefined || changed !== undefined) rewritten.push(exchange);
          const h = { ...up.headers, "content-length": String(body.length) };
          delete h["transfer-encoding"];
          res.writeHead(up.statusCode!, h);
          res.end(body);
        });
      });
      out.on("error", () => res.destroy());
      out.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    rewritten,
    rewrite: (fn) => void (rewrite = fn),
    rewriteRequest: (fn) => void (rewriteRequest = fn),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parse(b: Buffer): unknown {
  try {
    return b.length === 0 ? undefined : JSON.parse(b.toString("utf8"));
  } catch {
    return undefined;
  }
}
