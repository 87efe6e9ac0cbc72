/**
 * Which route takes a request, as each release finds it. A Boundary release: Go's http.ServeMux
 * cleans the path first (a `.`, `..` or `//` is a 301 to the clean path); from 0.14.3 the rate
 * limiter refuses what it cannot map to a resource and an action (ratelimit/handler.go); then
 * grpc-gateway's ServeMux (runtime/mux.go, UnescapingModeLegacy: the path is percent-decoded, then
 * split on `/`, so `%2F` separates) tries the method's patterns in turn, a verb only where the last
 * component ends with it; none of the method's matches → 405 if another method's pattern does, else
 * its routing NotFound. `{id}` is one component, `{id=**}` (authorize-session from 0.13) all the
 * rest. So a GET of `x:authorize-session` is the read route with id `x:authorize-session`. The
 * spec's controller: one decoded segment, an action its routes name, a clear 404 or 405 otherwise.
 */
import { posix } from "node:path";
import type { Release } from "../../wire/releases";
import { invalidField } from "../errors";
import { NO_ROUTE, NoRouteAnswer, outsideApi, rateLimiterRefusal } from "./no-route";
import { byTemplate, COLLECTION, ITEM, type Route } from "./routes";
import { accountMatch } from "./account-routes";

/** A route and the `{id}` it matched (decoded). */
export interface Matched {
  route: Route;
  id: string;
}

/**
 * Finds the route for a request and its `{id}`, or throws what the release answers when none
 * takes it (see NO_ROUTE): a redirect, no such path, an action it does not route, a wrong method.
 */
export function match(method: string, pathname: string, query: string, r: Release): Matched {
  // logging in and reading a scope: the routes beside the Target API (account-routes.ts)
  // (a Target's path is none of theirs: most requests skip their patterns)
  const account = pathname.startsWith(COLLECTION) ? undefined : accountMatch(method, pathname, r);
  if (account) return account;
  if (r.routing === "ours") return ourMatch(method, pathname, r);
  if (r.pathCleaning === "redirect") redirectIfUnclean(method, pathname, query);
  const path = goUnescape(pathname);
  if (!path.startsWith("/v1/") || path.split("/")[2] !== "targets") {
    throw pathname.startsWith("/v1/") ? NO_ROUTE[r.routing].noPath(method, pathname) : outsideApi(r, method, pathname);
  }
  if (r.routing === "rate-limiter") {
    const refused = rateLimiterRefusal(path, method, r);
    if (refused) throw refused;
  }
  return gatewayMatch(method, path, r);
}

/**
 * Go's ServeMux (net/http cleanPath, and "/v1" → "/v1/" where only the subtree is registered):
 * a 301 to the clean path, with Go's small page for a GET.
 */
