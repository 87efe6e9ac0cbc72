/**
 * The Target API and the ops health endpoint, one function per endpoint, each a pure description of
 * the exact wire call (method, path, body) and of the schema its answer is parsed with. Nothing here
 * sends anything: the reconcile plan renders its calls with them (`provider/resource/plan.ts`'s
 * `wireCall`) and the client sends what it is given through its transport, so what goes on the wire
 * is tested without HTTP.
 *
 * The list actions are the one place where the call depends on the controller: `listAction` picks
 * the action (`:set-host-sets` or `:set-host-sources`, …) and the names the body carries each list
 * under from the releases the controller may be (the release table, `wire/releases.ts`).
 */
import type { z } from "zod";
import { SessionAuthorization, Target, TargetList, type CreateTargetRequest, type UpdateTargetRequest } from "../../wire/target";
import { listIn, type ListField, type ListRoute, type Release } from "../../wire/releases";
import { spec, type AssociationOp } from "../../wire/target-fields";
import { BoundaryClientError } from "./errors";

/** The HTTP methods the Target API uses. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** A Target named by id, or by name within a scope given by id or name. */
export type TargetIdentity = { targetId: string } | { name: string; scopeId: string } | { name: string; scopeName: string };

/** One call of the API, exactly as sent, and how its answer is read. */
export interface WireCall<T> {
  method: HttpMethod;
  /** The path under the API's base path (`/v1/…`), ids percent-encoded, with its query. */
  path: string;
  /** The JSON body; undefined for none. */
  body: Record<string, unknown> | undefined;
  /** The schema the answer is parsed with; undefined when the answer carries nothing to read (DELETE's 204). */
  answer: z.ZodType<T> | undefined;
  /**
   * For a list action (`listAction`), what it changes: the client renders it again through the
   * other action after a 405, and checks the answer holds the lists as asked.
   */
  list?: ListActionCall;
}

/** What a list action changes, as `listAction` was asked it, and the action it was rendered through. */
export interface ListActionCall {
  id: string;
  op: AssociationOp;
  version: number;
  lists: readonly ListIds[];
  /** The action the call goes through (`actionFor` among the releases it was rendered for). */
  noun: ListRoute["noun"];
}

/** What a list of Targets is asked for: a project's, or with `recursive` every project's below a scope. */
export interface ListQuery {
  scopeId: string;
  recursive?: boolean;
  /** Boundary's filter language (`"/item/name" == "web"`). */
  filter?: string;
  /** The token of the previous page of a paginated answer (Boundary ≥ 0.15). */
  listToken?: string;
  /** The most items a page of a paginated answer holds (Boundary ≥ 0.15 clamps it to its maximum; earlier releases ignore it). */
  pageSize?: number;
}

/** One list an action carries: the field table's key and its ids. */
export interface ListIds {
  field: ListField;
  ids: readonly string[];
}

const target = (id: string) => `/v1/targets/${encodeURIComponent(id)}`;

/** `GET /v1/targets?scope_id=…[&recursive=true][&filter=…][&list_token=…][&page_size=…]`. */
export function listTargets(q: ListQuery): WireCall<TargetList> {
  const params = new URLSearchParams({ scope_id: q.scopeId });
  if (q.recursive) params.set("recursive", "true");
  if (q.filter) params.set("filter", q.filter);
  if (q.listToken) params.set("list_token", q.listToken);
  if (q.pageSize) params.set("page_size", String(q.pageSize));
  return { method: "GET", path: `/v1/targets?${params}`, body: undefined, answer: TargetList };
}

/** `POST /v1/targets` with the Target's fields; the answer is the Target at version 1. */
export function createTarget(body: CreateTargetRequest): WireCall<Target> {
  return { method: "POST", path: "/v1/targets", body, answer: Target };
}

/** `GET /v1/targets/{id}`. */
export function readTarget(id: string): WireCall<Target> {
  return { method: "GET", path: target(id), body: undefined, answer: Target };
}

