/**
 * The Target resource on plain data: check, diff, create, read, update, delete. Both routes (the
 * dynamic provider and the plugin) are thin adapters over this class; it knows neither
 * `__provider` nor gRPC. Decisions come from `plan.ts`; this file sequences API calls and turns
 * their outcome into state. What the engine hands in is parsed at the door, so corrupt state or
 * inputs fail with an error naming the field instead of a wrong plan.
 *
 * Create and update, with their recovery, are `create.ts`'s and `update.ts`'s.
 *
 * Contract (as Pulumi's dynamic providers): create is all-or-recorded (a Target that exists is never
 * lost: a later failure is a ResourceInitError carrying its id and state); a failed delete means
 * the Target still exists; read answers undefined when the Target is gone.
 */
import { z } from "zod";
import { exactParse } from "../../wire/exact-check";
import { INPUT_FIELDS, type InputField } from "../../wire/target-fields";
import { BoundaryClient, NotFoundError, Operation, type BoundaryClientOptions } from "../client";
import { RELEASES, type Release } from "../../wire/releases";
import { autoname, generatedNameFailure, type NamingContext } from "./autoname";
import { createTarget } from "./create";
import { InvalidResourceDataError, UnsupportedInputError } from "./errors";
import { generationFailures, needsGeneration, releasesOf } from "./generation";
import { checkInputs, type CheckFailure, type TargetInputs } from "./inputs";
import { changes, diffOf, projectCreate, projectChanges, undecidedAmong, type Change, type PlanContext, type TargetDiff } from "./plan";
import { TargetState, inputsFromState, managedFields, stateFromTarget } from "./state";
import { updateTarget } from "./update";

const ManagedList = z.array(z.enum(INPUT_FIELDS as [InputField, ...InputField[]]));

/** What the engine tells an operation beyond its data. */
export interface OperationContext {
  /** Where this operation's warnings go (the route's channel, with the resource's URN); never pass a secret. */
  warn?: (message: string) => void;
  /**
   * Input fields the program set at its previous run, beyond `__managed`: at least those it has since
   * removed (the dynamic route's Check records only those; the plugin passes every old input).
   */
  priorInputs?: readonly string[];
  /** The whole operation's budget in ms (the resource's `customTimeouts`); default DEFAULT_OPERATION_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Where `timeoutMs` came from, for messages (`customTimeouts create 3s`). */
  timeoutSource?: string;
  /** Aborted when the engine cancels the operation (`Cancel`). */
  signal?: AbortSignal;
  /** The engine's `ignoreChanges` property paths (the plugin route receives them): never changed. */
  ignoreChanges?: readonly string[];
  /** The name was made by autonaming, not set by the program (decides `deleteBeforeReplace`). */
  autonamed?: boolean;
}

/** What `read` found: the Target's state and the inputs to diff the program against. */
export interface ReadResult {
  id: string;
  state: TargetState;
  inputs: Partial<TargetInputs>;
}

/** The Target resource, configured for one controller. */
export class TargetCore {
  private options: BoundaryClientOptions;
  private clientInstance: BoundaryClient | undefined;
  /** Where warnings go (each route sets its channel); never pass a secret. */
  warn: (message: string) => void = (m) => process.stderr.write(`warning: ${m}\n`);

  /** A core whose client takes `options` (stack config, once `configure` is called, overrides them). */
  constructor(options: BoundaryClientOptions = {}) {
    this.options = options;
  }

  /** Points the core at a controller; a client made before talks to the old one and is closed. */
  async configure(options: BoundaryClientOptions): Promise<void> {
    this.options = { ...this.options, ...options };
    await this.clientInstance?.close();
    this.clientInstance = undefined;
  }

  /**
   * The releases the controller may be, as configured or learned from its answers (the release
   * table's rows), narrowed by a Target's recorded actions when there is one: for the steps that
   * make no call (check, diff, previews). Settings that do not resolve leave every release
   * possible here: the first call reports them.
   */
  private knownReleases(state?: TargetState): readonly Release[] {
    let releases: readonly Release[];
    try {
      releases = this.client.releases;
    } catch {
      releases = RELEASES;
    }
    return narrowed(releases, state);
  }

  /** The API client, made at the first call so the environment is read at call time. */
  get client(): BoundaryClient {
    return (this.clientInstance ??= new BoundaryClient(this.options));
  }

  /** The client for one operation: every request and wait under its deadline and cancellation. */
  private clientFor(ctx: OperationContext): { client: BoundaryClient; op: Operation } {
    const op = new Operation({ timeoutMs: ctx.timeoutMs, source: ctx.timeoutSource, signal: ctx.signal });
    return { client: this.client.within(op), op };
  }

