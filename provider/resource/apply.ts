/**
 * Executes a plan (`plan.ts`) against the API, threading the `version` of each response into the
 * next call. When a call fails, the error carries the last Target the controller returned, so the
 * caller can record exactly what exists.
 */
import type { Target } from "../../wire/target";
import type { BoundaryClient } from "../client";
import { ListNotAppliedError, PlanError } from "../errors";
import { describeCall, listsOf, wireCall, type Call } from "./plan";

/** Runs `calls` in order from `version`; returns the final Target, or undefined when there were none. */
export async function applyPlan(client: BoundaryClient, id: string, version: number, calls: readonly Call[]): Promise<Target | undefined> {
  let last: Target | undefined;
  for (const call of calls) {
    const v = last?.version ?? version;
    try {
      // the update as plan.ts names it on the wire; a list through the client, which may learn from a 405 and send it through the other action
      last = call.op === "update" ? await client.send(wireCall(call, id, v, client.releases)) : await client.associate(id, "set", v, listsOf(call));
    } catch (err) {
      // an action answered with lists not as asked: its answer is what the controller holds
      if (err instanceof ListNotAppliedError) last = err.target;
      throw new PlanError(err, last, call, describeCall(call));
    }
  }
  return last;
}