/** `PATCH /v1/targets/{id}?update_mask=…` with `version`: fields in the mask but absent from `fields` are cleared. */
export function updateTarget(id: string, version: number, mask: readonly string[], fields: Omit<UpdateTargetRequest, "version">): WireCall<Target> {
  const query = mask.length > 0 ? `?update_mask=${encodeURIComponent(mask.join(","))}` : "";
  return { method: "PATCH", path: `${target(id)}${query}`, body: { ...fields, version }, answer: Target };
}

/** `DELETE /v1/targets/{id}`: a 204. */
export function deleteTarget(id: string): WireCall<undefined> {
  return { method: "DELETE", path: target(id), body: undefined, answer: undefined };
}

/** `POST /v1/targets/{id}:{op}-{noun}` with `body` (its `version` and lists): the updated Target. */
export function targetAction(id: string, op: AssociationOp, noun: ListRoute["noun"], body: Record<string, unknown>): WireCall<Target> {
  return { method: "POST", path: `${target(id)}:${op}-${noun}`, body, answer: Target };
}

/** `POST /v1/targets/{id or name}:authorize-session`: creates a real session on the controller each time. */
export function authorizeSession(who: TargetIdentity, hostId?: string): WireCall<SessionAuthorization> {
  const body: Record<string, string> = {};
  let segment: string;
  if ("targetId" in who) {
    segment = who.targetId;
  } else {
    segment = who.name;
    body.name = who.name;
    if ("scopeId" in who) body.scope_id = who.scopeId;
    else body.scope_name = who.scopeName;
  }
  if (hostId) body.host_id = hostId;
  return { method: "POST", path: `${target(segment)}:authorize-session`, body, answer: SessionAuthorization };
}

/**
 * The action to change a list through, among `releases`: the current one if every release routes
 * it, else v0.4's (the spec's default) if some route that, else the current one.
 */
export function actionFor(releases: readonly Release[], field: ListField): ListRoute["noun"] {
  const nouns = releases.map((r) => (listIn(r, field)?.routes ?? []).map((x) => x.noun));
  const a = spec(field).association!;
  if (nouns.every((ns) => ns.includes(a.current.action))) return a.current.action;
  return a.action && nouns.some((ns) => ns.includes(a.action!)) ? a.action : a.current.action;
}

/** Every name the releases' route of `noun` reads for a list (what a body carries it under). */
export function namesRead(releases: readonly Release[], field: ListField, noun: ListRoute["noun"]): string[] {
  return [...new Set(releases.flatMap((r) => (listIn(r, field)?.routes ?? []).filter((x) => x.noun === noun).flatMap((x) => x.reads)))];
}

/**
 * The add/set/remove of `lists` on Target `id` at `version`, as a controller that may be any of
 * `releases` routes it: the action chosen for the first list (`actionFor`), the body carrying each
 * list under every name those releases read for that action (0.5–0.13 read
 * `application_credential_source_ids`, later ones `brokered_…`), never under a name the server
 * would silently discard. Throws BoundaryClientError (nothing sent) for a list holding ids that no
 * such action carries (injected sources through v0.4's `:set-credential-libraries`).
 */
export function listAction(releases: readonly Release[], id: string, op: AssociationOp, version: number, lists: readonly ListIds[]): WireCall<Target> {
  const noun = actionFor(releases, lists[0]!.field);
  const body: Record<string, unknown> = { version };
  for (const l of lists) {
    const names = namesRead(releases, l.field, noun);
    if (names.length === 0 && l.ids.length > 0) {
      throw new BoundaryClientError(`${spec(l.field).wire}: no action of this controller (${noun}) carries it; it needs a controller of the current API`);
    }
    for (const name of names) body[name] = [...l.ids];
  }
  return { ...targetAction(id, op, noun, body), list: { id, op, version, lists, noun } };
}
