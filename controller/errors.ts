/**
 * The controller's one error type. Rules throw it with a Boundary `kind` (a gRPC code name); the
 * HTTP layer alone turns the kind into a status (`http/errors.ts`), so the store knows no HTTP.
 */
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

export class BoundaryError extends Error {
  override readonly name = "BoundaryError";
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

export function invalidField(name: string, description: string): BoundaryError {
  return invalidFields([{ name, description }]);
}

export function notFound(message = "Resource not found."): BoundaryError {
  return new BoundaryError("NotFound", message);
}
