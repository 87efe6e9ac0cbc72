/**
 * The client's side of the provider's error catalogue (`provider/errors.ts` assembles it): its
 * settings, the controller's answers, the transport. Client errors (`BoundaryClientError` and below)
 * carry method and path and never the token; API errors (`BoundaryApiError` and below) status,
 * headers, Boundary's `kind`, message and request fields.
 */
import { PulumiBoundaryError } from "../../common/errors";
import type { RequestField, Target } from "../../wire/target";
import { OLDEST } from "../../wire/releases";

/** Base of every error the client throws. */
export class BoundaryClientError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_CLIENT_ERROR";
}

/** The client's settings (options or BOUNDARY_* variables) are malformed; nothing was sent. */
export class ClientSettingsError extends BoundaryClientError {
  static override readonly code = "BOUNDARY_CLIENT_SETTINGS";
}

/**
 * Logging in with the configured auth method was refused: a wrong login name or password, an auth
 * method the controller does not have, or one of a type its release does not know. The message names
 * the setting to fix, never the password.
 */
export class LoginRefusedError extends BoundaryClientError {
  static override readonly code = "BOUNDARY_LOGIN_REFUSED";
}

/** The controller answered with an error status. */
export class BoundaryApiError extends BoundaryClientError {
  static override readonly code: string = "BOUNDARY_API_ERROR";
  /** An error status of `method path`; `note`, when given, says what the user can do (appended to the message). */
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
    /** What the user can do about it, appended to the message (a full sentence). */
    note?: string,
  ) {
    const fields = requestFields.map((f) => `${f.name}: ${f.description}`).join("; ");
    super(`${method} ${path}: ${status} ${kind}: ${apiMessage}${fields ? ` (${fields})` : ""}${note ? ` ${note}` : ""}`);
  }
}

/**
 * A v0.4 action (`:set-host-sets`, …) answered 405: the controller does not route it, being a
 * current release of Boundary, which replaced it. Nothing was changed; the message names the
 * action that replaced it and the client method that works on every release.
 */
