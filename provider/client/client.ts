/**
 * A typed client for Boundary's Target API and the ops health endpoint, on every release from 0.4
 * to the newest. Each endpoint is a pure description of its wire call (`api.ts`); the client sends
 * it through its transport (`transport.ts`: pacing, undici, retries, deadlines, typed errors),
 * parses the answer with the call's wire schema, and learns from every answer which releases the
 * controller may be (`learning.ts`), which picks the action each list goes through. A client made
 * `within` an operation sends all its requests under that operation's deadline and cancellation.
 */
import type { z } from "zod";
import { Target, type CreateTargetRequest, type SessionAuthorization, type UpdateTargetRequest } from "../../wire/target";
import { nounDroppedIn, routesNoun, type ListField, type Release } from "../../wire/releases";
import { LIST_FIELDS, spec, type AssociationOp } from "../../wire/target-fields";
import { ActionNotRoutedError, BoundaryApiError, BoundaryClientError, ListNotAppliedError, SchemaValidationError, UnexpectedAnswerError } from "../errors";
import * as api from "./api";
import { type ListIds, type ListQuery, type TargetIdentity, type WireCall } from "./api";
import { addressSpellings, refusedSpelling, takesBrackets, withAddress } from "./address-spelling";
import { ControllerKnowledge, configuredReleases } from "./learning";
import { describeMismatches, listMismatches } from "./list-check";
import { Operation } from "./operation";
import { resolveSettings, type ApiGeneration, type BoundaryClientOptions, type ClientSettings } from "./settings";
import { Transport, type Answer } from "./transport";

export type { HttpMethod, TargetIdentity } from "./api";

/** Ids no controller makes (Boundary's ids are random base62): what the probes name. */
const PROBE_TARGET_ID = "ttcp_0000000000";
const PROBE_HOST_SET_ID = "hsst_0000000000";

/**
 * A client of one controller. Every method makes one API call (plus bounded retries of what is
 * safe to retry, and one more through the other action after a 405 on a list action), parses the
 * answer with the wire schema, and throws an error of the provider's catalogue (`provider/errors.ts`)
 * on failure. Call `close()` to release keep-alive connections.
 */
export class BoundaryClient {
  /** The resolved settings (options, then BOUNDARY_* variables, then defaults). */
  readonly settings: ClientSettings;
  private readonly transport: Transport;
  private readonly knowledge: ControllerKnowledge;
  /** The operation this view's requests run under; unset, each call is an operation of its own with the default deadline. */
  private readonly operation: Operation | undefined;

  /** Resolves settings now (throws ClientSettingsError); connects at the first call. */
  constructor(options: BoundaryClientOptions = {}, env: NodeJS.ProcessEnv = process.env) {
    this.settings = resolveSettings(options, env);
    this.transport = new Transport(this.settings);
    this.knowledge = new ControllerKnowledge(configuredReleases(this.settings.apiGeneration));
    this.operation = undefined;
  }

  /**
   * This client with every request and wait under `op` (its deadline and cancellation). The view
   * shares the connections, the pacing and what was learned of the controller.
   */
  within(op: Operation): BoundaryClient {
    const view = Object.create(BoundaryClient.prototype) as BoundaryClient;
    Object.assign(view, { settings: this.settings, transport: this.transport, knowledge: this.knowledge, operation: op });
    return view;
  }

  /** The operation this call runs under. */
  private op(): Operation {
    return this.operation ?? new Operation();
  }

  /**
   * Sends one call (`api.ts`) under this view's operation: its answer parsed with the call's
   * schema, and a Target in it learned from. Throws the catalogue's errors. An IPv6 `address` goes
   * in the spelling the controller takes (`address-spelling.ts`): after the 400 that refuses the
   * spelling, the call is sent once more in the other.
   */
  async send<T>(call: WireCall<T>): Promise<T> {
    const spellings = addressSpellings(call.body, takesBrackets(this.knowledge.ipv6Brackets, this.releases));
    if (!spellings) return this.sendOnce(call);
    try {
      return await this.sendOnce({ ...call, body: withAddress(call.body!, spellings[0]) });
    } catch (err) {
      // the one refusal of the spelling (not of the address), which changed nothing: the other spelling, once
      const refused = refusedSpelling(err);
      if (!refused) throw err;
      this.knowledge.ipv6Brackets = refused === "bare";
      return this.sendOnce({ ...call, body: withAddress(call.body!, spellings[1]) });
    }
  }

