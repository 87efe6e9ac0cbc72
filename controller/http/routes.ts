/**
 * The API's routes, declared as data: method, path template, the action a caller needs, the body
 * schema, and a handler of a few lines that translates the decoded request into a store call.
 * Every rule lives in the store (`../store/`) and in authorize-session (`../sessions/`).
 */
import type { z } from "zod";
import { listIn, type ListField, type ListRoute, type Release } from "../../wire/releases";
import { AuthorizeSessionRequest, CreateTargetRequest, UpdateTargetRequest, actionRequest, idsUnder, type RequestField } from "../../wire/target";
import { LIST_FIELDS, type AssociationOp } from "../../wire/target-fields";
import type { SentIds } from "../rules/actions";
import { invalidField, invalidFields, type ControllerFault } from "../errors";
import type { Sessions } from "../sessions";
import type { AuthTokens } from "../sessions/auth-tokens";
import type { TargetRecord } from "../record";
import { maybeAlias, type Store } from "../store";
import { pageSteps } from "../pagination";
import { inSlicesOrNow, type Steps } from "../slices";
import { keepListReply, keptListReply } from "../list-replies";
import { listBody, listItemView, renderChanged, renderPage, renderTarget, renderUpdated, type ListBytes } from "../view";
import { forbidden, type Principal } from "./auth";
import type { GatewayBody } from "./gateway-body";
import { listParams } from "./query";

/** What a handler answers: a JSON value, JSON already rendered, a list's pieces, a page that is not JSON, or none (an empty body); and headers. */
export interface Reply {
  status: number;
  body?: unknown;
  json?: Buffer;
  /** A list's JSON in pieces, written without copying (see ListBytes in view.ts). */
  list?: ListBytes;
  /** A body that is not JSON (what a release answers outside its API: a page, plain text). */
  page?: { contentType: string; text: string };
  headers?: Readonly<Record<string, string>>;
}

/** What a handler works with, once the request is authenticated, authorized and decoded. */
export interface Context {
  store: Store;
  sessions: Sessions;
  /** The tokens logins issue. */
  tokens: AuthTokens;
  principal: Principal;
  /** The caller's `authorized_actions` on a Target in the release emulated. */
  actions: readonly string[];
  query: URLSearchParams;
  /** The query string as sent (what follows `?`, or ""): what a kept list reply is found by. */
  queryString: string;
  /** The `{id}` path segment, decoded. */
  id: string;
}

/** One route of the API. */
export interface Route<B = unknown> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path template, as metrics label it: `/v1/targets/{id}:set-host-sets`. */
  template: string;
  /** What the caller must be allowed to do: an action's name in the release, or list/create. */
  action: string;
  /** The resource the rate limiter counts it against (default `target`). */
  resource?: string;
  /** Anyone may call it, with or without a token (`:authenticate`). */
  anonymous?: boolean;
  /** The body's wire schema; none means the body is not read. */
  body?: z.ZodType<B>;
  /** A Target body: its output-only keys get Boundary's "read only field" message. */
  targetBody?: boolean;
  /** The request message a release's gateway decodes the body into (see gateway-body.ts). */
  gateway?: GatewayBody;
  /** The rules' errors for a body some keys of which did not decode, so one 400 names them all. */
  check?: (ctx: Context, body: B) => RequestField[];
  handle: (ctx: Context, body: B) => Reply | Promise<Reply>;
  /**
   * What Boundary checks before the caller's token, changing nothing: the request's validation and
   * the lookup of its scope or Target, throwing their answer (400, 404). Returns the refusal to give
   * instead of the token's where the release answers otherwise (a recursive list from `global`).
   */
  lookup?: (ctx: Context, body: B) => ControllerFault | undefined;
}

/** The collection's path. */
export const COLLECTION = "/v1/targets";
/** An item's path template. */
export const ITEM = `${COLLECTION}/{id}`;

const route = <B>(r: Route<B>) => r as Route;
const view = (ctx: Context, t: TargetRecord): Reply => ({ status: 200, json: renderTarget(ctx.store, t, ctx.actions) });
/** The answer to a change: rendered, not cached. */
const changed = (ctx: Context, t: TargetRecord): Reply => ({ status: 200, json: renderChanged(ctx.store, t, ctx.actions) });
const updateMask = (q: URLSearchParams): string[] | undefined =>
  q
    .get("update_mask")
    ?.split(",")
    .map((p) => p.trim())
    .filter(Boolean);

/**
 * The add/set/remove routes of a release, one per noun its lists route (the release table's): each
 * reads the names its lists come by, and changes every list of that noun together (from 0.10 one
 * `:set-credential-sources` carries the brokered and the injected list).
 */
function actionRoutes(r: Release): Route[] {
  const byNoun = new Map<ListRoute["noun"], { field: ListField; name: string }[]>();
  for (const field of LIST_FIELDS) {
    for (const { noun, reads } of listIn(r, field)?.routes ?? []) byNoun.set(noun, [...(byNoun.get(noun) ?? []), ...reads.map((name) => ({ field, name }))]);
  }
  return [...byNoun].flatMap(([noun, names]) =>
    (["add", "remove", "set"] as const).map((op: AssociationOp) =>
      route({
        method: "POST",
        template: `${ITEM}:${op}-${noun}`,
        action: `${op}-${noun}`,
        body: actionRequest(
          names.map((n) => n.name),
          r.unknownKeys === "named",
        ),
        gateway: { request: ["id"], lists: names.map((n) => n.name), integers: ["version"] },
        lookup: (ctx) => void ctx.store.getTarget(ctx.id, "action"),
        handle: (ctx, body) => {
          // on a release the gateway has already set the body's id to the path's (`body: "*"`)
          if (body.id !== undefined && body.id !== ctx.id) throw invalidField("id", "This must equal the id in the path.");
          const sent: SentIds[] = names.map((n) => ({ field: n.field, name: n.name, ids: idsUnder(body, n.name) }));
          return changed(ctx, ctx.store.changeAssociation(ctx.id, op, body.version, sent, noun));
        },
      }),
    ),
  );
}

