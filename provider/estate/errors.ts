/**
 * The import command's errors (`pulumi-boundary import`, and the demo's flags): a command line or
 * an input it cannot use, each naming the flag or input and what to write instead; the command
 * exits non-zero. A side of the provider's catalogue, assembled in `provider/errors.ts`.
 */
import { PulumiBoundaryError } from "../../common/errors";

/** A command line that cannot be run: the message names the flag and what to write instead. */
export class UsageError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_USAGE";
}

/** Bad input to the command: the message names the input and what to do. Exits non-zero. */
export class ImportInputError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_IMPORT_INPUT";
}
