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
