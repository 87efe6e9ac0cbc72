/**
 * The API's routes, declared as data: method, path template, the action a caller needs, the body
 * schema, and a handler of a few lines that translates the decoded request into a store call.
 * Every rule lives in the store (`../store.ts`) and in authorize-session (`../sessions.ts`).
 */
import type { z } from "zod";
import {
  AuthorizeSessionRequest,
  CreateTargetRequest,
  UpdateTargetRequest,
  associationRequest,
  currentAssociationRequest,
  type RequestField,
  type TargetAction,
} from "../../wire/target";
import { TARGET_FIELDS, type AssociationOp } from "../../wire/target-fields";
import { BoundaryError, invalidField } from "../errors";
import type { Sessions } from "../sessions";
import { withCurrentNames } from "../current-api";
import type { Profile } from "../emulation";
import type { TargetRecord } from "../record";
import type { AssociationField, Store } from "../store";
import { pageSteps } from "../pagination";
import { inSlices } from "../slices";
import { listBody, listItemView, renderChanged, renderPage, renderTarget, type ListBytes } from "../view";
import type { Principal } from "./auth";

/** What a handler answers: a JSON value, JSON already rendered or streamed, or none (an empty body); and headers. */
export interface Reply {
  status: number;
  body?: unknown;
  json?: Buffer;
  /** A list's JSON in pieces, written without copying (see ListBytes in view.ts). */
  list?: ListBytes;
  headers?: Readonly<Record<string, string>>;
}

/** What a handler works with, once the request is authenticated, authorized and decoded. */
export interface Context {
  store: Store;
  sessions: Sessions;
  principal: Principal;
  query: URLSearchParams;
  /** The `{id}` path segment, decoded. */
  id: string;
}

/** One route of the API. */
export interface Route<B = unknown> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path template, as metrics label it: `/v1/targets/{id}:set-host-sets`. */
  template: string;
  /** What the caller must be allowed to do. */
  action: TargetAction | "list" | "create";
  /** The body's wire schema; none means the body is not read. */
  body?: z.ZodType<B>;
  /** A Target body: its output-only keys get Boundary's "read only field" message. */
  targetBody?: boolean;
  /** The rules' errors for a body some keys of which did not decode, so one 400 names them all. */
  check?: (ctx: Context, body: B) => RequestField[];
  handle: (ctx: Context, body: B) => Reply | Promise<Reply>;
}

const COLLECTION = "/v1/targets";
const ITEM = `${COLLECTION}/{id}`;

const route = <B>(r: Route<B>) => r as Route;
const view = (ctx: Context, t: TargetRecord): Reply => ({ status: 200, json: renderTarget(ctx.store, t, ctx.principal.actions) });
/** The answer to a change: rendered, not cached. */
const changed = (ctx: Context, t: TargetRecord): Reply => ({ status: 200, json: renderChanged(ctx.store, t, ctx.principal.actions) });
const updateMask = (q: URLSearchParams): string[] | undefined => q.get("update_mask")?.split(",").map((p) => p.trim()).filter(Boolean);

/** add/set/remove on one of the Target's id lists, with the action and field names of the generation. */
function association(field: "hostSetIds" | "applicationCredentialLibraryIds", op: AssociationOp, generation: Profile["generation"]): Route {
  const { association } = TARGET_FIELDS[field];
  const action = `${op}-${association.action}` as TargetAction;
  const current = generation === "current";
  return route({
    method: "POST",
    template: `${ITEM}:${op}-${current ? association.current.action : association.action}`,
    action,
    body: current ? currentAssociationRequest(field) : associationRequest(field),
    handle: (ctx, body) => {
      if (body.id !== undefined && body.id !== ctx.id) throw invalidField("id", "This must equal the id in the path.");
      // current releases change both credential lists in one action
      const lists: Partial<Record<AssociationField, string[] | null | undefined>> = { [field]: body.ids };
      if (current && association.current.action === "credential-sources") lists.injectedApplicationCredentialSourceIds = (body as { injected?: string[] | null }).injected;
      try {
        return changed(ctx, ctx.store.changeAssociation(ctx.id, op, body.version, lists));
      } catch (err) {
        throw current ? withCurrentNames(err) : err;
      }
    },
  });
}

