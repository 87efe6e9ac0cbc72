/**
 * A loopback proxy in front of the real controller that injects what our controller never does by
 * itself: rate limiting (429/503 with Retry-After), real Boundary's error quirks, hangs, and
 * malformed bodies. Everything it does not intercept reaches the controller unchanged.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does instead of (or besides) forwarding: answer `status` with `headers` and `body`, or one of the flags. */
export interface Fault {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (for timeouts). */
  hang?: boolean;
  /** Let the controller process the request, then cut the connection before the answer arrives. */
  dropAnswer?: boolean;
  /** Send the status and headers, and part of the body, then nothing more (a stalled body). */
  stallBody?: boolean;
  /** Cut the connection at once, forwarding nothing (a controller that is away). */
  reset?: boolean;
  /** Forward the request, and hold the controller's answer this long before passing it on (a slow answer; `status` is unused). */
  delayMs?: number;
}

/** Decides per request (`count` is its 1-based place among all requests seen): a Fault, or undefined to forward it unchanged. */
export type Interceptor = (req: IncomingMessage, count: number) => Fault | undefined;

/** The running proxy: its URL, what it saw, the interceptor it applies (undefined: none), and close. */
export interface FaultProxy {
  url: string;
  /** Requests seen, intercepted or not, with the body as sent (once it has arrived) and the answer's status. */
  seen: { method: string; path: string; body: string; status?: number }[];
  intercept(fn: Interceptor | undefined): void;
  close(): Promise<void>;
}

/** Starts a proxy on a loopback port that forwards to `target` (the controller's API URL) until an interceptor says otherwise. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let interceptor: Interceptor | undefined;
  const seen: FaultProxy["seen"] = [];
  const server: Server = createServer((req, res) => {
    const entry: FaultProxy["seen"][number] = { method: req.method!, path: req.url!, body: "" };
    seen.push(entry);
    req.on("data", (d: Buffer) => (entry.body += d.toString("utf8")));
    const fault = interceptor?.(req, seen.length);
    if (fault?.hang) return;
    if (fault?.reset) return void req.socket.destroy();
    if (fault?.stallBody) {
      res.writeHead(fault.status, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"id":"ttcp_');
      return;
    }
    if (fault && !fault.dropAnswer && fault.delayMs === undefined) {
      req.resume();
      res.writeHead(fault.status, fault.headers ?? {});
      res.end(fault.body ?? "");
      return;
    }
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      if (fault?.dropAnswer) {
        up.resume();
        res.socket?.destroy();
        return;
      }
      entry.status = up.statusCode;
      const pass = () => {
        res.writeHead(up.statusCode!, up.headers);
        up.pipe(res);
      };
      if (fault?.delayMs !== undefined) setTimeout(pass, fault.delayMs);
      else pass();
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    intercept: (fn) => (interceptor = fn),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