  /** `send` with the call exactly as given. */
  private async sendOnce<T>(call: WireCall<T>): Promise<T> {
    const answer = await this.transport.api(this.op(), call.method, call.path, call.body);
    if (!call.answer) return undefined as T;
    const value = parse(answer, call.method, call.path.split("?")[0]!, call.answer);
    if ((call.answer as z.ZodType) === Target) this.knowledge.learn(value as Target);
    return value;
  }

  // ---- Targets ----

  /**
   * Targets of a project, or with `recursive` of every project below a scope; `{}` means none. A
   * paginated answer (Boundary ≥ 0.15) is followed page by page, with the same query plus
   * `list_token`, until `response_type` is "complete": never just the first 1,000.
   */
  async listTargets(q: ListQuery): Promise<Target[]> {
    return (await this.listTargetsAnswered(q)).targets;
  }

  /**
   * `listTargets`, with the controller's clock when it answered (its `Date` header, ms since the
   * epoch), for judging times the controller wrote (`created_time`) on its own clock.
   */
  async listTargetsAnswered(q: ListQuery): Promise<{ targets: Target[]; controllerTime: number | undefined }> {
    const op = this.op();
    let controllerTime: number | undefined;
    const items: Target[] = [];
    const seen = new Set<string>();
    for (let listToken: string | undefined; ;) {
      const call = api.listTargets({ ...q, listToken });
      const answer = await this.transport.api(op, call.method, call.path, call.body);
      controllerTime ??= answer.date;
      const page = parse(answer, "GET", "/v1/targets", call.answer!);
      for (const item of page.items) items.push(item);
      if (page.response_type !== "delta" || !page.list_token) return { targets: items, controllerTime };
      if (seen.has(page.list_token))
        throw new SchemaValidationError("GET", "/v1/targets", [{ path: ["list_token"], message: "the same list token came back twice" }]);
      seen.add((listToken = page.list_token));
    }
  }

  /** Creates a Target; the answer is the Target with its id and version 1. */
  createTarget(body: CreateTargetRequest): Promise<Target> {
    return this.send(api.createTarget(body));
  }

  /** Reads a Target; a NotFoundError means it does not exist. */
  getTarget(id: string): Promise<Target> {
    return this.send(api.readTarget(id));
  }

  /** PATCH with an explicit `update_mask`; fields in the mask but absent from `fields` are cleared. */
  updateTarget(id: string, version: number, mask: readonly string[], fields: Omit<UpdateTargetRequest, "version">): Promise<Target> {
    return this.send(api.updateTarget(id, version, mask, fields));
  }

  /** Deletes a Target. Resolves on 204; a NotFoundError means it was already gone. */
  async deleteTarget(id: string): Promise<void> {
    await this.send(api.deleteTarget(id));
  }

  /**
   * An add/set/remove on the Target's `lists` (the first decides the action), through an action
   * the controller routes (`api.listAction`, for the releases it may be). A 405 (an action the
   * controller does not route: nothing changed) rules out the releases that route it, and the call
   * is made once more through the other. A set equal to the current lists changes nothing (no new version).
   * An answer whose lists are not as asked (ids the controller dropped, or kept on a remove) is a
   * ListNotAppliedError carrying the answer: never taken as done.
   */
  async associate(id: string, op: AssociationOp, version: number, lists: readonly ListIds[]): Promise<Target> {
    const noun = api.actionFor(this.releases, lists[0]!.field);
    let answer: Target;
    try {
      answer = await this.send(api.listAction(this.releases, id, op, version, lists));
    } catch (err) {
      if (!(err instanceof BoundaryApiError && err.status === 405) || err instanceof UnexpectedAnswerError) throw err;
      if (!this.knowledge.notRouted(noun)) throw err;
      answer = await this.send(api.listAction(this.releases, id, op, version, lists));
    }
    // a 200 is not proof: the answer must hold the lists as asked (v0.4.0 drops an unknown library silently)
    const mismatches = listMismatches(op, lists, answer);
    if (mismatches.length > 0) {
      const call = api.listAction(this.releases, id, op, version, lists);
      throw new ListNotAppliedError(`${call.method} ${call.path.split("?")[0]}`, describeMismatches(mismatches), answer);
    }
    return answer;
  }