/** Every route of the API listener, with the names of a generation. */
export function routesFor(generation: Profile["generation"]): Route[] {
  return [
  route({
    method: "GET",
    template: COLLECTION,
    action: "list",
    // async: filtering and sorting 100,000 Targets run in slices, so /health and others are answered meanwhile
    handle: async (ctx) => {
      const { store, principal, query: q } = ctx;
      // a filter sees each item as the list returns it
      const records = await inSlices(store.queryTargetsSteps({ scopeId: q.get("scope_id") ?? undefined, recursive: q.get("recursive"), filter: q.get("filter") }, (t) => listItemView(store, t, principal.actions)));
      const query = JSON.stringify([q.get("scope_id"), q.get("recursive"), q.get("filter")]);
      if (store.profile.generation !== "current") return { status: 200, list: await inSlices(listBody(store, query, records, principal.actions)) };
      // current releases paginate (a token belongs to one query: scope, recursive, filter)
      const projects = store.projectsOf(q.get("scope_id")!);
      const p = await inSlices(pageSteps(records, { query, token: q.get("list_token"), pageSize: q.get("page_size"), maxPageSize: store.maxPageSize }, Date.now(), (since) => store.deletedSince(since, projects)));
      return { status: 200, list: await inSlices(renderPage(store, p, principal.actions)) };
    },
  }),
  route({
    method: "POST",
    template: COLLECTION,
    action: "create",
    body: CreateTargetRequest,
    targetBody: true,
    check: (ctx, body) => ctx.store.checkCreate(body),
    handle: (ctx, body) => changed(ctx, ctx.store.createTarget(body)),
  }),
  route({ method: "GET", template: ITEM, action: "read", handle: (ctx) => view(ctx, ctx.store.getTarget(ctx.id)) }),
  route({
    method: "PATCH",
    template: ITEM,
    action: "update",
    body: UpdateTargetRequest,
    targetBody: true,
    check: (ctx, body) => ctx.store.checkUpdate(ctx.id, body, updateMask(ctx.query)),
    handle: (ctx, body) => changed(ctx, ctx.store.updateTarget(ctx.id, body, updateMask(ctx.query))),
  }),
  route({
    method: "DELETE",
    template: ITEM,
    action: "delete",
    handle: (ctx) => {
      ctx.store.deleteTarget(ctx.id);
      return { status: 204 };
    },
  }),
  ...(["hostSetIds", "applicationCredentialLibraryIds"] as const).flatMap((f) => (["add", "remove", "set"] as const).map((op) => association(f, op, generation))),
  route({
    method: "POST",
    template: `${ITEM}:authorize-session`,
    action: "authorize-session",
    body: AuthorizeSessionRequest,
    handle: (ctx, body) => ({ status: 200, body: ctx.sessions.authorize(ctx.id, body) }),
  }),
  ];
}

/** The routes by template, per generation (made once). */
const TABLES = new Map<Profile["generation"], Map<string, Route[]>>();
function byTemplate(generation: Profile["generation"]): Map<string, Route[]> {
  let table = TABLES.get(generation);
  if (!table) {
    table = new Map();
    for (const r of routesFor(generation)) table.set(r.template, [...(table.get(r.template) ?? []), r]);
    TABLES.set(generation, table);
  }
  return table;
}

/** v0.4's action names: on a current controller they are 405 with an empty body, before authentication. */
const V04_ACTIONS = new Set(["add-host-sets", "set-host-sets", "remove-host-sets", "add-credential-libraries", "set-credential-libraries", "remove-credential-libraries"]);
const bare = (kind: "MethodNotAllowed" | "InvalidArgument" | "NotFound", message: string) => new BoundaryError(kind, message, [], {}, true);

/**
 * Finds the route for a request and its `{id}`, or throws 404 (no such path) / 405 (path without
 * that method). A current controller answers as Boundary's rate-limit handler does before the API:
 * 405 with an empty body for a v0.4 action, 400 for an unknown action, 404 for an unknown collection.
 */
export function match(method: string, pathname: string, generation: Profile["generation"] = "v0.4"): { route: Route; id: string } {
  const BY_TEMPLATE = byTemplate(generation);
  const current = generation === "current";
  let template: string;
  let id = "";
  if (pathname === COLLECTION) template = COLLECTION;
  else if (pathname.startsWith(COLLECTION + "/") && pathname.indexOf("/", COLLECTION.length + 1) === -1) {
    let segment = pathname.slice(COLLECTION.length + 1);
    try {
      if (segment.includes("%")) segment = decodeURIComponent(segment);
    } catch {
      throw invalidField("id", "The path segment is not valid percent-encoding.");
    }
    const colon = segment.lastIndexOf(":");
    const action = colon >= 0 ? segment.slice(colon + 1) : "";
    const withAction = action ? `${ITEM}:${action}` : "";
    if (current && action && V04_ACTIONS.has(action)) throw bare("MethodNotAllowed", `${action} is not an action of this release.`);
    if (current && action && !BY_TEMPLATE.has(withAction)) throw bare("InvalidArgument", `Unknown action ${action}.`);
    template = BY_TEMPLATE.has(withAction) ? withAction : ITEM;
    id = template === ITEM ? segment : segment.slice(0, colon);
  } else if (current) throw bare("NotFound", `No route for ${pathname}.`);
  else throw new BoundaryError("NotFound", `No route for ${pathname}.`);
  const routes = BY_TEMPLATE.get(template)!;
  const found = routes.find((r) => r.method === method);
  if (!found) {
    const allow = routes.map((r) => r.method).join(", ");
    throw new BoundaryError("MethodNotAllowed", `Method ${method} is not allowed on ${template}.`, [], { allow });
  }
  return { route: found, id };
}
