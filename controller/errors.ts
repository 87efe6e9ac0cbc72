/**
 * The controller's one error type. Rules throw it with a Boundary `kind` (a gRPC code name); the
 * HTTP layer alone turns the kind into a status (`http/errors.ts`), so the store knows no HTTP.
 */
import { PulumiBoundaryError } from "../common/errors";
import type { ErrorBody, RequestField } from "../wire/target";

/** gRPC code names as Boundary uses them, plus two of ours for HTTP-only failures (405, 413). */
export type ErrorKind =
  | "InvalidArgument"
  | "FailedPrecondition"
  | "Unauthenticated"
  | "PermissionDenied"
  | "NotFound"
  | "Aborted"
  | "PayloadTooLarge"
  | "MethodNotAllowed"
  | "Internal";

export class BoundaryError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_CONTROLLER_RULE";
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly requestFields: RequestField[] = [],
  ) {
    super(message);
  }

  /** The body Boundary sends: `{kind, message, details.request_fields}`. */
  toBody(): ErrorBody {
    const body: ErrorBody = { kind: this.kind, message: this.message };
    if (this.requestFields.length > 0) body.details = { request_fields: this.requestFields };
    return body;
  }
}

/** A 400 naming each offending field, with Boundary's fixed message for field errors. */
export function invalidFields(fields: RequestField[]): BoundaryError {
  return new BoundaryError("InvalidArgument", "Error in provided request.", fields);
}

/** A 400 naming one field. */
export function invalidField(name: string, description: string): BoundaryError {
  return invalidFields([{ name, description }]);
}

/** A 404, with Boundary's default message unless given one. */
export function notFound(message = "Resource not found."): BoundaryError {
  return new BoundaryError("NotFound", message);
}

/**
 * The fields of one 400 for a body some of whose keys did not decode: those keys' errors first,
 * then the rules' errors for the other keys (a key sent with the wrong type is not also "required").
 */
export function mergeFieldErrors(decoded: readonly RequestField[], ruled: readonly RequestField[]): RequestField[] {
  const bad = new Set(decoded.map((f) => f.name.split(".")[0]));
  return [...decoded, ...ruled.filter((f) => !bad.has(f.name.split(".")[0]))];
}
