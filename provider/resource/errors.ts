/**
 * The resource's side of the provider's error catalogue (`provider/errors.ts` assembles it):
 * partial failures, create outcomes, inputs a release cannot take, a failed call of a plan. Each
 * says what exists on the controller and what the user can do.
 */
import { PulumiBoundaryError } from "../../common/errors";
import type { Target } from "../../wire/target";
import type { Call } from "./call";

/** `message` to go on with a sentence after it: without its final full stop (a message may end with one or not). */
export function clause(message: string): string {
  return message.replace(/\.+\s*$/, "");
}

/**
 * Why an update stopped when its one replay, from `version`, met a version conflict too (`failed`):
 * another writer keeps changing the Target. Whether any of the run's changes landed, and what to do.
 */
export function changedAgain(id: string, version: number, failed: PlanError): string {
  const applied = failed.last ? "part of this run's changes were applied" : "none of this run's changes were applied";
  return (
    `updating target ${id}: another writer changed the Target again while this update was replayed once from version ${version} ` +
    `(${clause(failed.message)}); ${applied}, and the stack records the Target as the controller holds it. ` +
    "Run `pulumi up` again once the other writer is done (`pulumi preview` shows what is left to change)."
  );
}

/**
 * The Target exists but the operation did not finish: the engine must record it with this id and
 * these properties (a partial failure, `ErrorResourceInitFailed`) and show `reasons`. Each route's
 * adapter translates it; the dynamic one adds `__provider` to `properties`.
 */
export class ResourceInitError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_PARTIAL_FAILURE";
  /** The Target `id` exists with `properties`; `reasons` say what did not finish. */
  constructor(
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[],
  ) {
    super(reasons.join("; "));
  }
}

/** What the engine handed in does not have the shape of a Target's inputs or state. */
export class InvalidResourceDataError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_INVALID_RESOURCE_DATA";
}

/**
 * A create whose answer was lost, and the controller could not be asked afterwards whether the
 * Target was made: it may exist, unrecorded. The message names it and says how to adopt it.
 */
export class CreateOutcomeUnknownError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_CREATE_OUTCOME_UNKNOWN";
  /** The create of `targetName` in `scopeId` lost its answer (`lost`), and the lookup afterwards failed too (`lookup`). */
  constructor(
    readonly scopeId: string,
    readonly targetName: string,
    lost: Error,
    lookup: unknown,
  ) {
    const name = JSON.stringify(targetName);
    super(
      `creating target ${name} in ${scopeId}: the answer was lost (${lost.message}), and the controller could not be asked ` +
        `afterwards whether it was created (${lookup instanceof Error ? lookup.message : String(lookup)}). It may exist without being ` +
        `in the stack. Once the controller answers, look for it: GET /v1/targets?scope_id=${scopeId}&filter="/item/name" == ${name} ` +
        `(or \`boundary targets list -scope-id ${scopeId}\`). If it is there, adopt it with ` +
        `\`pulumi import boundary:index:Target <resource name> <its id>\` (plugin route), or delete it and run \`pulumi up\` again ` +
        "(dynamic route, which cannot import); if it is not, run `pulumi up` again.",
      { cause: lookup },
    );
  }
}

/** The ways out when a Target holds the name a create needs, for messages. */
function waysOut(id: string): string {
  return (
    `If ${id} should be managed by this stack, adopt it: \`pulumi import boundary:index:Target <resource name> ${id}\` ` +
    "(plugin route; the dynamic route cannot import). " +
    `Otherwise give this resource another name (or leave name unset, so Pulumi names it), or delete ${id} if nobody needs it; then run \`pulumi up\` again.`
  );
}

/**
 * A create whose answer was lost found a Target with its name that is not the one it made (other
 * fields, changed since, or made before this create was sent on the controller's clock): another
 * stack's or someone's. It is never adopted; the message names it, why, and the ways out.
 */
