/**
 * A typed client for Boundary's Target API and the ops health endpoint: undici keep-alive pools,
 * a zod schema for every response, typed errors, bounded retries. Works against real Boundary
 * controllers as well as the local one. Every request goes through one transport
 * (`transport.ts`); a client made `within` an operation sends all its requests under that
 * operation's deadline and cancellation.
 */
import type { z } from "zod";
import { SessionAuthorization, Target, TargetList, type CreateTargetRequest, type UpdateTargetRequest } from "../../wire/target";
import { RELEASES, listIn, releasesAnswering, routesNoun, type ListField, type ListRoute, type Release } from "../../wire/releases";
import { INPUT_FIELDS, spec, type Association, type AssociationOp } from "../../wire/target-fields";
import { ActionNotRoutedError, BoundaryApiError, BoundaryClientError, SchemaValidationError, UnexpectedAnswerError } from "../errors";
import { Operation } from "./operation";
import { resolveSettings, type ApiGeneration, type BoundaryClientOptions, type ClientSettings } from "./settings";
import { Transport, type Answer } from "./transport";

/** The HTTP methods the Target API uses. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** A Target named by id, or by name within a scope given by id or name. */
export type TargetIdentity = { targetId: string } | { name: string; scopeId: string } | { name: string; scopeName: string };

/** Ids no controller makes (Boundary's ids are random base62): what the probes name. */
const PROBE_TARGET_ID = "ttcp_0000000000";
const PROBE_HOST_SET_ID = "hsst_0000000000";

/** What a client has learned about its controller, shared by every view of it (see `within`). */
interface Learned {
  /**
   * The releases the controller may be, oldest first: the configured ones, narrowed by every
   * answer received (the release table's `releasesAnswering`), a 405 and the probes.
   */
  releases: readonly Release[];
  /** Whether v0.4's `:add-host-sets` route is gone (Boundary 0.11 and later), once asked. */
  hostSetActionsGone: boolean | undefined;
}

/**
 * A client of one controller. Every method makes one API call (plus bounded retries of what is
 * safe to retry), parses the answer with the wire schema, and throws a BoundaryClientError
 * subclass on failure. Call `close()` to release keep-alive connections.
 */
export class BoundaryClient {
  readonly settings: ClientSettings;
  private readonly transport: Transport;
  private readonly learned: Learned;
  /** What the configuration says the controller is (every release, when it says nothing). */
  private readonly configured: readonly Release[];
  /** The operation this view's requests run under; unset, each call is an operation of its own with the default deadline. */
  private readonly operation: Operation | undefined;

  /** Resolves settings now (throws ClientSettingsError); connects at the first call. */
  constructor(options: BoundaryClientOptions = {}, env: NodeJS.ProcessEnv = process.env) {
    this.settings = resolveSettings(options, env);
    this.transport = new Transport(this.settings);
    this.configured = configuredReleases(this.settings.apiGeneration);
    this.learned = { releases: this.configured, hostSetActionsGone: undefined };
    this.operation = undefined;
  }

  /**
   * This client with every request and wait under `op` (its deadline and cancellation). The view
   * shares the connections, the pacing and what was learned of the controller.
   */
  within(op: Operation): BoundaryClient {
    const view = Object.create(BoundaryClient.prototype) as BoundaryClient;
    Object.assign(view, { settings: this.settings, transport: this.transport, learned: this.learned, configured: this.configured, operation: op });
    return view;
  }

  /** The operation this call runs under. */
  private op(): Operation {
    return this.operation ?? new Operation();
  }

  // ---- Targets ----

  /**
   * Targets of a project, or with `recursive` of every project below a scope; `{}` means none. A
   * paginated answer (Boundary ≥ 0.15) is followed page by page, with the same query plus
   * `list_token`, until `response_type` is "complete": never just the first 1,000.
   */
  async listTargets(q: { scopeId: string; recursive?: boolean; filter?: string }): Promise<Target[]> {
    return (await this.listTargetsAnswered(q)).targets;
  }

