/**
 * The client's error hierarchy: one base class, each subclass with a fixed `code`. HTTP errors carry
 * status, Boundary `kind`, message and request fields, and a message naming method and path (never
 * the token). A brand check keeps `instanceof` true across two loaded copies of this package (the
 * program's and the provider host's).
 */
import type { RequestField } from "../../wire/target";

const BRAND = Symbol.for("pulumi-boundary.error-brands");

export class BoundaryClientError extends Error {
  /** Stable machine-readable code, e.g. `BOUNDARY_API_ERROR`. */
  readonly code: string = "BOUNDARY_CLIENT_ERROR";
  declare readonly [BRAND]: string[];

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const brands: string[] = [];
    for (let c: Function | null = new.target; c && c !== Error; c = Object.getPrototypeOf(c)) brands.push(c.name);
    Object.defineProperty(this, BRAND, { value: brands });
    this.name = new.target.name;
  }

  static override [Symbol.hasInstance](x: unknown): boolean {
    const brands = (x as { [BRAND]?: unknown } | null)?.[BRAND];
    return Array.isArray(brands) && brands.includes(this.name);
  }
}

/** The controller answered with an error status. */
export class BoundaryApiError extends BoundaryClientError {
  override readonly code: string = "BOUNDARY_API_ERROR";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    /** Boundary's gRPC code name (`InvalidArgument`, `NotFound`, …), or `Unknown` for a non-Boundary body. */
    readonly kind: string,
    readonly apiMessage: string,
    readonly requestFields: RequestField[] = [],
  ) {
    const fields = requestFields.map((f) => `${f.name}: ${f.description}`).join("; ");
    super(`${method} ${path}: ${status} ${kind}: ${apiMessage}${fields ? ` (${fields})` : ""}`);
  }
}

/**
 * A mutation carried a version that is not the Target's current one: someone changed the Target
 * since it was read. Ours answers 409 Aborted; real Boundary 404 "…incorrect version provided" on
 * PATCH and 500 "…0 rows updated" on the add/remove/set actions.
 */
export class VersionConflictError extends BoundaryApiError {
  override readonly code = "BOUNDARY_VERSION_CONFLICT";
}

/** The resource does not exist (404 that is not a version conflict). */
export class NotFoundError extends BoundaryApiError {
  override readonly code = "BOUNDARY_NOT_FOUND";
}

/** The response did not have the shape of the API contract: a schema failure, not a transport one. */
export class SchemaValidationError extends BoundaryClientError {
  override readonly code = "BOUNDARY_SCHEMA_MISMATCH";
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
  override readonly code: string = "BOUNDARY_TRANSPORT_ERROR";
  constructor(
    readonly method: string,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${method} ${path}: ${message}`, options);
  }
}

export class TimeoutError extends TransportError {
  override readonly code = "BOUNDARY_TIMEOUT";
}

/** Picks the error class for an error status and body. */
export function apiError(method: string, path: string, status: number, kind: string, message: string, fields: RequestField[]): BoundaryApiError {
  const mutation = method !== "GET";
  const conflict =
    (status === 409 && kind === "Aborted") ||
    (mutation && status === 404 && /incorrect version provided/i.test(message)) ||
    (mutation && status === 500 && /\b0 rows updated\b/i.test(message));
  if (conflict) return new VersionConflictError(method, path, status, kind, message, fields);
  if (status === 404) return new NotFoundError(method, path, status, kind, message, fields);
  return new BoundaryApiError(method, path, status, kind, message, fields);
}
