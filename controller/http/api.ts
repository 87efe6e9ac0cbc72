/**
 * The API listener's routes. Each handler only translates: HTTP request → store call → JSON.
 * Every rule lives in the store (`../store.ts`) and in authorize-session (`../sessions.ts`).
 */
import type { IncomingMessage } from "node:http";
import {
  AuthorizeSessionRequest,
  CreateTargetRequest,
  CredentialLibrariesRequest,
  HostSetsRequest,
  UpdateTargetRequest,
  type TargetAction,
} from "../../wire/target";
import { BoundaryError, invalidField } from "../errors";
import { FilterSyntaxError, matches, parseFilter, type FilterExpr } from "../../wire/filter";
import type { Sessions } from "../sessions";
import type { Association, AssociationOp, Store } from "../store";
import { renderList, renderTarget, targetView } from "../view";
import { authorize, type Principal } from "./auth";
import { TARGET_READ_ONLY, decodeBody, parseBody, readJson } from "./body";

export interface Reply {
  status: number;
  /** A JSON value to send, or `json` already rendered; neither means an empty body. */
  body?: unknown;
  json?: Buffer;
}

interface Context {
  req: IncomingMessage;
  query: URLSearchParams;
  principal: Principal;
  /** The `{id}` path segment, decoded. */
  id: string;
  store: Store;
  sessions: Sessions;
}

type Handler = (ctx: Context) => Promise<Reply> | Reply;

export interface Route {
  /** The path template, as metrics label it: `/v1/targets/{id}:set-host-sets`. */
  template: string;
  handler: Handler;
  id: string;
}

const COLLECTION = "/v1/targets";

/** Finds the route for a request, or throws 404 (no such path) / 405 (path without that method). */
export function route(method: string, pathname: string): Route {
  if (pathname === COLLECTION) {
    if (method === "GET") return { template: COLLECTION, handler: listTargets, id: "" };
    if (method === "POST") return { template: COLLECTION, handler: createTarget, id: "" };
    throw methodNotAllowed(method, COLLECTION);
  }
  if (!pathname.startsWith(COLLECTION + "/") || pathname.indexOf("/", COLLECTION.length + 1) !== -1) {
    throw new BoundaryError("NotFound", `No route for ${pathname}.`);
  }
  let segment: string;
  try {
    segment = decodeURIComponent(pathname.slice(COLLECTION.length + 1));
  } catch {
    throw invalidField("id", "The path segment is not valid percent-encoding.");
  }
  const colon = segment.lastIndexOf(":");
  const action = colon >= 0 ? segment.slice(colon + 1) : "";
  if (action && ACTIONS[action]) {
    const template = `${COLLECTION}/{id}:${action}`;
    if (method !== "POST") throw methodNotAllowed(method, template);
    return { template, handler: ACTIONS[action]!, id: segment.slice(0, colon) };
  }
  const template = `${COLLECTION}/{id}`;
  const handler = ITEM[method];
  if (!handler) throw methodNotAllowed(method, template);
  return { template, handler, id: segment };
}

function methodNotAllowed(method: string, template: string): BoundaryError {
  return new BoundaryError("MethodNotAllowed", `Method ${method} is not allowed on ${template}.`);
}

function view(ctx: Context, t: Parameters<typeof targetView>[1]): Reply {
  return { status: 200, json: renderTarget(ctx.store, t, ctx.principal.actions) };
}

function listTargets(ctx: Context): Reply {
  authorize(ctx.principal, "list");
  const q = ctx.query;
  const recursiveParam = q.get("recursive");
  if (recursiveParam !== null && !["true", "false", ""].includes(recursiveParam)) {
    throw invalidField("recursive", "This must be true or false.");
  }
  let filter: FilterExpr | undefined;
  const filterText = q.get("filter");
  if (filterText) {
    try {
      filter = parseFilter(filterText);
    } catch (err) {
      if (!(err instanceof FilterSyntaxError)) throw err;
      throw invalidField("filter", `Unable to parse the filter: ${err.message}.`);
    }
  }
  const { store, principal } = ctx;
  const records = store.listTargets(q.get("scope_id") ?? undefined, recursiveParam === "true");
  const kept = filter ? records.filter((t) => matches(filter, { item: targetView(store, t, principal.actions) })) : records;
  return { status: 200, json: renderList(store, kept, principal.actions) };
}

async function createTarget(ctx: Context): Promise<Reply> {
  authorize(ctx.principal, "create");
  const { data, fields } = decodeBody(CreateTargetRequest, await readJson(ctx.req), TARGET_READ_ONLY);
  return view(ctx, ctx.store.createTarget(data, fields));
}

const ITEM: Record<string, Handler> = {
  GET: (ctx) => {
    authorize(ctx.principal, "read");
    return view(ctx, ctx.store.getTarget(ctx.id));
  },
  PATCH: async (ctx) => {
    authorize(ctx.principal, "update");
    const { data, fields } = decodeBody(UpdateTargetRequest, await readJson(ctx.req), TARGET_READ_ONLY);
    const maskParam = ctx.query.get("update_mask");
    const mask = maskParam === null ? undefined : maskParam.split(",").map((p) => p.trim()).filter(Boolean);
    return view(ctx, ctx.store.updateTarget(ctx.id, data, mask, fields));
  },
  DELETE: (ctx) => {
    authorize(ctx.principal, "delete");
    ctx.store.deleteTarget(ctx.id);
    return { status: 204 };
  },
};

function association(what: Association, op: AssociationOp): Handler {
  const action = `${op}-${what === "host_sets" ? "host-sets" : "credential-libraries"}` as TargetAction;
  return async (ctx) => {
    authorize(ctx.principal, action);
    const raw = await readJson(ctx.req);
    let version, ids, id;
    if (what === "host_sets") ({ version, host_set_ids: ids, id } = parseBody(HostSetsRequest, raw));
    else ({ version, application_credential_library_ids: ids, id } = parseBody(CredentialLibrariesRequest, raw));
    if (id !== undefined && id !== ctx.id) throw invalidField("id", "This must equal the id in the path.");
    return view(ctx, ctx.store.changeAssociation(ctx.id, what, op, version, ids));
  };
}

const ACTIONS: Record<string, Handler> = {
  "add-host-sets": association("host_sets", "add"),
  "remove-host-sets": association("host_sets", "remove"),
  "set-host-sets": association("host_sets", "set"),
  "add-credential-libraries": association("credential_libraries", "add"),
  "remove-credential-libraries": association("credential_libraries", "remove"),
  "set-credential-libraries": association("credential_libraries", "set"),
  "authorize-session": async (ctx) => {
    authorize(ctx.principal, "authorize-session");
    const body = parseBody(AuthorizeSessionRequest, await readJson(ctx.req));
    return { status: 200, body: ctx.sessions.authorize(ctx.id, body) };
  },
};
