/**
 * Updating a Target, with its effects in order: the run's planned calls, threading `version`. When
 * a call fails, a fresh read tells what happened: a version conflict (the Target changed outside
 * Pulumi) replays this run's planned changes, and only those, once from the current version; a
 * Target gone says so; any other failure after some calls succeeded is a ResourceInitError holding
 * what the controller now has.
 */
import type { Target } from "../../wire/target";
import { INPUT_FIELDS, type InputField } from "../../wire/target-fields";
import { BoundaryApiError, NotFoundError, VersionConflictError, type BoundaryClient } from "../client";
import { applyPlan } from "./apply";
import { changedAgain, PlanError, ResourceInitError, TargetDeletedError } from "./errors";
import { droppedFields } from "./generation";
import type { TargetInputs } from "./inputs";
import { callsFor, replayChanges, sameValue, type Change } from "./plan";
import { managedFields, stateAfterChange, stateFromTarget, type TargetState } from "./state";

/**
 * Brings the Target `id` from `state` to `inputs` by the `planned` changes (already refused when
 * no release takes them or one replaces). Returns the new state; see the module comment for failures.
 */
export async function updateTarget(
  client: BoundaryClient,
  id: string,
  state: TargetState,
  inputs: TargetInputs,
  planned: readonly Change[],
  warn: (m: string) => void,
): Promise<TargetState> {
  const managed = managedFields(inputs);
  let last: Target | undefined;
  try {
    last = await applyPlan(client, id, state.version, callsFor(state, planned));
  } catch (err) {
    if (!(err instanceof PlanError)) throw err;
    const seen = await afterFailure(client, id, err, err.last?.version ?? state.version);
    if (seen.kind === "deleted") throw new TargetDeletedError(id, seen.cause);
    if (seen.kind === "failed") throw partial(id, err, managed, state);
    last = await replay(client, id, err.last ? stateFromTarget(err.last, state.__managed) : state, seen.current, planned, managed, warn);
  }
  const updated = last ? stateAfterChange(last, state, managed) : { ...state, __managed: managed };
  const dropped = droppedFields(inputs, updated);
  if (dropped.length > 0) throw new ResourceInitError(id, updated, [`updating target ${id}: ${dropped.map((d) => d.reason).join("; ")}`]);
  return updated;
}

/**
 * Why a call of an update failed. A recognised conflict is one. A NotFound, or the plain 500
 * current Boundary answers a stale version with on its actions ("Failed to set target host
 * sources"), is judged by a fresh read: gone (deleted outside Pulumi), a moved version (a
 * conflict), or else a real failure, reported as it is.
 */
async function afterFailure(
  client: BoundaryClient,
  id: string,
  err: PlanError,
  sent: number,
): Promise<{ kind: "conflict"; current?: Target } | { kind: "deleted"; cause: Error } | { kind: "failed" }> {
  if (err.cause instanceof VersionConflictError) return { kind: "conflict" };
  const ambiguous = err.cause instanceof NotFoundError || (err.failedCall.op === "set" && err.cause instanceof BoundaryApiError && err.cause.status === 500);
  if (!ambiguous) return { kind: "failed" };
  try {
    const current = await client.getTarget(id);
    return current.version !== sent && !(err.cause instanceof NotFoundError) ? { kind: "conflict", current } : { kind: "failed" };
  } catch (e) {
    return e instanceof NotFoundError ? { kind: "deleted", cause: err.cause as Error } : { kind: "failed" };
  }
}

/**
 * The Target changed outside Pulumi since it was last read (its version moved). Re-read it, say
 * which fields changed, and replay this run's planned changes, and only those, once from the
 * current version: what changed outside (another stack's change, an attach someone made, a field
 * the engine ignores) stays as the controller holds it.
 */
async function replay(
  client: BoundaryClient,
  id: string,
  known: TargetState,
  read: Target | undefined,
  planned: readonly Change[],
  managed: InputField[],
  warn: (m: string) => void,
): Promise<Target> {
  let current = read;
  try {
    current ??= await client.getTarget(id);
  } catch (err) {
    if (err instanceof NotFoundError) throw new TargetDeletedError(id, err);
    throw err;
  }
  const fresh = stateFromTarget(current, known.__managed);
  const outside = INPUT_FIELDS.filter((f) => !sameValue(known[f], fresh[f]));
  warn(
    `target ${id} was changed outside Pulumi (version ${known.version} → ${fresh.version}` +
      `${outside.length ? `; changed: ${outside.join(", ")}` : ""}); retrying once from the current version.`,
  );
  try {
    return (await applyPlan(client, id, fresh.version, callsFor(fresh, replayChanges(fresh, planned)))) ?? current;
  } catch (err) {
    if (err instanceof PlanError && err.cause instanceof NotFoundError) throw new TargetDeletedError(id, err.cause);
    // the one replay met a conflict too: someone else keeps writing; recorded as the controller holds it
    if (err instanceof PlanError && err.cause instanceof VersionConflictError)
      throw new ResourceInitError(id, stateAfterChange(err.last ?? current, known, managed), [changedAgain(id, fresh.version, err)]);
    throw partial(id, err, managed, known);
  }
}

/** A failure after some calls succeeded is recorded as what the controller now holds (the aliases of `before` when the answer has none). */
function partial(id: string, err: unknown, managed: InputField[], before: TargetState): unknown {
  if (!(err instanceof PlanError)) return err;
  if (!err.last) return err.cause;
  return new ResourceInitError(id, stateAfterChange(err.last, before, managed), [`updating target ${id}: ${err.message}`]);
}
