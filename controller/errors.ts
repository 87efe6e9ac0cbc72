/**
 * The controller's error catalogue: every error class the controller throws, Boundary's kinds and
 * the HTTP status of each. Rules throw `ControllerFault` with a Boundary `kind` (a gRPC code name);
 * only the HTTP layer asks `statusOf`, so the store and the rules know no HTTP.
 *
 * Named `ControllerFault`, not `BoundaryError`: the provider's client has `BoundaryApiError` (what
 * a client saw in an answer), and the two sides must not be taken for each other in a stack trace
 * or an import. A fault is what the controller answers; an API error is what the client received.
 */
import { InternalError, InvalidDurationError, PulumiBoundaryError, UnknownReleaseError } from "../common/errors";
import { FilterEvaluationError, FilterSyntaxError } from "../common/filter";
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

/** HTTP status per kind: the one place a kind becomes a status. */
const STATUS: Record<ErrorKind, number> = {
  InvalidArgument: 400,
  FailedPrecondition: 400,
  Unauthenticated: 401,
  PermissionDenied: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  Unimplemented: 405,
  Aborted: 409,
  PayloadTooLarge: 413,
  Internal: 500,
  Unavailable: 503,
  ResourceExhausted: 429,
  "invalid list token": 400,
};

/** Every kind the controller answers with, in the table's order. */
export const ERROR_KINDS = Object.keys(STATUS) as ErrorKind[];

/** The HTTP status of a kind. */
export function statusOf(kind: ErrorKind): number {
  return STATUS[kind];
}

/** A rule refused a request: a Boundary `kind`, its message, the offending request fields; answered as Boundary's error body. */
export class ControllerFault extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_CONTROLLER_RULE";
  /** A fault of `kind`; `headers` go with the answer, `bare` answers with an empty body. */
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
export function invalidFields(fields: readonly RequestField[], message = "Error in provided request."): ControllerFault {
  const sorted = [...fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new ControllerFault("InvalidArgument", message, sorted);
}

/** A 400 naming one field. */
export function invalidField(name: string, description: string): ControllerFault {
  return invalidFields([{ name, description }]);
}

/** A 404, with Boundary's default message unless given one. */
export function notFound(message = "Resource not found."): ControllerFault {
  return new ControllerFault("NotFound", message);
}

/**
 * The fields of one 400 for a body some of whose keys did not decode: those keys' errors first,
 * then the rules' errors for the other keys (a key sent with the wrong type is not also "required").
 */
export function mergeFieldErrors(decoded: readonly RequestField[], ruled: readonly RequestField[]): RequestField[] {
  const bad = new Set(decoded.map((f) => f.name.split(".")[0]));
  return [...decoded, ...ruled.filter((f) => !bad.has(f.name.split(".")[0]))];
}

/** A flag, config-file key or fixtures file is wrong; the message names it and the value. */
export class ConfigError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_CONFIG";
}

/** The config file does not parse; the message names the line. */
export class ConfigSyntaxError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_CONFIG_SYNTAX";
}

/**
 * An answer that is not Boundary's error body (a page, plain text, or nothing): thrown by routing
 * (`http/no-route.ts`, `http/match.ts`), replied as it is.
 */
export class NoRouteAnswer extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_NO_ROUTE_ANSWER";
  /** The answer to send as it is. */
  constructor(readonly reply: { status: number; page?: { contentType: string; text: string }; headers?: Readonly<Record<string, string>> }) {
    super(`no route: answered ${reply.status}${reply.page ? ` (${reply.page.contentType})` : ""}`);
  }
}

/**
 * Every error class the controller throws, by name: what the error table test enumerates. The last
 * five are shared with the provider's catalogue (defined in `common/`, thrown by code both sides run).
 */
export const CONTROLLER_ERRORS = {
  ControllerFault,
  ConfigError,
  ConfigSyntaxError,
  NoRouteAnswer,
  InvalidDurationError,
  UnknownReleaseError,
  FilterSyntaxError,
  FilterEvaluationError,
  InternalError,
} as const;
