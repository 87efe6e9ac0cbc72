/**
 * The Target resource on plain data: check, diff, create, read, update, delete. Both routes (the
 * dynamic provider and the plugin) are thin adapters over this class; it knows neither
 * `__provider` nor gRPC. Decisions come from `plan.ts`; this file sequences API calls and turns
 * their outcome into state. What the engine hands in is parsed at the door, so corrupt state or
 * inputs fail with an error naming the field instead of a wrong plan.
 *
 * Contract (as Pulumi's dynamic providers): create is all-or-recorded (a Target that exists is never
 * lost: a later failure is a ResourceInitError carrying its id and state); a failed delete means
 * the Target still exists; read answers undefined when the Target is gone.
 */
import { z } from "zod";
import type { Target } from "../../wire/target";
import { INPUT_FIELDS, spec, type InputField } from "../../wire/target-fields";
import { BoundaryApiError, BoundaryClient, NotFoundError, TransportError, VersionConflictError, type BoundaryClientOptions } from "../client";
import { RELEASES, type Release } from "../../wire/releases";
import { PlanError, applyPlan } from "./apply";
import { autoname, type NamingContext } from "./autoname";
import { CreateOutcomeUnknownError, InvalidResourceDataError, ResourceInitError, UnsupportedInputError } from "./errors";
import { droppedFields, generationFailures, needsGeneration, releasesOf } from "./generation";
import { checkInputs, type CheckFailure, type TargetInputs } from "./inputs";
import { createRequest, diffTarget, planUpdate, projectCreate, projectUpdate, sameValue, type TargetDiff } from "./plan";
import { TargetState, inputsFromState, managedFields, stateFromTarget } from "./state";

/** A create whose answer was lost is adopted only if the Target was made this recently (clock skew). */
const ADOPT_SKEW_MS = 5 * 60_000;

const ManagedList = z.array(z.enum(INPUT_FIELDS as [InputField, ...InputField[]]));

/** What the engine tells an operation beyond its data. */
export interface OperationContext {
  /** Where this operation's warnings go (the route's channel, with the resource's URN); never pass a secret. */
  warn?: (message: string) => void;
  /** The input fields the program set at its previous run (the engine's old inputs), beyond `__managed`. */
  priorInputs?: readonly string[];
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

