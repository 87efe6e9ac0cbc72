/** The resource's own errors, in the package's one hierarchy (`common/errors.ts`). */
import { PulumiBoundaryError } from "../../common/errors";

/**
 * The Target exists but the operation did not finish: the engine must record it with this id and
 * these properties (a partial failure, `ErrorResourceInitFailed`) and show `reasons`. Each route's
 * adapter translates it; the dynamic one adds `__provider` to `properties`.
 */
export class ResourceInitError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_PARTIAL_FAILURE";
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

/**
 * The program sets inputs this controller's API generation cannot take (a field a v0.4 controller
 * would silently drop, a new legacy `workerFilter` a current one refuses). Raised before any call
 * that changes something; each reason names the field and what to do instead.
 */
export class UnsupportedInputError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_UNSUPPORTED_INPUT";
  constructor(
    readonly target: string,
    readonly failures: readonly { property: string; reason: string }[],
  ) {
    super(`target ${target}: ${failures.map((f) => f.reason).join("; ")}`);
  }
}
