/**
 * A typed client for Boundary's Target API and the ops health endpoint, on every release from 0.4
 * to the newest. Each endpoint is a pure description of its wire call (`api.ts`); the client sends
 * it through its transport (`transport.ts`: pacing, undici, retries, deadlines, typed errors),
 * parses the answer with the call's wire schema, and learns from every answer which releases the
 * controller may be (`learning.ts`), which picks the action each list goes through. A client made
 * `within` an operation sends all its requests under that operation's deadline and cancellation.
 */
import type { z } from "zod";
import { exactParse } from "../../wire/exact-check";
import { Target, type CreateTargetRequest, type SessionAuthorization, type UpdateTargetRequest } from "../../wire/target";
import { nounDroppedIn, routesNoun, type ListField, type Release } from "../../wire/releases";
import { spec, type AssociationOp } from "../../wire/target-fields";
import { ActionNotRoutedError, BoundaryApiError, ListNotAppliedError, SchemaValidationError, UnexpectedAnswerError } from "./errors";
import * as api from "./api";
import { type ListActionCall, type ListIds, type ListQuery, type TargetIdentity, type WireCall } from "./api";
import { addressSpellings, refusedSpelling, takesBrackets, withAddress } from "./address-spelling";
import { attributesRefusal, namedAttributesRefusal } from "./field-refusal";
import { ControllerKnowledge, configuredReleases, probeGeneration, probeHostSetActionsGone } from "./learning";
import { describeMismatches, listMismatches } from "./list-check";
import { ListActionsWithNames, pascal } from "./lists";
import { Operation } from "./operation";
import { resolveSettings, type ApiGeneration, type BoundaryClientOptions, type ClientSettings } from "./settings";
import { Transport, type Answer } from "./transport";

export type { HttpMethod, TargetIdentity } from "./api";
export type { ListChange, CredentialSources } from "./lists";

/** One page of a Target list, as the controller answered it (see `BoundaryClient.targetPages`). */
export interface TargetPage {
  items: Target[];
  /** The controller's clock when it answered (its `Date` header, ms since the epoch). */
  controllerTime: number | undefined;
  /** Boundary's `response_type` (0.15+: "delta" while pages follow, "complete" at the end); none from earlier releases. */
  responseType: string | undefined;
  /** The token the next page (or a later refresh) is asked with (0.15+). */
  listToken: string | undefined;
}

/**
 * A client of one controller. Every method makes one API call (plus bounded retries of what is
 * safe to retry, and one more through the other action after a 405 on a list action), parses the
 * answer with the wire schema, and throws an error of the provider's catalogue (`provider/errors.ts`)
 * on failure. Call `close()` to release keep-alive connections.
 */
export class BoundaryClient extends ListActionsWithNames {
  /** The resolved settings (options, then BOUNDARY_* variables, then defaults). */
  readonly settings: ClientSettings;
  private readonly transport: Transport;
  private readonly knowledge: ControllerKnowledge;
  /** The operation this view's requests run under; unset, each call is an operation of its own with the default deadline. */
  private readonly operation: Operation | undefined;