  /**
   * Validates a program's inputs and names the Target when the program does not (autonaming, see
   * `autoname.ts`). Returns the inputs, with the name added if generated, and the failures, each
   * naming its field.
   */
  check(news: Record<string, unknown>, naming: NamingContext = {}): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
    const named = autoname(typeof news.name === "string" ? news.name : undefined, naming);
    const inputs = named.name !== undefined && news.name === undefined ? { ...news, name: named.name } : news;
    const checked = checkInputs(inputs);
    const failures = checked.failures;
    if (named.failure) failures.push({ property: "name", reason: named.failure });
    // what no release the controller may be takes, whatever the state holds: say so now
    failures.push(...generationFailures(checked.inputs as Partial<TargetInputs>, this.knownReleases(), undefined, { stateless: true }));
    return { inputs, failures };
  }

  /** What differs between the state and the program, field by field, and what forces a replacement. */
  diff(olds: unknown, news: Record<string, unknown>, ctx: OperationContext = {}): TargetDiff {
    const state = withPrior(parseState(olds), ctx);
    const inputs = parseInputs(news);
    refuseUnsupported(inputs, this.knownReleases(state), state);
    return diffTarget(state, inputs);
  }

  /** A preview of create: the projected state, with no API call (refused when no release the controller may be can take the inputs). */
  previewCreate(news: Record<string, unknown>): Record<string, unknown> {
    const inputs = parseInputs(news);
    refuseUnsupported(inputs, this.knownReleases());
    return projectCreate(inputs);
  }

  /** A preview of update: the projected state, with no API call (refused when no release the controller may be can take the inputs). */
  previewUpdate(olds: unknown, news: Record<string, unknown>, ctx: OperationContext = {}): Record<string, unknown> {
    const state = withPrior(parseState(olds), ctx);
    const inputs = parseInputs(news);
    refuseUnsupported(inputs, this.knownReleases(state), state);
    return projectUpdate(state, inputs);
  }

  /**
   * Refuses inputs no release the controller may be can take, before any call that changes
   * something. The releases come from configuration and earlier answers, and the state's recorded
   * actions; when an input's fate depends on them and even the API generation is not known, one
   * probe asks (see `BoundaryClient.apiGeneration`).
   */
  private async refuseUnsupported(inputs: Partial<TargetInputs>, state?: TargetState): Promise<void> {
    if (needsGeneration(inputs) && new Set(narrowed(this.client.releases, state).map((r) => r.generation)).size > 1) await this.client.apiGeneration();
    refuseUnsupported(inputs, narrowed(this.client.releases, state), state);
  }

  /** Creates the Target and applies what the POST did not; a later failure is a ResourceInitError. */
  async create(news: Record<string, unknown>, ctx: OperationContext = {}): Promise<{ id: string; state: TargetState }> {
    const inputs = parseInputs(news) as TargetInputs;
    const managed = managedFields(inputs);
    await this.refuseUnsupported(inputs);
    const started = Date.now();
    let created: Target;
    try {
      // the lists go in the POST only to a controller that may apply them there (the release table's createAppliesLists: the spec's)
      created = await this.client.createTarget(createRequest(inputs, this.client.releases.some((r) => r.createAppliesLists)));
    } catch (err) {
      // The connection failed: the controller may have created the Target before the answer was
      // lost. Names are unique per project, so look for it rather than leave an orphan behind.
      if (!(err instanceof TransportError)) throw err;
      const found = await this.findJustCreated(inputs, started, err);
      if (!found) throw err;
      (ctx.warn ?? this.warn)(`creating target ${JSON.stringify(inputs.name)}: ${err.message}; it was created as ${found.id} and is recorded in the stack.`);
      created = found;
    }
    let state = stateFromTarget(created, managed);
    // Lists the POST did not apply (real Boundary ignores them on create) are set now. A field the
    // POST silently dropped (a release older than the field) no later call would keep: the answer
    // check below names it.
    const dropped = new Set(droppedFields(inputs, state).filter((d) => !spec(d.property as InputField).association).map((d) => d.property));
    const planned = Object.fromEntries(Object.entries(inputs).filter(([f]) => !dropped.has(f))) as TargetInputs;
    try {
      const last = await applyPlan(this.client, created.id, created.version, planUpdate(state, planned));
      if (last) state = stateFromTarget(last, managed);
    } catch (err) {
      if (!(err instanceof PlanError)) throw err;
      if (err.last) state = stateFromTarget(err.last, managed);
      throw new ResourceInitError(created.id, state, [
        `target ${created.id} was created, but ${err.message}. ` + "It is recorded in the stack; the next `pulumi up` finishes it, `pulumi destroy` removes it.",
      ]);
    }
    const notKept = droppedFields(inputs, state);
    if (notKept.length > 0) {
      throw new ResourceInitError(created.id, state, [`target ${created.id} was created, but ${notKept.map((d) => d.reason).join("; ")}. It is recorded in the stack as the controller holds it.`]);
    }
    return { id: created.id, state };
  }

  /**
   * Reads the Target. With prior state (a refresh) the managed fields carry over; without (an
   * import) every field the controller shows becomes an input. Undefined when the Target is gone.
   */
  async read(id: string, prior?: Record<string, unknown>): Promise<ReadResult | undefined> {
    const known = prior?.__managed === undefined ? undefined : parseWith(ManagedList, prior.__managed, "state", "__managed");
    let target;
    try {
      target = await this.client.getTarget(id);
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
    const state = stateFromTarget(target, []);
    state.__managed = known ?? managedFields(inputsFromState(state, true));
    return { id: target.id, state, inputs: inputsFromState(state) };
  }

  /**
   * Brings the Target from `olds` (state) to `news` (inputs) with the fewest calls. A version
   * conflict (changed outside Pulumi) is retried once from a fresh read; a failure after some calls
   * succeeded is a ResourceInitError holding what the controller now has.
   */
  async update(id: string, olds: unknown, news: Record<string, unknown>, ctx: OperationContext = {}): Promise<TargetState> {
    const state = withPrior(parseState(olds), ctx);
    const inputs = parseInputs(news) as TargetInputs;
    const managed = managedFields(inputs);
    await this.refuseUnsupported(inputs, state);
    let last;
    try {
      last = await applyPlan(this.client, id, state.version, planUpdate(state, inputs));
    } catch (err) {
      if (!(err instanceof PlanError) || !(await this.isConflict(id, err, err.last?.version ?? state.version))) throw partial(id, err, managed);
      last = await this.retryFromFresh(id, err.last ? stateFromTarget(err.last, state.__managed) : state, inputs, managed, ctx.warn ?? this.warn);
    }
    const updated = last ? stateFromTarget(last, managed) : { ...state, __managed: managed };
    const dropped = droppedFields(inputs, updated);
    if (dropped.length > 0) throw new ResourceInitError(id, updated, [`updating target ${id}: ${dropped.map((d) => d.reason).join("; ")}`]);
    return updated;
  }

  /**
   * Did the call fail because the Target's version moved? A recognised conflict says so; current
   * Boundary answers a stale version on the add/set/remove actions with a plain 500 ("Failed to set
   * target host sources"), so such a 500 counts only once a fresh read shows the version is no
   * longer the one the call carried.
   */
  private async isConflict(id: string, err: PlanError, sent: number): Promise<boolean> {
    if (err.cause instanceof VersionConflictError) return true;
    if (!(err.failedCall.op === "set" && err.cause instanceof BoundaryApiError && err.cause.status === 500)) return false;
    try {
      return (await this.client.getTarget(id)).version !== sent;
    } catch {
      return false;
    }
  }

  /** Deletes the Target; one already gone counts as deleted. */
  async delete(id: string): Promise<void> {
    try {
      await this.client.deleteTarget(id);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }

  /**
   * A Target with this name in this project, created since `since` (minus clock skew), or undefined
   * when the controller says there is none. A controller that stays away is asked again until the
   * client timeout (BOUNDARY_CLIENT_TIMEOUT) has passed; then the outcome is unknown, and the error
   * says how to adopt the Target if it exists, rather than leave it unrecorded and unexplained.
   */
  private async findJustCreated(inputs: TargetInputs, since: number, lost: TransportError): Promise<Target | undefined> {
    const deadline = Date.now() + this.client.settings.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const [match] = (await this.client.listTargets({ scopeId: inputs.scopeId, filter: `"/item/name" == ${JSON.stringify(inputs.name)}` })).filter(
          (t) => t.name === inputs.name && t.created_time !== undefined && Date.parse(t.created_time) >= since - ADOPT_SKEW_MS,
        );
        return match;
      } catch (err) {
        if (!(err instanceof TransportError) || Date.now() >= deadline) throw new CreateOutcomeUnknownError(inputs.scopeId, inputs.name ?? "", lost, err);
        await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** attempt, Math.max(0, deadline - Date.now()))));
      }
    }
  }

  /**
   * The Target changed outside Pulumi since it was last read (its version moved). Re-read it, say
   * which fields changed, and retry once from the fresh version. The new plan touches only fields
   * the program sets, so outside changes to other fields are kept.
   */
  private async retryFromFresh(id: string, known: TargetState, news: TargetInputs, managed: InputField[], warn: (m: string) => void): Promise<Target> {
    const current = await this.client.getTarget(id);
    const fresh = stateFromTarget(current, known.__managed);
    const outside = INPUT_FIELDS.filter((f) => !sameValue(known[f], fresh[f]));
    warn(
      `target ${id} was changed outside Pulumi (version ${known.version} → ${fresh.version}` +
        `${outside.length ? `; changed: ${outside.join(", ")}` : ""}); retrying once from the current version.`,
    );
    try {
      return (await applyPlan(this.client, id, fresh.version, planUpdate(fresh, news))) ?? current;
    } catch (err) {
      throw partial(id, err, managed);
    }
  }
}

