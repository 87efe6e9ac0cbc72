/**
 * The client's errors, in the package's one hierarchy (`common/errors.ts`): each class has a fixed
 * `code`, and `instanceof` works across two loaded copies of the package (the program's and the
 * provider host's). HTTP errors carry status, headers, Boundary `kind`, message and request fields,
 * and a message naming method and path, never the token.
 */
import { PulumiBoundaryError } from "../../common/errors";
import type { RequestField } from "../../wire/target";

/** Base of every error the client throws. */
export class BoundaryClientError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_CLIENT_ERROR";
}

/** The client's settings (options or BOUNDARY_* variables) are malformed; nothing was sent. */
export class ClientSettingsError extends BoundaryClientError {
  static override readonly code = "BOUNDARY_CLIENT_SETTINGS";
}

/** The controller answered with an error status. */
export class BoundaryApiError extends BoundaryClientError {
  static override readonly code: string = "BOUNDARY_API_ERROR";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    /** Boundary's gRPC code name (`InvalidArgument`, `NotFound`, …), or `Unknown` for a non-Boundary body. */
    readonly kind: string,
    readonly apiMessage: string,
    readonly requestFields: RequestField[] = [],
    /** The response's headers, lower-case names (e.g. `retry-after`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const fields = requestFields.map((f) => `${f.name}: ${f.description}`).join("; ");
    super(`${method} ${path}: ${status} ${kind}: ${apiMessage}${fields ? ` (${fields})` : ""}`);
  }
}

/**
 * A mutation carried a version that is not the Target's current one: someone changed the Target
 * since it was read. Ours answers 409 Aborted; real Boundary 404 "…incorrect version provided" on
 * PATCH and 500 "…0 rows updated" or "…invalid target version…" on the add/remove/set actions.
 */
export class VersionConflictError extends BoundaryApiError {
  static override readonly code = "BOUNDARY_VERSION_CONFLICT";
}

/** The resource does not exist (404 that is not a version conflict). */
export class NotFoundError extends BoundaryApiError {
  static override readonly code = "BOUNDARY_NOT_FOUND";
}

/** The response did not have the shape of the API contract: a schema failure, not a transport one. */
export class SchemaValidationError extends BoundaryClientError {
  static override readonly code = "BOUNDARY_SCHEMA_MISMATCH";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly issues: { path: PropertyKey[]; message: string }[],
  ) {
    super(`${method} ${path}: unexpected response: ${issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ")}`);
  }
}

/** The request never got an answer: connection refused or reset, or the client timeout passed. */
export class TransportError extends BoundaryClientError {
  static override readonly code: string = "BOUNDARY_TRANSPORT_ERROR";
  constructor(
    readonly method: string,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${method} ${path}: ${message}`, options);
  }
}

/** No answer within the client timeout (`BOUNDARY_CLIENT_TIMEOUT`). */
export class TimeoutError extends TransportError {
  static override readonly code = "BOUNDARY_TIMEOUT";
}

/** Picks the error class for an error status and body. */
export function apiError(
  method: string,
  path: string,
  status: number,
  kind: string,
  message: string,
  fields: RequestField[],
  headers: Record<string, string> = {},
): BoundaryApiError {
  const mutation = method !== "GET";
  const conflict =
    (status === 409 && kind === "Aborted") ||
    (mutation && status === 404 && /incorrect version provided/i.test(message)) ||
    // v0.4's host-set actions say "0 rows updated"; its credential-library actions "invalid target version"
    (mutation && status === 500 && /\b0 rows updated\b|invalid target version/i.test(message));
  const Kind = conflict ? VersionConflictError : status === 404 ? NotFoundError : BoundaryApiError;
  return new Kind(method, path, status, kind, message, fields, headers);
}