export class ActionNotRoutedError extends BoundaryApiError {
  static override readonly code = "BOUNDARY_ACTION_NOT_ROUTED";
  /**
   * `action` is the v0.4 action asked (`:set-host-sets`), `current` the one that replaced it,
   * `droppedIn` the first release without it, `method` the client method to call instead.
   */
  constructor(
    method: string,
    path: string,
    headers: Readonly<Record<string, string>>,
    readonly action: string,
    readonly current: string,
    readonly droppedIn: string | undefined,
    readonly useMethod: string,
  ) {
    const since = droppedIn ? `Boundary ${droppedIn} and later have no ${action}` : `it has no ${action}`;
    super(
      method,
      path,
      405,
      "Unknown",
      "HTTP 405",
      [],
      headers,
      `This controller is a current release of Boundary: ${since} (it was replaced by ${current}). ` +
        `Call BoundaryClient.${useMethod}, which picks the action the controller speaks on every release. Nothing was changed.`,
    );
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

/**
 * The resource does not exist: a 404 whose body is Boundary's own error body with kind `NotFound`
 * (and not a version conflict). Only this answer means "gone"; a 404 from anything else is an
 * UnexpectedAnswerError.
 */
export class NotFoundError extends BoundaryApiError {
  static override readonly code = "BOUNDARY_NOT_FOUND";
}

/**
 * A 401: the controller did not take the request's credentials. The message says whether a token
 * was sent at all (none configured) or was refused (wrong, expired or revoked), and where it is set.
 */
export class UnauthenticatedError extends BoundaryApiError {
  static override readonly code = "BOUNDARY_UNAUTHENTICATED";
}

/**
 * An answer that is not the API's: an error status whose body is not Boundary's error body (a
 * proxy's or gateway's page: a 502, a 504, an HTML 404 for a path the controller does not serve),
 * or a page that is not JSON whatever its status (Boundary's admin UI at a wrong base path). Nothing can be concluded from it about
 * the Target, so it is never taken as "gone" or "refused"; the message names the full address and
 * what came back (status, content type, the first bytes), never the token.
 */
export class UnexpectedAnswerError extends BoundaryApiError {
  static override readonly code = "BOUNDARY_UNEXPECTED_ANSWER";
  /** An answer that is not the API's, named by its full address, status, content type and first bytes (already scrubbed). */
  constructor(
    method: string,
    path: string,
    /** The full address asked (origin, base path and path; no query). */
    readonly url: string,
    status: number,
    /** The answer's content type, or undefined when it named none. */
    readonly contentType: string | undefined,
    /** The first bytes of the body, credentials scrubbed. */
    readonly bodyStart: string,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(method, path, status, "Unknown", bodyStart || `HTTP ${status}`, [], headers);
    const body = bodyStart ? `body starts ${JSON.stringify(bodyStart)}` : "empty body";
    const wrongAddress =
      "this address does not reach the controller's API (a wrong host, port or path): check boundary:addr / BOUNDARY_ADDR, " +
      "which must be the API's address such as https://boundary.example.com:9200.";
    const hint =
      status === 404
        ? ` A 404 that is not Boundary's means ${wrongAddress}`
        : status < 300
          ? ` A page that is not the API answered (Boundary's admin UI answers any path outside /v1/ so): ${wrongAddress}`
          : " A proxy or gateway in front of the controller answered; nothing can be concluded from it about the Target.";
    this.message = `${method} ${url}: ${status}, and not an answer from Boundary's API (content-type ${contentType ?? "none"}, ${body}).${hint}`;
  }
}

/** The response did not have the shape of the API contract: a schema failure, not a transport one. */
export class SchemaValidationError extends BoundaryClientError {
  static override readonly code = "BOUNDARY_SCHEMA_MISMATCH";
  /** The answer to `method path` broke the contract: each issue names the path in the body and what was wrong. */
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
  /**
   * False only when the request provably never reached the controller, or was refused unprocessed
   * (a refused connection, a wait abandoned before sending, a rate limiter's refusal): then a create
   * cannot have made anything. True whenever the controller may have applied it.
   */
  readonly maybeApplied: boolean;
  /** `method path` got no answer; `maybeApplied` (default true) is false only when it provably changed nothing. */
  constructor(
    readonly method: string,
    readonly path: string,
    message: string,
    options?: { cause?: unknown; maybeApplied?: boolean },
  ) {
    super(`${method} ${path}: ${message}`, options);
    this.maybeApplied = options?.maybeApplied ?? true;
  }
}

/** No answer within the client timeout (`BOUNDARY_CLIENT_TIMEOUT`). */
export class TimeoutError extends TransportError {
  static override readonly code: string = "BOUNDARY_TIMEOUT";
}

/**
 * The operation's deadline (its `customTimeouts`, or the default) passed while waiting for an
 * answer, or a wait it needed (rate-limit pacing, Retry-After) would have passed it: the message
 * names what it waited for and the deadline.
 */
export class DeadlineError extends TimeoutError {
  static override readonly code = "BOUNDARY_DEADLINE";
}

/** The engine cancelled the operation (Ctrl-C: `Cancel`) while the request was in flight or waiting. */
export class CancelledError extends TransportError {
  static override readonly code = "BOUNDARY_CANCELLED";
}

/** Picks the error class for an error status and Boundary's own error body (kind, message, fields). */
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
  const Kind = conflict
    ? VersionConflictError
    : status === 404 && kind === "NotFound"
      ? NotFoundError
      : status === 401
        ? UnauthenticatedError
        : BoundaryApiError;
  return new Kind(method, path, status, kind, message, fields, headers);
}

/**
 * A list action answered success, but its answer shows the lists not as asked: the controller
 * dropped ids (v0.4.0 attaches nothing for an unknown credential library, and answers 200) or kept
 * ones a remove named. `target` is the answer: what the controller holds. Nothing is retried.
 */
export class ListNotAppliedError extends BoundaryClientError {
  static override readonly code = "BOUNDARY_LIST_NOT_APPLIED";
  /** `what` (the action and the Target) was answered with `target`, whose lists differ as `details` says. */
  constructor(
    what: string,
    details: string,
    /** The Target the action answered with: what the controller holds now. */
    readonly target: Target,
  ) {
    super(
      `${what} answered success, but ${details}. Check that each id exists and belongs to the Target's project ` +
        // observed on the oldest release (v0.4.0); every release's set selects only the ids it finds
        `(Boundary ${OLDEST.release} attaches nothing for a credential library it does not know, without an error)`,
    );
  }
}