/** A list's answer, as steps that may pause (see slices.ts). */
function* listSteps(ctx: Context): Steps<Reply> {
  const { store, actions } = ctx;
  const changes = store.changes;
  const q = listParams(store.release, ctx.query);
  // a filter sees each item as the list returns it (to this caller: its actions)
  const records = yield* store.queryTargetsSteps(
    { scopeId: q.scopeId ?? undefined, recursive: q.recursive, filter: q.filter },
    (t) => listItemView(store, t, actions),
    actions.join(","),
  );
  const query = JSON.stringify([q.scopeId, q.recursive, q.filter]);
  if (!store.release.pagination) {
    const list = yield* listBody(store, query, records, actions);
    const reply = { status: 200, list };
    // a kept body (one piece): the same query asked again before any change is answered with this reply
    if (list.pieces.length === 1) keepListReply(store, actions, ctx.queryString, changes, reply);
    return reply;
  }
  // 0.15+ paginate (a token belongs to one query: scope, recursive, filter)
  const projects = store.projectsOf(q.scopeId!);
  const page = {
    query,
    token: q.token,
    pageSize: q.pageSize,
    maxPageSize: store.maxPageSize,
    dialect: store.dialect,
    scopedTokens: store.release.listTokenScoped,
  };
  const p = yield* pageSteps(records, page, Date.now(), (since) => store.deletedSince(since, projects));
  return { status: 200, list: yield* renderPage(store, p, actions) };
}

/** Every route of the API listener, with the names and actions of a release. */
export function routesFor(r: Release): Route[] {
  return [
    route({
      method: "GET",
      template: COLLECTION,
      action: "list",
      lookup: (ctx) => {
        const q = listParams(ctx.store.release, ctx.query);
        const recursive = ctx.store.checkList({ scopeId: q.scopeId ?? undefined, recursive: q.recursive, filter: q.filter });
        return recursive && q.scopeId === "global" && ctx.store.release.anonymousGlobalList === "PermissionDenied" ? forbidden() : undefined;
      },
      // in slices: filtering and sorting 100,000 Targets pause, so /health and others are answered meanwhile;
      // a list that takes less than a slice (a cached body) is answered at once, without a promise;
      // an unpaginated list asked again unchanged, with its kept reply (list-replies.ts)
      handle: (ctx) => keptListReply<Reply>(ctx.store, ctx.actions, ctx.queryString) ?? inSlicesOrNow(listSteps(ctx)),
    }),
    route({
      method: "POST",
      template: COLLECTION,
      action: "create",
      body: CreateTargetRequest,
      targetBody: true,
      gateway: { target: "create" },
      check: (ctx, body) => ctx.store.checkCreate(body),
      lookup: (ctx, body) => void ctx.store.vetCreate(body),
      handle: (ctx, body) => changed(ctx, ctx.store.createTarget(body)),
    }),
    route({
      method: "GET",
      template: ITEM,
      action: "read",
      lookup: (ctx) => void ctx.store.getTarget(ctx.id),
      handle: (ctx) => view(ctx, ctx.store.getTarget(ctx.id)),
    }),
    route({
      method: "PATCH",
      template: ITEM,
      action: "update",
      body: UpdateTargetRequest,
      targetBody: true,
      gateway: { target: "update" },
      check: (ctx, body) => ctx.store.checkUpdate(ctx.id, body, updateMask(ctx.query)),
      lookup: (ctx, body) => {
        const errors = ctx.store.checkUpdate(ctx.id, body, updateMask(ctx.query));
        if (errors.length > 0) throw invalidFields(errors);
        return undefined;
      },
      handle: (ctx, body) => ({ status: 200, json: renderUpdated(ctx.store, ctx.store.updateTarget(ctx.id, body, updateMask(ctx.query)), ctx.actions) }),
    }),
    route({
      method: "DELETE",
      template: ITEM,
      action: "delete",
      lookup: (ctx) => void ctx.store.getTarget(ctx.id, "delete"),
      handle: (ctx) => {
        ctx.store.deleteTarget(ctx.id);
        return { status: 204 };
      },
    }),
    ...actionRoutes(r),
    route({
      method: "POST",
      template: `${ITEM}:authorize-session`,
      action: "authorize-session",
      body: AuthorizeSessionRequest,
      gateway: { request: ["id", "name", "scope_id", "scope_name", "host_id"] },
      // a Target named by its id or alias is looked up; one named by its name is not (its scope is the token's to see)
      lookup: (ctx, body) => void (body.name === undefined ? ctx.store.getTarget(ctx.id, "action") : undefined),
      // an alias value names the Target unless a scope says the segment is a Target's name (0.16+)
      handle: (ctx, body) => {
        const alias = ctx.store.release.aliases && maybeAlias(ctx.id) && !body.scope_id && !body.scope_name;
        return { status: 200, body: ctx.sessions.authorize(alias ? ctx.store.resolveId(ctx.id) : ctx.id, body) };
      },
    }),
  ];
}

const TABLES = new Map<Release, Map<string, Route[]>>();
/** The routes by template, per release (made once), in the order the gateway registers them. */
export function byTemplate(r: Release): Map<string, Route[]> {
  let table = TABLES.get(r);
  if (!table) {
    table = new Map();
    for (const x of routesFor(r)) table.set(x.template, [...(table.get(x.template) ?? []), x]);
    TABLES.set(r, table);
  }
  return table;
}
