/**
 * The plugin's errors (its List stream and the functions `authorizeSession` and `getTargets`):
 * requests refused before any API call, each naming the field and the rule. A side of the
 * provider's catalogue, assembled in `provider/errors.ts`.
 */
import { PulumiBoundaryError } from "../../common/errors";

/** A List request the provider refuses before (or instead of) any call, with the gRPC status it answers. */
export class ListRefusal extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_LIST_REFUSED";
  /** `status` (gRPC's name: InvalidArgument, FailedPrecondition) and the message naming the field and the rule. */
  constructor(
    readonly status: "InvalidArgument" | "FailedPrecondition",
    message: string,
  ) {
    super(message);
  }
}

/** A function's arguments break a rule; the message names the function, the argument and the rule. */
export class FunctionArgumentError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_FUNCTION_ARGUMENTS";
}

/** The engine invoked a function token this provider does not have; the message names the ones it has. */
export class UnknownFunctionError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_UNKNOWN_FUNCTION";
}
