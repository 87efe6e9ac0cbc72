/**
 * THE provider's error catalogue: every error the provider side (the client, the resource, both
 * routes) throws, each with a fixed `code`, in the package's one hierarchy (`common/errors.ts`, so
 * `instanceof` holds across two loaded copies of the package), and `PROVIDER_ERRORS` listing them
 * with the HTTP statuses each stands for. The controller's errors, the rules it answers with, are
 * its own catalogue (`controller/`); nothing here is thrown by the controller.
 *
 * Client errors (`BoundaryClientError` and below) carry method and path and never the token; API
 * errors (`BoundaryApiError` and below) status, headers, Boundary's `kind`, message and request
 * fields. Resource errors say what exists on the controller and what the user can do.
 */
import { PulumiBoundaryError } from "../common/errors";
import type { RequestField, Target } from "../wire/target";
import type { Call } from "./resource/plan";

// ---- the client: settings, answers, transport ----

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

// ---- the resource: partial failures, create outcomes, inputs a release cannot take ----

/**
 * The Target exists but the operation did not finish: the engine must record it with this id and
 * these properties (a partial failure, `ErrorResourceInitFailed`) and show `reasons`. Each route's
 * adapter translates it; the dynamic one adds `__provider` to `properties`.
 */
export class ResourceInitError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_PARTIAL_FAILURE";
  /** The Target `id` exists with `properties`; `reasons` say what did not finish. */
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

/**
 * A create whose answer was lost, and the controller could not be asked afterwards whether the
 * Target was made: it may exist, unrecorded. The message names it and says how to adopt it.
 */
export class CreateOutcomeUnknownError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_CREATE_OUTCOME_UNKNOWN";
  /** The create of `targetName` in `scopeId` lost its answer (`lost`), and the lookup afterwards failed too (`lookup`). */
  constructor(
    readonly scopeId: string,
    readonly targetName: string,
    lost: Error,
    lookup: unknown,
  ) {
    const name = JSON.stringify(targetName);
    super(
      `creating target ${name} in ${scopeId}: the answer was lost (${lost.message}), and the controller could not be asked ` +
        `afterwards whether it was created (${lookup instanceof Error ? lookup.message : String(lookup)}). It may exist without being ` +
        `in the stack. Once the controller answers, look for it: GET /v1/targets?scope_id=${scopeId}&filter="/item/name" == ${name} ` +
        `(or \`boundary targets list -scope-id ${scopeId}\`). If it is there, adopt it with ` +
        `\`pulumi import boundary:index:Target <resource name> <its id>\` (plugin route), or delete it and run \`pulumi up\` again ` +
        "(dynamic route, which cannot import); if it is not, run `pulumi up` again.",
      { cause: lookup },
    );
  }
}

/** The ways out when a Target holds the name a create needs, for messages. */
function waysOut(id: string): string {
  return (
    `If ${id} should be managed by this stack, adopt it: \`pulumi import boundary:index:Target <resource name> ${id}\` ` +
    "(plugin route; the dynamic route cannot import). " +
    `Otherwise give this resource another name (or leave name unset, so Pulumi names it), or delete ${id} if nobody needs it; then run \`pulumi up\` again.`
  );
}

/**
 * A create whose answer was lost found a Target with its name that is not the one it made (other
 * fields, changed since, or made before this create was sent on the controller's clock): another
 * stack's or someone's. It is never adopted; the message names it, why, and the ways out.
 */
export class TargetNotAdoptedError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_TARGET_NOT_ADOPTED";
  /** After a lost answer (`lost`), `holder` holds the name but is not ours, for `reasons`. */
  constructor(
    readonly scopeId: string,
    readonly targetName: string,
    /** The id of the Target that holds the name. */
    readonly holder: string,
    readonly reasons: readonly string[],
    lost: Error,
  ) {
    super(
      `creating target ${JSON.stringify(targetName)} in ${scopeId}: the answer was lost (${lost.message}). A target of that name exists, ${holder}, ` +
        `but it is not the one this create made (${reasons.join("; ")}), so it is not adopted. ${waysOut(holder)}`,
      { cause: lost },
    );
  }
}

/**
 * A create whose answer was lost, after which the controller showed no Target of its name: the
 * POST was not applied. Nothing needs cleaning up.
 */
export class CreateNotAppliedError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_CREATE_NOT_APPLIED";
  /** After a lost answer (`lost`), the controller showed no Target named `targetName` in `scopeId`. */
  constructor(
    readonly scopeId: string,
    readonly targetName: string,
    lost: Error,
  ) {
    super(
      `creating target ${JSON.stringify(targetName)} in ${scopeId}: ${lost.message}. The controller, asked afterwards, holds no target of that name: ` +
        "it was not created, and nothing needs cleaning up. Run `pulumi up` again.",
      { cause: lost },
    );
  }
}

/**
 * Boundary refused a create because the name is taken in the project. When it is the Target this
 * resource replaces (`pulumi up --replace`, `replaceOnChanges`), Pulumi creates the replacement
 * first and the names clash: the message says how to avoid it.
 */