  /**
   * `listTargets`, with the controller's clock when it answered (its `Date` header, ms since the
   * epoch), for judging times the controller wrote (`created_time`) on its own clock.
   */
  async listTargetsAnswered(q: { scopeId: string; recursive?: boolean; filter?: string }): Promise<{ targets: Target[]; controllerTime: number | undefined }> {
    const op = this.op();
    let controllerTime: number | undefined;
    const items: Target[] = [];
    const seen = new Set<string>();
    for (let token: string | undefined; ;) {
      const params = new URLSearchParams({ scope_id: q.scopeId });
      if (q.recursive) params.set("recursive", "true");
      if (q.filter) params.set("filter", q.filter);
      if (token) params.set("list_token", token);
      const answer = await this.transport.api(op, "GET", `/v1/targets?${params}`, undefined);
      controllerTime ??= answer.date;
      const page = parse(answer, "GET", "/v1/targets", TargetList);
      for (const item of page.items) items.push(item);
      if (page.response_type !== "delta" || !page.list_token) return { targets: items, controllerTime };
      if (seen.has(page.list_token))
        throw new SchemaValidationError("GET", "/v1/targets", [{ path: ["list_token"], message: "the same list token came back twice" }]);
      seen.add((token = page.list_token));
    }
  }

  /** Creates a Target; the answer is the Target with its id and version 1. */
  createTarget(body: CreateTargetRequest): Promise<Target> {
    return this.track(this.call("POST", "/v1/targets", body, Target));
  }

  /** Reads a Target; a NotFoundError means it does not exist. */
  getTarget(id: string): Promise<Target> {
    return this.track(this.call("GET", `/v1/targets/${encodeURIComponent(id)}`, undefined, Target));
  }

  /** PATCH with an explicit `update_mask`; fields in the mask but absent from `fields` are cleared. */
  updateTarget(id: string, version: number, mask: readonly string[], fields: Omit<UpdateTargetRequest, "version">): Promise<Target> {
    const query = mask.length > 0 ? `?update_mask=${encodeURIComponent(mask.join(","))}` : "";
    return this.track(this.call("PATCH", `/v1/targets/${encodeURIComponent(id)}${query}`, { ...fields, version }, Target));
  }

  /** Deletes a Target. Resolves on 204; a NotFoundError means it was already gone. */
  async deleteTarget(id: string): Promise<void> {
    await this.transport.api(this.op(), "DELETE", `/v1/targets/${encodeURIComponent(id)}`, undefined);
  }

  /**
   * An add/set/remove action on one of the Target's id lists: `POST /v1/targets/{id}:{op}-{action}`
   * with `{version, [key]: ids}`. Returns the updated Target; a set equal to the current list
   * changes nothing (no new version).
   */
  changeAssociation(
    id: string,
    op: AssociationOp,
    action: NonNullable<Association["action"]>,
    key: string,
    version: number,
    ids: readonly string[],
  ): Promise<Target> {
    return this.track(this.call("POST", `/v1/targets/${encodeURIComponent(id)}:${op}-${action}`, { version, [key]: [...ids] }, Target));
  }

  /**
   * An add/set/remove on one of the Target's lists, through an action the controller routes: the
   * one every release it may be routes, else v0.4's (`:set-host-sets`, `host_set_ids`) first. A
   * body carries the list under every name those releases read for that action (0.5–0.13 read
   * `application_credential_source_ids`, later ones `brokered_…`), never under a name the server
   * would silently discard. A 405 (an action the controller does not route: nothing changed)
   * rules out the releases that route it, and the call is made once more through the other.
   * `siblings` are the other lists the current action carries (a `:set-credential-sources`
   * replaces the brokered and the injected list); v0.4's actions carry only the first, and refuse
   * siblings that hold ids.
   */
  async associate(
    id: string,
    op: AssociationOp,
    association: Association,
    _v04Key: string,
    version: number,
    ids: readonly string[],
    siblings: readonly { association: Association; ids: readonly string[] }[] = [],
  ): Promise<Target> {
    const lists = [{ association, ids }, ...siblings].map((s) => ({ field: listFieldOf(s.association), ids: s.ids }));
    const attempt = (noun: ListRoute["noun"]) => {
      const body: Record<string, unknown> = { version };
      for (const l of lists) {
        const names = readNames(this.releases, l.field, noun);
        if (names.length === 0 && l.ids.length > 0)
          throw new BoundaryClientError(`${spec(l.field).wire}: no action of this controller (${noun}) carries it; it needs a controller of the current API`);
        for (const name of names) body[name] = [...l.ids];
      }
      return this.track(this.call("POST", `/v1/targets/${encodeURIComponent(id)}:${op}-${noun}`, body, Target));
    };
    const noun = nounFor(this.releases, lists[0]!.field);
    try {
      return await attempt(noun);
    } catch (err) {
      if (!(err instanceof BoundaryApiError && err.status === 405) || err instanceof UnexpectedAnswerError) throw err;
      const rest = this.releases.filter((r) => !routesNoun(r, noun));
      if (rest.length === 0) throw err;
      this.learned.releases = rest;
      return attempt(nounFor(rest, lists[0]!.field));
    }
  }