export class TargetNotAdoptedError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_TARGET_NOT_ADOPTED";
  /** After a lost answer (`lost`), `holder` holds the name but is not ours, for `reasons`. */
  constructor(
    readonly scopeId: string,
    readonly targetName: string,
    /** The id of the Target that holds the name. */
    readonly holder: string,
    readonly reasons: readonly string[],
    lost: Error,
  ) {
    super(
      `creating target ${JSON.stringify(targetName)} in ${scopeId}: the answer was lost (${lost.message}). A target of that name exists, ${holder}, ` +
        `but it is not the one this create made (${reasons.join("; ")}), so it is not adopted. ${waysOut(holder)}`,
      { cause: lost },
    );
  }
}

/**
 * A create whose answer was lost, after which the controller showed no Target of its name: the
 * POST was not applied. Nothing needs cleaning up.
 */
export class CreateNotAppliedError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_CREATE_NOT_APPLIED";
  /** After a lost answer (`lost`), the controller showed no Target named `targetName` in `scopeId`. */
  constructor(
    readonly scopeId: string,
    readonly targetName: string,
    lost: Error,
  ) {
    super(
      `creating target ${JSON.stringify(targetName)} in ${scopeId}: ${clause(lost.message)}. The controller, asked afterwards, holds no target of that name: ` +
        "it was not created, and nothing needs cleaning up. Run `pulumi up` again.",
      { cause: lost },
    );
  }
}

/**
 * Boundary refused a create because the name is taken in the project. When it is the Target this
 * resource replaces (`pulumi up --replace`, `replaceOnChanges`), Pulumi creates the replacement
 * first and the names clash: the message says how to avoid it.
 */
export class NameTakenError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_NAME_TAKEN";
  /** Boundary `refused` the create: the name is taken, by `holder` when the lookup found it. */
  constructor(
    readonly scopeId: string,
    readonly targetName: string,
    /** The Target holding the name, when the lookup found it. */
    readonly holder: string | undefined,
    refused: Error,
  ) {
    const by = holder ? ` (by ${holder})` : "";
    super(
      `creating target ${JSON.stringify(targetName)} in ${scopeId}: the name is already used in that project${by}: ${clause(refused.message)}. ` +
        "If it is the Target this resource replaces (`pulumi up --replace`, `replaceOnChanges`), " +
        "Pulumi creates the replacement before deleting it and the names clash: " +
        "set the resource option `deleteBeforeReplace: true`, or leave `name` unset so each replacement gets a name of its own (autonaming). " +
        (holder ? waysOut(holder) : ""),
      { cause: refused },
    );
  }
}

/**
 * A call of an update found the Target gone: it was deleted outside Pulumi. (Its id is `targetId`:
 * Pulumi's dynamic-provider host takes any error with an `id` for a partial failure.)
 */
export class TargetDeletedError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_TARGET_DELETED";
  /** The Target `targetId` was gone (`cause`, the NotFound) when an update called it. */
  constructor(
    readonly targetId: string,
    cause: Error,
  ) {
    super(
      `target ${targetId} was deleted outside Pulumi (${cause.message}). ` +
        "`pulumi refresh` drops it from the stack; the next `pulumi up` then creates it again.",
      { cause },
    );
  }
}

/**
 * The program sets inputs this controller's API generation cannot take (a field a v0.4 controller
 * would silently drop, a new legacy `workerFilter` a current one refuses). Raised before any call
 * that changes something; each reason names the field and what to do instead.
 */
export class UnsupportedInputError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_UNSUPPORTED_INPUT";
  /** `target` (its name, for messages) sets inputs the controller cannot take, each failure naming its property and why. */
  constructor(
    readonly target: string,
    readonly failures: readonly { property: string; reason: string }[],
  ) {
    super(`target ${target}: ${failures.map((f) => f.reason).join("; ")}`);
  }
}

/**
 * A call of a plan failed; `cause` is the client's error, `last` what the controller holds now
 * (the last Target returned before the failure), `failedCall` the call and `what` its description
 * (`updating name`, `setting host sets`).
 */
export class PlanError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_PLAN_FAILED";
  /** `cause` failed `failedCall`, described as `what`; `last` is undefined when the first call failed. */
  constructor(
    override readonly cause: unknown,
    /** The last Target returned before the failure (undefined if the first call failed). */
    readonly last: Target | undefined,
    readonly failedCall: Call,
    what: string,
  ) {
    super(`${what} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}