  /** Resolves settings now (throws ClientSettingsError); connects at the first call. */
  constructor(options: BoundaryClientOptions = {}, env: NodeJS.ProcessEnv = process.env) {
    super();
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
   * schema, and a Target in it learned from. Throws the catalogue's errors. A list action
   * (`api.listAction`) that answers 405 (an action the controller does not route: nothing changed)
   * rules out the releases that route it and is rendered and sent once more through the other; its
   * answer must hold the lists as asked (else a ListNotAppliedError carrying it: never taken as done).
   */
  async send<T>(call: WireCall<T>): Promise<T> {
    return call.list ? ((await this.sendList(call as WireCall<unknown> as WireCall<Target>, call.list)) as T) : this.sendSpelled(call);
  }

  /** `send` of a list action: the 405 fallback and the check of the answer (see `send`). */
  private async sendList(call: WireCall<Target>, list: ListActionCall): Promise<Target> {
    let sent = call;
    let answer: Target;
    try {
      answer = await this.sendSpelled(sent);
    } catch (err) {
      if (!(err instanceof BoundaryApiError && err.status === 405) || err instanceof UnexpectedAnswerError) throw err;
      if (!this.knowledge.notRouted(list.noun)) throw err;
      sent = api.listAction(this.releases, list.id, list.op, list.version, list.lists);
      answer = await this.sendSpelled(sent);
    }
    // a 200 is not proof: the answer must hold the lists as asked (v0.4.0 drops an unknown library silently)
    const mismatches = listMismatches(list.op, list.lists, answer);
    if (mismatches.length > 0) throw new ListNotAppliedError(`${sent.method} ${sent.path.split("?")[0]}`, describeMismatches(mismatches), answer);
    return answer;
  }

  /**
   * `send` of one call as given, but for an IPv6 `address`: it goes in the spelling the controller
   * takes (`address-spelling.ts`); after the 400 that refuses the spelling, the call is sent once more in the other.
   */
  private async sendSpelled<T>(call: WireCall<T>): Promise<T> {
    const spellings = addressSpellings(call.body, () => takesBrackets(this.knowledge.ipv6Brackets, this.releases));
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

  /**
   * `send` with the call exactly as given. A 400 refusing the body's `attributes` for a field the
   * release lacks (`field-refusal.ts`) teaches which releases the controller may be, and names the input.
   */
  private async sendOnce<T>(call: WireCall<T>): Promise<T> {
    let answer: Answer;
    try {
      answer = await this.transport.api(this.op(), call.method, call.path, call.body);
    } catch (err) {
      const refusal = attributesRefusal(err, call.body, this.releases);
      if (!refusal) throw err;
      this.knowledge.narrow((r) => refusal.releases.includes(r));
      throw namedAttributesRefusal(err as BoundaryApiError, refusal);
    }
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
    let controllerTime: number | undefined;
    const targets: Target[] = [];
    for await (const page of this.targetPages(q)) {
      controllerTime ??= page.controllerTime;
      targets.push(...page.items);
    }
    return { targets, controllerTime };
  }

  /**
   * The one page iterator of a Target list: each page as the controller answered it (one call
   * each), from `q.listToken` if given, with the same query plus the last page's `list_token` until
   * the answer is not a "delta" (0.15+: "complete"; earlier releases answer the whole list at once).
   * A list token that comes back twice is a broken answer, not a loop.
   */
  async *targetPages(q: ListQuery): AsyncGenerator<TargetPage> {
    const op = this.op();
    const seen = new Set<string>();
    for (let listToken = q.listToken; ;) {
      const call = api.listTargets({ ...q, listToken });
      const answer = await this.transport.api(op, call.method, call.path, call.body);
      const page = parse(answer, "GET", "/v1/targets", call.answer!);
      yield { items: page.items ?? [], controllerTime: answer.date, responseType: page.response_type, listToken: page.list_token };
      if (page.response_type !== "delta" || !page.list_token) return;
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
   * the controller routes (`api.listAction`, for the releases it may be), sent as `send` sends a
   * list action (a 405 tries the other action; an answer not as asked is a ListNotAppliedError). A
   * set equal to the current lists changes nothing (no new version).
   */
  override associate(id: string, op: AssociationOp, version: number, lists: readonly ListIds[]): Promise<Target> {
    return this.send(api.listAction(this.releases, id, op, version, lists));
  }

  /**
   * A v0.4 action, as named. Its 405 (the controller does not route it: a current release, which
   * replaced it) becomes an ActionNotRoutedError naming the release that dropped it and the method
   * that works on every release; nothing was changed.
   */
  protected override async v04Action(id: string, op: AssociationOp, field: ListField, version: number, ids: readonly string[]): Promise<Target> {
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
   * with a call that changes nothing (see `learning.ts`'s `probeGeneration`).
   */
  apiGeneration(): Promise<ApiGeneration> {
    return probeGeneration(this.knowledge, (call) => this.send(call));
  }

  /**
   * Whether v0.4's host-set actions are gone from this controller (Boundary 0.11 removed them),
   * asked once with a call that changes nothing (see `learning.ts`'s `probeHostSetActionsGone`);
   * undefined when the answer leaves it unknown.
   */
  hostSetActionsGone(): Promise<boolean | undefined> {
    return probeHostSetActionsGone(this.knowledge, (call) => this.send(call));
  }

  /** The last `RateLimit-Policy` header the controller's API answered with (Boundary 0.14.3+), if any. */
  get rateLimitPolicy(): string | undefined {
    return this.transport.rateLimitPolicy;
  }

  /** Closes the keep-alive connections (of every view of this client). */
  async close(): Promise<void> {
    await this.transport.close();
  }
}

/** An answer's body parsed with `schema`: a SchemaValidationError (not a transport error) when it breaks the contract. */
function parse<T>(answer: Answer, method: string, shownPath: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = answer.text === "" ? {} : JSON.parse(answer.text);
  } catch {
    throw new SchemaValidationError(method, shownPath, [{ path: [], message: "the body is not JSON" }]);
  }
  // an answer of the exact shape is taken as parsed, without zod's copy of it (every answer of every step goes through here)
  const parsed = exactParse(schema, json);
  if (!parsed.success) throw new SchemaValidationError(method, shownPath, parsed.error.issues);
  return parsed.data;
}