export class NameTakenError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_NAME_TAKEN";
  /** Boundary `refused` the create: the name is taken, by `holder` when the lookup found it. */
  constructor(
    readonly scopeId: string,
    readonly targetName: string,
    /** The Target holding the name, when the lookup found it. */
    readonly holder: string | undefined,
    refused: Error,
  ) {
    const by = holder ? ` (by ${holder})` : "";
    super(
      `creating target ${JSON.stringify(targetName)} in ${scopeId}: the name is already used in that project${by}: ${refused.message}. ` +
        "If it is the Target this resource replaces (`pulumi up --replace`, `replaceOnChanges`), " +
        "Pulumi creates the replacement before deleting it and the names clash: " +
        "set the resource option `deleteBeforeReplace: true`, or leave `name` unset so each replacement gets a name of its own (autonaming). " +
        (holder ? waysOut(holder) : ""),
      { cause: refused },
    );
  }
}

/**
 * A call of an update found the Target gone: it was deleted outside Pulumi. (Its id is `targetId`:
 * Pulumi's dynamic-provider host takes any error with an `id` for a partial failure.)
 */
export class TargetDeletedError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_TARGET_DELETED";
  /** The Target `targetId` was gone (`cause`, the NotFound) when an update called it. */
  constructor(
    readonly targetId: string,
    cause: Error,
  ) {
    super(
      `target ${targetId} was deleted outside Pulumi (${cause.message}). ` +
        "`pulumi refresh` drops it from the stack; the next `pulumi up` then creates it again.",
      { cause },
    );
  }
}

/**
 * The program sets inputs this controller's API generation cannot take (a field a v0.4 controller
 * would silently drop, a new legacy `workerFilter` a current one refuses). Raised before any call
 * that changes something; each reason names the field and what to do instead.
 */
export class UnsupportedInputError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_UNSUPPORTED_INPUT";
  /** `target` (its name, for messages) sets inputs the controller cannot take, each failure naming its property and why. */
  constructor(
    readonly target: string,
    readonly failures: readonly { property: string; reason: string }[],
  ) {
    super(`target ${target}: ${failures.map((f) => f.reason).join("; ")}`);
  }
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
        "(Boundary 0.4 attaches nothing for a credential library it does not know, without an error)",
    );
  }
}

/**
 * A call of a plan failed; `cause` is the client's error, `last` what the controller holds now
 * (the last Target returned before the failure), `failedCall` the call and `what` its description
 * (`updating name`, `setting host sets`).
 */
export class PlanError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_PLAN_FAILED";
  /** `cause` failed `failedCall`, described as `what`; `last` is undefined when the first call failed. */
  constructor(
    override readonly cause: unknown,
    /** The last Target returned before the failure (undefined if the first call failed). */
    readonly last: Target | undefined,
    readonly failedCall: Call,
    what: string,
  ) {
    super(`${what} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** One entry of the catalogue: a class and the HTTP statuses that become it. */
export interface ProviderErrorEntry {
  /** The class; its static `code` is the code every instance carries. */
  readonly error: { readonly code: string; readonly name: string; readonly prototype: PulumiBoundaryError };
  /**
   * The HTTP statuses the client turns into this class: a list, "any" (any error status, or any
   * answer that is not the API's), or none for an error that is no answer of the controller.
   */
  readonly statuses: readonly number[] | "any";
}

/** Every error the provider side throws, parents before children (see the module comment). */
export const PROVIDER_ERRORS: readonly ProviderErrorEntry[] = [
  { error: BoundaryClientError, statuses: [] },
  { error: ClientSettingsError, statuses: [] },
  { error: BoundaryApiError, statuses: "any" },
  { error: ActionNotRoutedError, statuses: [405] },
  // 409 Aborted (ours); real Boundary's 404 "incorrect version" on PATCH, 500 "0 rows updated" on the actions
  { error: VersionConflictError, statuses: [409, 404, 500] },
  { error: NotFoundError, statuses: [404] },
  { error: UnauthenticatedError, statuses: [401] },
  { error: UnexpectedAnswerError, statuses: "any" },
  { error: SchemaValidationError, statuses: [] },
  { error: TransportError, statuses: [] },
  { error: TimeoutError, statuses: [] },
  { error: DeadlineError, statuses: [] },
  { error: CancelledError, statuses: [] },
  { error: ResourceInitError, statuses: [] },
  { error: InvalidResourceDataError, statuses: [] },
  { error: CreateOutcomeUnknownError, statuses: [] },
  { error: TargetNotAdoptedError, statuses: [] },
  { error: CreateNotAppliedError, statuses: [] },
  { error: NameTakenError, statuses: [] },
  { error: TargetDeletedError, statuses: [] },
  { error: UnsupportedInputError, statuses: [] },
  { error: PlanError, statuses: [] },
  { error: ListNotAppliedError, statuses: [] },
];