  /**
   * Validates a program's inputs and names the Target when the program does not (autonaming, see
   * `autoname.ts`). Returns the inputs, with the name added if generated, and the failures, each
   * naming its field.
   */
  check(news: Record<string, unknown>, naming: NamingContext = {}): { inputs: Record<string, unknown>; failures: CheckFailure[]; autonamed: boolean } {
    const named = autoname(typeof news.name === "string" ? news.name : undefined, naming);
    const autonamed = named.name !== undefined && news.name === undefined;
    const inputs = autonamed ? { ...news, name: named.name } : news;
    const checked = checkInputs(inputs);
    const failures = checked.failures;
    if (named.failure) failures.push({ property: "name", reason: named.failure });
    if (autonamed) for (const f of failures) if (f.property === "name") f.reason = generatedNameFailure(f.reason, named.name!, naming);
    // what no release the controller may be takes, whatever the state holds: say so now
    failures.push(...generationFailures(checked.inputs as Partial<TargetInputs>, this.knownReleases(), undefined, { stateless: true }));
    return { inputs, failures, autonamed };
  }

  /**
   * What differs between the state and the program, field by field, and what forces a replacement.
   * Makes no call, except once per process when a removed field's default depends on a release the
   * Target's recorded actions do not tell (a probe that changes nothing).
   */
  async diff(olds: unknown, news: Record<string, unknown>, ctx: OperationContext = {}): Promise<TargetDiff> {
    const state = withPrior(parseState(olds), ctx);
    const inputs = parseInputs(news);
    refuseUnsupportedAmong(inputs, this.knownReleases(state), state);
    const { plan, changed } = await this.planned(() => this.clientFor(ctx).client, state, inputs, ctx);
    return diffOf(state, inputs, changed, plan);
  }

  /** A preview of create: the projected state, with no API call (refused when no release the controller may be can take the inputs). */
  previewCreate(news: Record<string, unknown>): Record<string, unknown> {
    const inputs = parseInputs(news);
    refuseUnsupportedAmong(inputs, this.knownReleases());
    return projectCreate(inputs);
  }

  /** A preview of update: the projected state, with no API call (refused when no release the controller may be can take the inputs). */
  previewUpdate(olds: unknown, news: Record<string, unknown>, ctx: OperationContext = {}): Record<string, unknown> {
    const state = withPrior(parseState(olds), ctx);
    const inputs = parseInputs(news);
    const releases = this.knownReleases(state);
    refuseUnsupportedAmong(inputs, releases, state);
    const changed = changes(state, inputs, { ...ctx, releases });
    refuseReplacement(inputs.name ?? state.name, changed);
    return projectChanges(state, inputs, changed);
  }

  /**
   * What decides the plan beyond state and inputs: the releases the controller may be (for a
   * removed field's default; when they disagree on it and the value is one of theirs, narrowed
   * once with a probe that changes nothing), `ignoreChanges`, autonaming; and the changes it
   * plans, computed once (again only when the probe narrowed the releases they depend on).
   */
  private async planned(
    client: () => BoundaryClient,
    state: TargetState,
    inputs: Partial<TargetInputs>,
    ctx: OperationContext,
  ): Promise<{ plan: PlanContext; changed: Change[] }> {
    const plan: PlanContext = { releases: this.knownReleases(state), ignoreChanges: ctx.ignoreChanges, autonamed: ctx.autonamed };
    const changed = changes(state, inputs, plan);
    // the client only when it must ask (a diff otherwise makes no call, and needs no valid settings)
    if (undecidedAmong(changed, plan.releases).length === 0) return { plan, changed };
    const asked = client();
    await asked.hostSetActionsGone();
    plan.releases = narrowed(asked.releases, state);
    return { plan, changed: changes(state, inputs, plan) };
  }

  /**
   * Refuses inputs no release the controller may be can take, before any call that changes
   * something. The releases come from configuration and earlier answers, and the state's recorded
   * actions; when an input's fate depends on them and even the API generation is not known, one
   * probe asks (see `BoundaryClient.apiGeneration`).
   */
  private async refuseUnsupported(client: BoundaryClient, inputs: Partial<TargetInputs>, state?: TargetState): Promise<void> {
    // the cheap test first: once the generation is known (after the first answer), the inputs need not be weighed
    const releases = narrowed(client.releases, state);
    if (releases.some((r) => r.generation !== releases[0]!.generation) && needsGeneration(inputs)) await client.apiGeneration();
    // narrowed again: the generation, once asked, narrows the client's releases
    refuseUnsupportedAmong(inputs, narrowed(client.releases, state), state);
  }

  /**
   * Creates the Target and applies what the POST did not, within the operation's deadline; a later
   * failure is a ResourceInitError. A POST whose outcome is unknown is never sent again: see `create.ts`.
   */
  async create(news: Record<string, unknown>, ctx: OperationContext = {}): Promise<{ id: string; state: TargetState }> {
    const inputs = parseInputs(news) as TargetInputs;
    const { client, op } = this.clientFor(ctx);
    await this.refuseUnsupported(client, inputs);
    return createTarget(client, op, inputs, ctx.warn ?? this.warn);
  }