  /** The releases the controller may be, oldest first (see `Learned.releases`). */
  get releases(): readonly Release[] {
    return this.learned.releases;
  }

  /** The controller's API generation, when every release it may be shares one (undefined until known). */
  get generation(): ApiGeneration | undefined {
    const generations = new Set(this.releases.map((r) => r.generation));
    return generations.size === 1 ? [...generations][0] : undefined;
  }

  /**
   * The controller's API generation: configured, learned from answers so far, or else asked once
   * with a call that changes nothing: an add of host sources to a Target id that cannot exist.
   * v0.4 controllers have no such action (405, before looking at anything); 0.5 and later look for
   * the Target and answer 404 (or 400/403).
   */
  async apiGeneration(): Promise<ApiGeneration> {
    if (this.generation) return this.generation;
    let routed = true;
    try {
      await this.transport.api(this.op(), "POST", `/v1/targets/${PROBE_TARGET_ID}:add-host-sources`, { version: 1, host_source_ids: [PROBE_HOST_SET_ID] });
    } catch (err) {
      // a stranger's answer (a proxy's page, a path the controller does not serve) tells nothing
      if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError) throw err;
      routed = err.status !== 405;
    }
    this.narrow((r) => routesNoun(r, "host-sources") === routed);
    return this.generation ?? (routed ? "current" : "v0.4");
  }

  /** Keeps the releases that agree with what was seen (unless none does: then what was seen tells nothing new). */
  private narrow(agrees: (r: Release) => boolean): void {
    const rest = this.releases.filter(agrees);
    if (rest.length > 0) this.learned.releases = rest;
  }

  /**
   * Whether v0.4's host-set actions are gone from this controller (Boundary 0.11 removed them),
   * asked once with a call that changes nothing: an add of host sets to a Target id that cannot
   * exist. Only a 405 (the route is gone, answered before anything is looked at) says yes; an answer
   * from the action itself (404, 400, 403) says no; anything else leaves it unknown (undefined).
   * The answer narrows the releases the controller may be to those that do (not) route the action.
   */
  async hostSetActionsGone(): Promise<boolean | undefined> {
    if (this.learned.hostSetActionsGone !== undefined) return this.learned.hostSetActionsGone;
    let gone: boolean | undefined;
    try {
      await this.transport.api(this.op(), "POST", `/v1/targets/${PROBE_TARGET_ID}:add-host-sets`, { version: 1, host_set_ids: [PROBE_HOST_SET_ID] });
    } catch (err) {
      if (!(err instanceof BoundaryApiError)) return undefined;
      // a 405 says the route is gone; the action itself answering (Boundary's error body) says it exists
      gone = err.status === 405 ? true : err instanceof UnexpectedAnswerError || err.kind === "Unknown" ? undefined : false;
    }
    if (gone === undefined) return undefined;
    this.narrow((r) => routesNoun(r, "host-sets") !== gone);
    return (this.learned.hostSetActionsGone = gone);
  }

  /** Learns from a Target the controller returned which releases could have answered it. */
  private learn(t: Target): Target {
    const narrowed = releasesAnswering(t, this.releases);
    // an answer no release it may be gives means it changed (an upgrade): start again from the configured ones
    const again = releasesAnswering(t, this.configured);
    this.learned.releases = narrowed.length > 0 ? narrowed : again.length > 0 ? again : this.releases;
    return t;
  }

  private async track(answer: Promise<Target>): Promise<Target> {
    return this.learn(await answer);
  }

  /**
   * An add, set or remove on the Target's lists, named by the field table's keys, through the
   * action this controller routes on every release from 0.4 to the newest (`associate`): one call
   * changing every list given. A `set` through a current action replaces the lists it carries (a
   * `:set-credential-sources` both credential lists: one left out becomes empty); v0.4's actions
   * carry one list, and refuse another that holds ids (it needs a current controller).
   */
  changeLists(id: string, version: number, op: AssociationOp, lists: ListChange): Promise<Target> {
    const given = LIST_FIELDS.filter((f) => lists[f] !== undefined);
    const [first, ...rest] = given;
    if (first === undefined) throw new BoundaryClientError(`${op} on target ${id}: no list given (one of ${LIST_FIELDS.join(", ")})`);
    const siblings = rest.map((f) => ({ association: spec(f).association!, ids: lists[f]! }));
    return this.associate(id, op, spec(first).association!, spec(first).wire, version, lists[first]!, siblings);
  }

  /** Attaches host sets (`hsst_…`) through `:add-host-sources`, or `:add-host-sets` on v0.4: every release. */
  addHostSources(id: string, version: number, hostSetIds: readonly string[]): Promise<Target> {
    return this.changeLists(id, version, "add", { hostSetIds });
  }
  /** Detaches host sets through `:remove-host-sources`, or `:remove-host-sets` on v0.4: every release. */
  removeHostSources(id: string, version: number, hostSetIds: readonly string[]): Promise<Target> {
    return this.changeLists(id, version, "remove", { hostSetIds });
  }
  /** The Target's host sets become exactly `hostSetIds`, through `:set-host-sources`, or `:set-host-sets` on v0.4: every release. */
  setHostSources(id: string, version: number, hostSetIds: readonly string[]): Promise<Target> {
    return this.changeLists(id, version, "set", { hostSetIds });
  }
  /**
   * Attaches credential sources through `:add-credential-sources`, or `:add-credential-libraries` on
   * v0.4 (brokered ones only: v0.4 has no injected list): every release.
   */
  addCredentialSources(id: string, version: number, sources: CredentialSources): Promise<Target> {
    return this.changeLists(id, version, "add", credentialLists(sources));
  }
  /** Detaches credential sources through `:remove-credential-sources`, or `:remove-credential-libraries` on v0.4: every release. */
  removeCredentialSources(id: string, version: number, sources: CredentialSources): Promise<Target> {
    return this.changeLists(id, version, "remove", credentialLists(sources));
  }
  /**
   * The Target's credential sources become exactly `sources`, through `:set-credential-sources`
   * (which replaces both lists: one left out becomes empty), or `:set-credential-libraries` on
   * v0.4 (brokered only): every release.
   */
  setCredentialSources(id: string, version: number, sources: CredentialSources): Promise<Target> {
    return this.changeLists(id, version, "set", credentialLists(sources));
  }

  /** `:add-host-sets`: v0.4's action (Boundary before 0.11); `addHostSources` works on every release. */
  addHostSets(id: string, version: number, hostSetIds: readonly string[]): Promise<Target> {
    return this.v04Action(id, "add", "hostSetIds", version, hostSetIds);
  }
  /** `:remove-host-sets`: v0.4's action (Boundary before 0.11); `removeHostSources` works on every release. */
  removeHostSets(id: string, version: number, hostSetIds: readonly string[]): Promise<Target> {
    return this.v04Action(id, "remove", "hostSetIds", version, hostSetIds);
  }
  /** `:set-host-sets`: the Target's host sets become exactly `hostSetIds`. v0.4's action; `setHostSources` works on every release. */
  setHostSets(id: string, version: number, hostSetIds: readonly string[]): Promise<Target> {
    return this.v04Action(id, "set", "hostSetIds", version, hostSetIds);
  }
  /** `:add-credential-libraries`: v0.4's action; `addCredentialSources` works on every release. */
  addCredentialLibraries(id: string, version: number, ids: readonly string[]): Promise<Target> {
    return this.v04Action(id, "add", "applicationCredentialLibraryIds", version, ids);
  }
  /** `:remove-credential-libraries`: v0.4's action; `removeCredentialSources` works on every release. */
  removeCredentialLibraries(id: string, version: number, ids: readonly string[]): Promise<Target> {
    return this.v04Action(id, "remove", "applicationCredentialLibraryIds", version, ids);
  }
  /** `:set-credential-libraries`: the Target's libraries become exactly `ids`. v0.4's action; `setCredentialSources` works on every release. */
  setCredentialLibraries(id: string, version: number, ids: readonly string[]): Promise<Target> {
    return this.v04Action(id, "set", "applicationCredentialLibraryIds", version, ids);
  }

  /**
   * A v0.4 action, as named. Its 405 (the controller does not route it: a current release, which
   * replaced it) becomes an ActionNotRoutedError naming the release that dropped it and the method
   * that works on every release; nothing was changed.
   */
  private async v04Action(id: string, op: AssociationOp, field: ListField, version: number, ids: readonly string[]): Promise<Target> {
    const a = spec(field).association!;
    try {
      return await this.changeAssociation(id, op, a.action!, spec(field).wire, version, ids);
    } catch (err) {
      if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError || err.status !== 405) throw err;
      this.narrow((r) => !routesNoun(r, a.action!));
      const dropped = RELEASES.find((r) => r.release !== "spec" && r.release !== "0.4" && !routesNoun(r, a.action!))?.release;
      const method = `${op}${pascal(a.current.action)}`;
      throw new ActionNotRoutedError(err.method, err.path, err.headers, `:${op}-${a.action}`, `:${op}-${a.current.action}`, dropped, method);
    }
  }

  /** Authorizes a session: creates a real session on the controller each time it is called. */
  authorizeSession(target: TargetIdentity, hostId?: string): Promise<SessionAuthorization> {
    const body: Record<string, string> = {};
    let segment: string;
    if ("targetId" in target) {
      segment = target.targetId;
    } else {
      segment = target.name;
      body.name = target.name;
      if ("scopeId" in target) body.scope_id = target.scopeId;
      else body.scope_name = target.scopeName;
    }
    if (hostId) body.host_id = hostId;
    return this.call("POST", `/v1/targets/${encodeURIComponent(segment)}:authorize-session`, body, SessionAuthorization);
  }

  /** GET /health on the ops listener: 200 healthy, 503 shutting down. Does not throw on 503. */
  async health(): Promise<{ status: number; healthy: boolean }> {
    // 503 is the answer here (shutting down), not a reason to retry; and /health takes no token
    const res = await this.transport.health(this.op());
    return { status: res.status, healthy: res.status === 200 };
  }

  /** Closes the keep-alive connections (of every view of this client). */
  async close(): Promise<void> {
    await this.transport.close();
  }

  /** One API call whose answer is parsed with `schema`. */
  private async call<S extends z.ZodType>(method: HttpMethod, path: string, body: unknown, schema: S): Promise<z.infer<S>> {
    return parse(await this.transport.api(this.op(), method, path, body), method, path.split("?")[0]!, schema);
  }
}