function redirectIfUnclean(method: string, pathname: string, query: string): void {
  if (pathname !== "/v1" && !pathname.includes("//") && !pathname.includes("/.")) return;
  let clean = posix.normalize(pathname.replace(/^\/*/, "/"));
  if (clean === "/v1") clean = "/v1/";
  if (clean === pathname) return;
  const location = query ? `${clean}?${query}` : clean;
  const page = method === "GET" ? { contentType: "text/html; charset=utf-8", text: `<a href="${htmlEscape(location)}">Moved Permanently</a>.\n\n` } : undefined;
  throw new NoRouteAnswer({ status: 301, page, headers: { location } });
}

/** Go's htmlEscape (net/http). */
const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" };
const htmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => HTML[c]!);

/** Go's path unescaping (net/url): every `%XX` is a byte; a `%` without two hex digits is the server's own 400. */
function goUnescape(pathname: string): string {
  if (!pathname.includes("%")) return pathname;
  if (/%(?![0-9A-Fa-f]{2})/.test(pathname))
    throw new NoRouteAnswer({ status: 400, page: { contentType: "text/plain; charset=utf-8", text: "400 Bad Request" } });
  const bytes: number[] = [];
  for (let i = 0; i < pathname.length; i++) {
    if (pathname[i] === "%") {
      bytes.push(parseInt(pathname.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(pathname[i]!));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** A route as the gateway matches it: its verb (`authorize-session`), and whether `{id}` takes the rest of the path. */
interface Pattern {
  route: Route;
  verb: string;
  collection: boolean;
  rest: boolean;
}
const PATTERNS = new Map<Release, Pattern[]>();
function patterns(r: Release): Pattern[] {
  let all = PATTERNS.get(r);
  if (!all) {
    all = [...byTemplate(r).values()].flat().map((route) => {
      const colon = route.template.lastIndexOf(":");
      const verb = colon > 0 ? route.template.slice(colon + 1) : "";
      return { route, verb, collection: route.template === COLLECTION, rest: verb === "authorize-session" && r.authorizeSessionPath === "rest" };
    });
    PATTERNS.set(r, all);
  }
  return all;
}

/** grpc-gateway's ServeMux over the release's routes (see the module's comment). */
function gatewayMatch(method: string, path: string, r: Release): Matched {
  const comps = path.slice(1).split("/");
  const last = comps[comps.length - 1]!;
  const tryRoute = (p: Pattern, own: boolean): Matched | undefined => {
    let cs = comps;
    if (p.verb) {
      if (!last.endsWith(`:${p.verb}`)) return undefined;
      const idx = last.length - p.verb.length - 1;
      // ServeMux: a last component that is only `:verb` is a routing NotFound at once
      if (idx === 0 && own) throw NO_ROUTE[r.routing].noPath(method, path);
      cs = [...comps.slice(0, -1), last.slice(0, idx)];
    }
    const route = p.route;
    if (p.collection) return cs.length === 2 ? { route, id: "" } : undefined;
    if (p.rest) return cs.length >= 3 ? { route, id: cs.slice(2).join("/") } : undefined;
    return cs.length === 3 ? { route, id: cs[2]! } : undefined;
  };
  const all = patterns(r);
  for (const p of all) {
    const found = p.route.method === method ? tryRoute(p, true) : undefined;
    if (found) return found;
  }
  const other = all.find((p) => p.route.method !== method && tryRoute(p, false));
  if (other) throw NO_ROUTE[r.routing].notAllowed(method, other.route.template, "");
  throw NO_ROUTE[r.routing].noPath(method, path);
}

/** The route table of the release last asked for: one process runs one release, so no lookup per request. */
let lastTable: { release?: Release; table: Map<string, Route[]> } = { table: new Map() };
function tableOf(r: Release): Map<string, Route[]> {
  lastTable = { release: r, table: byTemplate(r) };
  return lastTable.table;
}

/** What an item's path starts with. */
const ITEM_PREFIX = `${COLLECTION}/`;

/** The spec's controller: `/v1/targets` and one decoded segment, its action among the routes' (a 405 naming the methods otherwise). */
function ourMatch(method: string, pathname: string, r: Release): Matched {
  const table = lastTable.release === r ? lastTable.table : tableOf(r);
  const answers = NO_ROUTE[r.routing];
  let template: string;
  let id = "";
  if (pathname === COLLECTION) template = COLLECTION;
  else if (pathname.startsWith(ITEM_PREFIX) && pathname.indexOf("/", ITEM_PREFIX.length) === -1) {
    let segment = pathname.slice(ITEM_PREFIX.length);
    try {
      if (segment.includes("%")) segment = decodeURIComponent(segment);
    } catch {
      throw invalidField("id", "The path segment is not valid percent-encoding.");
    }
    // lastIndexOf runs in the engine's runtime, includes in its fast code: most segments are a plain id
    const colon = segment.includes(":") ? segment.lastIndexOf(":") : -1;
    const action = colon >= 0 ? segment.slice(colon + 1) : "";
    const withAction = action ? `${ITEM}:${action}` : "";
    template = table.has(withAction) ? withAction : ITEM;
    id = template === ITEM ? segment : segment.slice(0, colon);
  } else throw pathname.startsWith("/v1/") ? answers.noPath(method, pathname) : outsideApi(r, method, pathname);
  const routes = table.get(template)!;
  let found: Route | undefined;
  for (const x of routes) {
    if (x.method !== method) continue;
    found = x;
    break;
  }
  if (!found) throw answers.notAllowed(method, template, routes.map((x) => x.method).join(", "));
  return { route: found, id };
}