  /**
   * Reads the Target. With prior state (a refresh) the managed fields carry over; without (an
   * import) every field the controller shows becomes an input. Undefined when the Target is gone:
   * only Boundary's own NotFound says so; any other answer is an error, and nothing is dropped.
   */
  async read(id: string, prior?: Record<string, unknown>, ctx: OperationContext = {}): Promise<ReadResult | undefined> {
    const known = prior?.__managed === undefined ? undefined : parseWith(ManagedList, prior.__managed, "state", "__managed");
    let target;
    try {
      target = await this.clientFor(ctx).client.getTarget(id);
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
    const state = stateFromTarget(target, []);
    state.__managed = known ?? managedFields(inputsFromState(state, true));
    return { id: target.id, state, inputs: inputsFromState(state) };
  }

  /**
   * Brings the Target from `olds` (state) to `news` (inputs) with the fewest calls: the run's
   * planned changes, what the preview showed. A conflict or a lost answer is `update.ts`'s.
   */
  async update(id: string, olds: unknown, news: Record<string, unknown>, ctx: OperationContext = {}): Promise<TargetState> {
    const state = withPrior(parseState(olds), ctx);
    const inputs = parseInputs(news) as TargetInputs;
    const { client } = this.clientFor(ctx);
    await this.refuseUnsupported(client, inputs, state);
    const { changed: planned } = await this.planned(() => client, state, inputs, ctx);
    refuseReplacement(id, planned);
    return updateTarget(client, id, state, inputs, planned, ctx.warn ?? this.warn);
  }

  /** Deletes the Target; one already gone (Boundary's own NotFound) counts as deleted, any other answer is an error. */
  async delete(id: string, ctx: OperationContext = {}): Promise<void> {
    try {
      await this.clientFor(ctx).client.deleteTarget(id);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
}

/** The releases, narrowed by a Target's recorded actions (unless they rule out every one: the controller changed since). */
function narrowed(releases: readonly Release[], state: TargetState | undefined): readonly Release[] {
  const recorded = releasesOf(state, releases);
  return recorded.length > 0 ? recorded : releases;
}

/**
 * Throws UnsupportedInputError when none of `releases` can take the inputs: the pure check, with
 * the releases already known (the method `refuseUnsupported` asks the controller first when it must).
 */
function refuseUnsupportedAmong(inputs: Partial<TargetInputs>, releases: readonly Release[], state?: TargetState): void {
  const failures = generationFailures(inputs, releases, state);
  if (failures.length > 0) throw new UnsupportedInputError(JSON.stringify(inputs.name ?? "(unnamed)"), failures);
}

/**
 * Refuses, before any call, an update holding a change only a replacement can make (`scopeId`,
 * `type`). The engine replaces such a Target itself after Diff says so; an Update that gets one
 * anyway (`pulumi do patch`, which has no replace path) must not answer success with the Target unchanged.
 */
function refuseReplacement(target: string | undefined, planned: readonly Change[]): void {
  const replaced = planned.filter((c) => c.replace);
  if (replaced.length === 0) return;
  const fields = replaced.map((c) => c.field).join(" and ");
  const reason =
    `${fields} cannot change in place (Boundary cannot move a Target or change its type): changing ${fields} replaces the Target, ` +
    "and an update cannot replace; nothing was changed. Run `pulumi up` with a program that declares this Target (Pulumi replaces it), " +
    "or delete it and create a new one (`pulumi do boundary:index:Target delete <id>`, then `create`).";
  throw new UnsupportedInputError(JSON.stringify(target ?? "(unnamed)"), [{ property: replaced[0]!.field, reason }]);
}

/** The state, managing also what the program set at its previous run (a field it has since removed is reset). */
function withPrior(state: TargetState, ctx: OperationContext): TargetState {
  // what the program set at its previous run is usually what the state manages already: nothing to add
  if (!ctx.priorInputs?.some((f) => !state.__managed.includes(f as InputField))) return state;
  const prior = INPUT_FIELDS.filter((f) => ctx.priorInputs?.includes(f) && !state.__managed.includes(f));
  return prior.length === 0 ? state : { ...state, __managed: [...state.__managed, ...prior] };
}

/** Prior state, as the engine hands it back. */
function parseState(olds: unknown): TargetState {
  return parseWith(TargetState, olds, "state");
}

/**
 * The program's inputs, as the engine hands them on after `check` (so their rules already hold):
 * parsed for shape and normalised as `check` normalises them, with values not known yet (preview)
 * left as they are.
 */
function parseInputs(news: Record<string, unknown>): Partial<TargetInputs> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) throw new InvalidResourceDataError(`the inputs of the target are invalid: ${failures.map((f) => f.reason).join("; ")}`);
  return inputs as Partial<TargetInputs>;
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string, at?: string): z.infer<S> {
  // state of the exact shape (what this provider wrote) is taken as parsed, without zod's copy of it
  const parsed = exactParse(schema, value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${[at, ...i.path].filter((p) => p !== undefined).join(".") || "(whole)"}: ${i.message}`);
  throw new InvalidResourceDataError(`the ${what} of the target is not readable: ${issues.join("; ")}`);
}