/** The releases, narrowed by a Target's recorded actions (unless they rule out every one: the controller changed since). */
function narrowed(releases: readonly Release[], state: TargetState | undefined): readonly Release[] {
  const recorded = releasesOf(state, releases);
  return recorded.length > 0 ? recorded : releases;
}

/** Throws UnsupportedInputError when no release the controller may be can take the inputs. */
function refuseUnsupported(inputs: Partial<TargetInputs>, releases: readonly Release[], state?: TargetState): void {
  const failures = generationFailures(inputs, releases, state);
  if (failures.length > 0) throw new UnsupportedInputError(JSON.stringify(inputs.name ?? "(unnamed)"), failures);
}

/** A failure after some calls succeeded is recorded as what the controller now holds. */
function partial(id: string, err: unknown, managed: InputField[]): unknown {
  if (!(err instanceof PlanError)) return err;
  if (!err.last) return err.cause;
  return new ResourceInitError(id, stateFromTarget(err.last, managed), [`updating target ${id}: ${err.message}`]);
}

/** The state, managing also what the program set at its previous run (a field it has since removed is reset). */
function withPrior(state: TargetState, ctx: OperationContext): TargetState {
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
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${[at, ...i.path].filter((p) => p !== undefined).join(".") || "(whole)"}: ${i.message}`);
  throw new InvalidResourceDataError(`the ${what} of the target is not readable: ${issues.join("; ")}`);
}
