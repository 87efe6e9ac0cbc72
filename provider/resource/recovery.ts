/**
 * What a failed create proves, and whether a Target found afterwards is the one it made, as pure
 * decisions (the effects are in `core.ts`).
 *
 * A create answer that does not prove the Target was not made leaves its outcome unknown: the POST
 * may have been applied and only its answer lost (a gateway's 502 or 504, a 200 whose body breaks the
 * contract, a proxy's 503, a timeout after sending). It is never sent again (it could make a second
 * Target); the controller is asked instead, and a Target is adopted only when everything about it is
 * what this POST would have made: its fields equal what the POST asked for, it is still at version 1,
 * and it was made after the POST was sent, judged on the controller's clock (the `Date` of the
 * lookup's answer against the Target's `created_time`), never on ours.
 */
import { performance } from "node:perf_hooks";
import type { CreateTargetRequest, Target } from "../../wire/target";
import { INPUT_FIELDS, getPath, spec } from "../../wire/target-fields";
import { BoundaryApiError, BoundaryClientError, SchemaValidationError, TransportError, UnexpectedAnswerError } from "../client";
import { refusedUnprocessed } from "../client/retry";
import { sameValue } from "./plan";
import { stateFromTarget } from "./state";

/**
 * What a failed create proves: `refused` when the Target was certainly not made (nothing was sent,
 * Boundary answered with its own error body, a rate limiter refused it unprocessed, the route does
 * not exist, a 404 that is not Boundary's says nothing there serves the path); `unknown` for
 * everything else the client reports; `foreign` for an error that is not about the request at all
 * (a bug), which is passed on as it is.
 */
export function createOutcome(err: unknown): "refused" | "unknown" | "foreign" {
  if (err instanceof TransportError) return err.maybeApplied ? "unknown" : "refused";
  // a 404 that is not Boundary's: nothing at that address takes the POST (a wrong path in boundary:addr)
  if (err instanceof UnexpectedAnswerError) return err.status === 404 ? "refused" : "unknown";
  if (err instanceof SchemaValidationError) return "unknown";
  if (err instanceof BoundaryApiError) {
    if (err.kind !== "Unknown") return "refused"; // Boundary's own error body
    // an empty body: Boundary's 405 for a route it lacks, or its rate limiter's refusal
    const empty = err.apiMessage === `HTTP ${err.status}`;
    return empty && (err.status === 405 || refusedUnprocessed(err.status, err.headers["retry-after"], "")) ? "refused" : "unknown";
  }
  return err instanceof BoundaryClientError ? "unknown" : "foreign";
}

/** When, on the controller's clock (ms since the epoch), the Target our POST made can have been made. */
export interface CreationWindow {
  from: number;
  to: number;
}

/**
 * The window, from the lookup answer's `Date` (the controller's clock, whole seconds) and how long
 * passed on our monotonic clock between sending the POST and receiving that answer. The POST cannot
 * have been applied before `Date − elapsed` (the answer was made at least at `Date`, at most
 * `elapsed` after the POST left), nor after the answer (`Date` + its second). Undefined without a
 * `Date`: then when the Target was made cannot be told.
 */
export function creationWindow(
  controllerTime: number | undefined,
  sentAt: number | undefined,
  answeredAt: number = performance.now(),
): CreationWindow | undefined {
  if (controllerTime === undefined || sentAt === undefined) return undefined;
  return { from: controllerTime - Math.max(0, answeredAt - sentAt), to: controllerTime + 1000 };
}

/** Whether a Target found after a lost answer is ours, and if not, every reason why not. */
export type Verdict = { ours: true } | { ours: false; why: string[] };

/** Judges a Target named as ours against what our POST asked for and when it was sent (see the module comment). */
export function judgeCandidate(found: Target, asked: CreateTargetRequest, window: CreationWindow | undefined): Verdict {
  const why: string[] = [];
  const got = stateFromTarget(found, []);
  for (const f of INPUT_FIELDS) {
    const wanted = getPath(asked, spec(f).wire);
    if (wanted === undefined) continue;
    const have = got[f];
    // a controller may ignore the lists on create (Boundary does): none is what the POST made too
    if (spec(f).association && Array.isArray(have) && have.length === 0) continue;
    if (!sameValue(have, wanted)) why.push(`its ${f} is ${JSON.stringify(have ?? null)}, this create asked for ${JSON.stringify(wanted)}`);
  }
  if (found.version !== 1) why.push(`it has been changed since it was made (version ${found.version})`);
  const created = found.created_time === undefined ? NaN : Date.parse(found.created_time);
  if (!window) why.push("the controller's answers carry no Date header, so when it was made cannot be told on the controller's clock");
  else if (Number.isNaN(created)) why.push("its answer carries no created_time");
  else if (created < window.from)
    why.push(
      `it was made at ${found.created_time} on the controller's clock, ${Math.round((window.from - created) / 1000)} s or more before this create was sent`,
    );
  else if (created > window.to) why.push(`it was made at ${found.created_time} on the controller's clock, after the lookup`);
  return why.length === 0 ? { ours: true } : { ours: false, why };
}

/**
 * Did Boundary refuse a create because the name is taken in the scope? Ours names the field
 * ("A target named … already exists"); real Boundary answers a generic uniqueness message.
 */
export function isNameTaken(err: unknown): boolean {
  if (!(err instanceof BoundaryApiError) || err.status !== 400) return false;
  return err.requestFields.some((f) => f.name === "name" && /already exists/i.test(f.description)) || /must be unique/i.test(err.apiMessage);
}
