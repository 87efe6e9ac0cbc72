/**
 * Executes a plan (`plan.ts`) against the API, threading the `version` of each response into the
 * next call. When a call fails, the error carries the last Target the controller returned, so the
 * caller can record exactly what exists.
 */
import type { Target } from "../../wire/target";
import { spec } from "../../wire/target-fields";
import type { BoundaryClient } from "../client";
import { PlanError } from "../errors";
import { describeCall, type Call } from "./plan";

/** Runs `calls` in order from `version`; returns the final Target, or undefined when there were none. */
export async function applyPlan(client: BoundaryClient, id: string, version: number, calls: readonly Call[]): Promise<Target | undefined> {
  let last: Target | undefined;
  for (const call of calls) {
    const v = last?.version ?? version;
    try {
      last =
        call.op === "update"
          ? await client.updateTarget(id, v, call.mask, call.fields)
          : await client.associate(
              id,
              "set",
              call.association,
              spec(call.field).wire,
              v,
              call.ids,
              call.siblings?.map((s) => ({ association: spec(s.field).association!, ids: s.ids })),
            );
    } catch (err) {
      throw new PlanError(err, last, call, describeCall(call));
    }
  }
  return last;
}
