/**
 * Executes a plan (`plan.ts`) against the API, threading the `version` of each response into the
 * next call. When a call fails, the error carries the last Target the controller returned, so the
 * caller can record exactly what exists.
 */
import { PulumiBoundaryError } from "../../common/errors";
import type { Target } from "../../wire/target";
import { spec } from "../../wire/target-fields";
import type { BoundaryClient } from "../client";
import { describeCall, type Call } from "./plan";

/** A call of a plan failed; `cause` is the client's error, `last` what the controller holds now. */
export class PlanError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_PLAN_FAILED";
  constructor(
    override readonly cause: unknown,
    /** The last Target returned before the failure (undefined if the first call failed). */
    readonly last: Target | undefined,
    readonly failedCall: Call,
  ) {
    super(`${describeCall(failedCall)} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** Runs `calls` in order from `version`; returns the final Target, or undefined when there were none. */
export async function applyPlan(client: BoundaryClient, id: string, version: number, calls: readonly Call[]): Promise<Target | undefined> {
  let last: Target | undefined;
  for (const call of calls) {
    const v = last?.version ?? version;
    try {
      last =
        call.op === "update"
          ? await client.updateTarget(id, v, call.mask, call.fields)
          : await client.associate(id, "set", call.association, spec(call.field).wire, v, call.ids, call.siblings?.map((s) => ({ association: spec(s.field).association!, ids: s.ids })));
    } catch (err) {
      throw new PlanError(err, last, call);
    }
  }
  return last;
}