/** The lists a Target action changes, by the field table's key: a list absent is left alone (see `changeLists`). */
export type ListChange = Partial<Record<ListField, readonly string[]>>;

/** A Target's credential sources: brokered (v0.4's credential libraries) and injected (current releases only). */
export interface CredentialSources {
  /** Brokered credential sources (`clvlt_…`, …): the user receives them. */
  brokered?: readonly string[];
  /** Injected credential sources: the worker injects them; current releases only. */
  injected?: readonly string[];
}

/** The field table's id lists, in its order. */
const LIST_FIELDS: readonly ListField[] = INPUT_FIELDS.filter((f): f is ListField => spec(f).association !== undefined);

/** `CredentialSources` as the table's lists. */
function credentialLists(sources: CredentialSources): ListChange {
  return { applicationCredentialLibraryIds: sources.brokered, injectedApplicationCredentialSourceIds: sources.injected };
}

/** `host-sources` → `HostSources`. */
function pascal(noun: string): string {
  return noun.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/** The releases a configured generation means: v0.4's API (the spec's and 0.4), or the current actions' (0.5 and later); all when unset. */
function configuredReleases(generation: ApiGeneration | undefined): readonly Release[] {
  return generation ? RELEASES.filter((r) => r.generation === generation) : RELEASES;
}

/** The list field an association belongs to. */
function listFieldOf(a: Association): ListField {
  return INPUT_FIELDS.find((f) => spec(f).association === a) as ListField;
}

/** The action to change a list through: the current one if every candidate routes it, else v0.4's (the spec's default) if some route that. */
function nounFor(releases: readonly Release[], field: ListField): ListRoute["noun"] {
  const nouns = releases.map((r) => (listIn(r, field)?.routes ?? []).map((x) => x.noun));
  const a = spec(field).association!;
  if (nouns.every((ns) => ns.includes(a.current.action))) return a.current.action;
  return a.action && nouns.some((ns) => ns.includes(a.action!)) ? a.action : a.current.action;
}

/** Every name the candidates' route of `noun` reads for a list (what the body carries it under). */
function readNames(releases: readonly Release[], field: ListField, noun: ListRoute["noun"]): string[] {
  return [...new Set(releases.flatMap((r) => (listIn(r, field)?.routes ?? []).filter((x) => x.noun === noun).flatMap((x) => x.reads)))];
}

/** An answer's body parsed with `schema`: a SchemaValidationError (not a transport error) when it breaks the contract. */
function parse<S extends z.ZodType>(answer: Answer, method: string, shownPath: string, schema: S): z.infer<S> {
  let json: unknown;
  try {
    json = answer.text === "" ? {} : JSON.parse(answer.text);
  } catch {
    throw new SchemaValidationError(method, shownPath, [{ path: [], message: "the body is not JSON" }]);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new SchemaValidationError(method, shownPath, parsed.error.issues);
  return parsed.data;
}
