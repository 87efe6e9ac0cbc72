/**
 * The controller's refusals as the import command words them, said once for its two readers (a
 * scope's list, `--live`'s reads): a refused token (401) is about BOUNDARY_TOKEN, a token that may
 * not do it (403) about its grants.
 */
import { BoundaryApiError, UnauthenticatedError, UnexpectedAnswerError } from "../client";
import { ImportInputError } from "./errors";

/** What the controller answered, quoted: `(the controller answered 403 PermissionDenied: …)`. */
export function said(err: BoundaryApiError): string {
  return `(the controller answered ${err.status} ${err.kind}: ${err.apiMessage})`;
}

/**
 * `err` as the setting it is about: 401 names BOUNDARY_TOKEN, 403 is `forbidden(said)` (what the
 * token may not do, and what to do); undefined for anything else (the caller words it or passes it on).
 */
export function refusal(err: unknown, forbidden: (said: string) => string): ImportInputError | undefined {
  if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError) return undefined;
  if (err instanceof UnauthenticatedError) return new ImportInputError(`BOUNDARY_TOKEN: ${err.message}`);
  if (err.status === 403) return new ImportInputError(forbidden(said(err)));
  return undefined;
}
