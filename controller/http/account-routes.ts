/**
 * The routes beside the Target API that a client asks before it manages Targets: logging in
 * (`POST /v1/auth-methods/{id}:authenticate`, as `boundary dev` serves it) and reading a scope
 * (`GET /v1/scopes/{id}`, whose `authorized_collection_actions` say what the caller may do with
 * the scope's Targets). Declared as data like the Target routes; the rules are `../sessions/`'s.
 */
import { z } from "zod";
import type { Release } from "../../wire/releases";
import { notFound } from "../errors";
import type { ScopeRecord } from "../store";
import { authenticate } from "../sessions/authenticate";
import type { Principal } from "./auth";
import { NO_ROUTE } from "./no-route";
import type { Context, Route } from "./routes";

/** The authenticate action's path template. */
export const AUTHENTICATE = "/v1/auth-methods/{id}:authenticate";
/** A scope's path template. */
export const SCOPE = "/v1/scopes/{id}";

/** What a scope's reader may do with its Targets, by grant (a project's; Targets live in projects). */
const TARGET_COLLECTION: Record<Principal["grant"], readonly string[]> = { admin: ["create", "list"], "read-only": ["list"] };
/** A scope's own actions, by grant (scopes IdActions). */
const SCOPE_ACTIONS: Record<Principal["grant"], readonly string[]> = { admin: ["no-op", "read", "update", "delete"], "read-only": ["no-op", "read"] };

/** A scope as `GET /v1/scopes/{id}` renders it (scopes.Scope), for this caller. */
function scopeView(ctx: Context, s: ScopeRecord): Record<string, unknown> {
  const parent = s.parent_scope_id === undefined ? undefined : ctx.store.seed.scope(s.parent_scope_id);
  const info = (p: ScopeRecord) => ({ id: p.id, type: p.type, name: p.name, description: p.description, parent_scope_id: p.parent_scope_id });
  const grant = ctx.principal.grant;
  return {
    id: s.id,
    ...(parent ? { scope_id: parent.id, scope: info(parent) } : {}),
    name: s.name,
    description: s.description,
    type: s.type,
    version: 1,
    authorized_actions: SCOPE_ACTIONS[grant],
    authorized_collection_actions: s.type === "project" ? { targets: TARGET_COLLECTION[grant] } : { scopes: TARGET_COLLECTION[grant] },
  };
}

/** The login and scope routes of a release. */
export function accountRoutes(): Route[] {
  return [
    {
      method: "POST",
      template: AUTHENTICATE,
      action: "authenticate",
      resource: "auth-method",
      anonymous: true,
      body: z.unknown(),
      handle: (ctx, body) => ({ status: 200, body: authenticate(ctx.store.release, ctx.tokens, ctx.id, body) }),
    },
    {
      method: "GET",
      template: SCOPE,
      action: "read",
      resource: "scope",
      handle: (ctx) => {
        const scope = ctx.store.seed.scope(ctx.id);
        if (!scope) throw notFound();
        return { status: 200, body: scopeView(ctx, scope) };
      },
    },
  ];
}

const ROUTES = accountRoutes();
/** Each route's pattern, and the prefix every path it matches starts with (checked first: most paths are Targets'). */
const PATTERNS: readonly { route: Route; prefix: string; pattern: RegExp }[] = [
  { route: ROUTES[0]!, prefix: "/v1/auth-methods/", pattern: /^\/v1\/auth-methods\/([^/]+):authenticate$/ },
  { route: ROUTES[1]!, prefix: "/v1/scopes/", pattern: /^\/v1\/scopes\/([^/:]+)$/ },
];

/**
 * The login or scope route a path names, or undefined for any other path (the Target routes'
 * matching takes it). A path of theirs asked with another method is the release's 405.
 */
export function accountMatch(method: string, pathname: string, r: Release): { route: Route; id: string } | undefined {
  for (const { route, prefix, pattern } of PATTERNS) {
    const m = pathname.startsWith(prefix) ? pattern.exec(pathname) : null;
    if (!m) continue;
    if (route.method !== method) throw NO_ROUTE[r.routing].notAllowed(method, route.template, route.method);
    let id: string;
    try {
      id = decodeURIComponent(m[1]!);
    } catch {
      throw notFound();
    }
    return { route, id };
  }
  return undefined;
}