  /**
   * An add, set or remove on the Target's lists, named by the field table's keys, through the
   * action this controller routes on every release from 0.4 to the newest (`associate`): one call
   * changing every list given. A `set` through a current action replaces the lists it carries (a
   * `:set-credential-sources` both credential lists: one left out becomes empty); v0.4's actions
   * carry one list, and refuse another that holds ids (it needs a current controller).
   */
  changeLists(id: string, version: number, op: AssociationOp, lists: ListChange): Promise<Target> {
    const given = LIST_FIELDS.filter((f) => lists[f] !== undefined).map((field) => ({ field, ids: lists[field]! }));
    if (given.length === 0) throw new BoundaryClientError(`${op} on target ${id}: no list given (one of ${LIST_FIELDS.join(", ")})`);
    return this.associate(id, op, version, given);
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
      return await this.send(api.targetAction(id, op, a.action!, { version, [spec(field).wire]: [...ids] }));
    } catch (err) {
      if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError || err.status !== 405) throw err;
      this.knowledge.narrow((r) => !routesNoun(r, a.action!));
      const dropped = nounDroppedIn(a.action!);
      const method = `${op}${pascal(a.current.action)}`;
      throw new ActionNotRoutedError(err.method, err.path, err.headers, `:${op}-${a.action}`, `:${op}-${a.current.action}`, dropped, method);
    }
  }

  /** Authorizes a session: creates a real session on the controller each time it is called. */
  authorizeSession(target: TargetIdentity, hostId?: string): Promise<SessionAuthorization> {
    return this.send(api.authorizeSession(target, hostId));
  }

  /** GET /health on the ops listener: 200 healthy, 503 shutting down. Does not throw on 503. */
  async health(): Promise<{ status: number; healthy: boolean }> {
    // 503 is the answer here (shutting down), not a reason to retry; and /health takes no token
    const res = await this.transport.health(this.op());
    return { status: res.status, healthy: res.status === 200 };
  }

  // ---- what the client knows of the controller ----

  /** The releases the controller may be, oldest first (see `learning.ts`). */
  get releases(): readonly Release[] {
    return this.knowledge.releases;
  }

  /** The controller's API generation, when every release it may be shares one (undefined until known). */
  get generation(): ApiGeneration | undefined {
    return this.knowledge.generation;
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
      await this.send(api.targetAction(PROBE_TARGET_ID, "add", "host-sources", { version: 1, host_source_ids: [PROBE_HOST_SET_ID] }));
    } catch (err) {
      // a stranger's answer (a proxy's page, a path the controller does not serve) tells nothing
      if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError) throw err;
      routed = err.status !== 405;
    }
    this.knowledge.narrow((r) => routesNoun(r, "host-sources") === routed);
    return this.generation ?? (routed ? "current" : "v0.4");
  }

  /**
   * Whether v0.4's host-set actions are gone from this controller (Boundary 0.11 removed them),
   * asked once with a call that changes nothing: an add of host sets to a Target id that cannot
   * exist. Only a 405 (the route is gone, answered before anything is looked at) says yes; an answer
   * from the action itself (404, 400, 403) says no; anything else leaves it unknown (undefined).
   * The answer narrows the releases the controller may be to those that do (not) route the action.
   */
  async hostSetActionsGone(): Promise<boolean | undefined> {
    if (this.knowledge.hostSetActionsGone !== undefined) return this.knowledge.hostSetActionsGone;
    let gone: boolean | undefined;
    try {
      await this.send(api.targetAction(PROBE_TARGET_ID, "add", "host-sets", { version: 1, host_set_ids: [PROBE_HOST_SET_ID] }));
    } catch (err) {
      if (!(err instanceof BoundaryApiError)) return undefined;
      // a 405 says the route is gone; the action itself answering (Boundary's error body) says it exists
      gone = err.status === 405 ? true : err instanceof UnexpectedAnswerError || err.kind === "Unknown" ? undefined : false;
    }
    if (gone === undefined) return undefined;
    this.knowledge.narrow((r) => routesNoun(r, "host-sets") !== gone);
    return (this.knowledge.hostSetActionsGone = gone);
  }

  /** Closes the keep-alive connections (of every view of this client). */
  async close(): Promise<void> {
    await this.transport.close();
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

/** `CredentialSources` as the table's lists. */
function credentialLists(sources: CredentialSources): ListChange {
  return { applicationCredentialLibraryIds: sources.brokered, injectedApplicationCredentialSourceIds: sources.injected };
}

/** `host-sources` → `HostSources`. */
function pascal(noun: string): string {
  return noun.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/** An answer's body parsed with `schema`: a SchemaValidationError (not a transport error) when it breaks the contract. */
function parse<T>(answer: Answer, method: string, shownPath: string, schema: z.ZodType<T>): T {
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
