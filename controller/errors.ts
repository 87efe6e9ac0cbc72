/**
 * The controller's one error type. Rules throw it with a Boundary `kind` (a gRPC code name); the
 * HTTP layer alone turns the kind into a status (`http/errors.ts`), so the store knows no HTTP.
 */
import { PulumiBoundaryError } from "../common/errors";
import type { ErrorBody, RequestField } from "../wire/target";

/** gRPC code names as Boundary uses them (`Unimplemented` is its 405), plus two of ours for HTTP-only failures (405, 413). */
export type ErrorKind =
  | "InvalidArgument"
  | "FailedPrecondition"
  | "Unauthenticated"
  | "PermissionDenied"
  | "NotFound"
  | "Aborted"
  | "PayloadTooLarge"
  | "MethodNotAllowed"
  | "Unimplemented"
  | "Unavailable"
  | "ResourceExhausted"
  | "invalid list token"
  | "Internal";

/** The most request fields one error body names; the rest are counted in one more line. */
export const MAX_REPORTED_FIELDS = 20;

export class BoundaryError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_CONTROLLER_RULE";
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly requestFields: RequestField[] = [],
    /** Response headers that go with this error (`Allow` on a 405, `Retry-After` on a 503). */
    readonly headers: Readonly<Record<string, string>> = {},
    /** Answered with an empty body, as Boundary's rate-limit handler answers what it refuses before the API. */
    readonly bare = false,
  ) {
    super(message);
  }

  /**
   * The body Boundary sends: `{kind, message, details.request_fields}`, naming at most
   * MAX_REPORTED_FIELDS fields and then how many more, so an answer stays small whatever was sent.
   */
  toBody(): ErrorBody {
    const body: ErrorBody = { kind: this.kind, message: this.message };
    const fields = this.requestFields;
    if (fields.length > MAX_REPORTED_FIELDS) {
      const more = { name: "(more)", description: `${fields.length - MAX_REPORTED_FIELDS} more fields were refused.` };
      body.details = { request_fields: [...fields.slice(0, MAX_REPORTED_FIELDS), more] };
    } else if (fields.length > 0) body.details = { request_fields: fields };
    return body;
  }
}

/**
 * A 400 naming each offending field, sorted by name as Boundary reports them. Boundary's message is
 * "Error in provided request." for a Target's own requests and "Errors in provided fields." for
 * the actions' (their validators' words, v0.4.0 to v0.21.3).
 */
export function invalidFields(fields: readonly RequestField[], message = "Error in provided request."): BoundaryError {
  const sorted = [...fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new BoundaryError("InvalidArgument", message, sorted);
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
