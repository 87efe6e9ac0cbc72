/**
 * A loopback proxy that answers lists as Boundary ≥ 0.15 does, from the real controller's full
 * list: pages of `pageSize` with `response_type` "delta" and a `list_token` while more follow,
 * "complete" (with a refresh token) on the last, no `items` when empty. Everything else passes
 * through unchanged.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The running proxy: its URL, the pages it served, and close. */
export interface PagingProxy {
  url: string;
  /** The list requests it answered, with their list_token (undefined for a first page). */
  pages: (string | undefined)[];
  close(): Promise<void>;
}

/** Starts a proxy on a loopback port in front of `target` (the controller's API URL) that pages lists by `pageSize`. */
export async function startPagingProxy(target: string, pageSize: number): Promise<PagingProxy> {
  const pages: (string | undefined)[] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, "http://proxy");
    if (req.method === "GET" && url.pathname === "/v1/targets") {
      const token = url.searchParams.get("list_token") ?? undefined;
      pages.push(token);
      url.searchParams.delete("list_token");
      const upstream = await fetch(target + url.pathname + url.search, { headers: { authorization: req.headers.authorization ?? "" } });
      const full = (await upstream.json()) as { items?: unknown[] };
      const items = full.items ?? [];
      const offset = token ? Number(token.split(":")[1]) : 0;
      const page = items.slice(offset, offset + pageSize);
      const more = offset + pageSize < items.length;
      const body: Record<string, unknown> = { response_type: more ? "delta" : "complete", sort_by: "created_time", sort_dir: "desc" };
      if (page.length > 0) Object.assign(body, { items: page, est_item_count: items.length, list_token: more ? `page:${offset + pageSize}` : "refresh:0" });
      res.writeHead(upstream.status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
      return;
    }
    const out = request({ host: new URL(target).hostname, port: new URL(target).port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode!, up.headers);
      up.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pages,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
