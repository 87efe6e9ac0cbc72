/**
 * A loopback proxy that makes the real controller look like another Boundary release: it may
 * rewrite each request body (what that release reads of it: names it does not know are dropped,
 * as Boundary's JSON decoding discards unknown keys) and each answer (the names it answers with).
 * It records every request as sent, before any rewrite.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  path: string;
  /** The body as the client sent it. */
  body: string;
  status?: number;
}

export interface ReleaseProxy {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startReleaseProxy(target: string, rewrite: { answers?: (body: string) => string; requests?: (body: string) => string } = {}): Promise<ReleaseProxy> {
  const seen: SeenRequest[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const entry: SeenRequest = { method: req.method!, path: req.url!, body };
      seen.push(entry);
      const sent = rewrite.requests && body ? rewrite.requests(body) : body;
      const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, "content-length": Buffer.byteLength(sent) } }, (up) => {
        let answer = "";
        up.on("data", (d) => (answer += d));
        up.on("end", () => {
          entry.status = up.statusCode;
          const text = rewrite.answers ? rewrite.answers(answer) : answer;
          const { "content-length": _len, "transfer-encoding": _te, ...headers } = up.headers;
          res.writeHead(up.statusCode!, { ...headers, "content-length": Buffer.byteLength(text) });
          res.end(text);
        });
      });
      out.end(sent);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

/** What Boundary 0.11 reads of a request: the current actions and names, none of the fields 0.12 and 0.13 added. */
export function as011(body: string): string {
  const b = JSON.parse(body);
  for (const k of ["address", "egress_worker_filter", "ingress_worker_filter"]) delete b[k];
  if (b.attributes) delete b.attributes.default_client_port;
  return JSON.stringify(b);
}
