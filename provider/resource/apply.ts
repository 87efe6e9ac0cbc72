/**
 * Executes a plan (`plan.ts`) against the API, threading the `version` of each response into the
 * next call. When a call fails, the error carries the last Target the controller returned, so the
 * caller can record exactly what exists.
 */
import type { Target } from "../../wire/target";
import type { BoundaryClient } from "../client";
import { ListNotAppliedError } from "../client/errors";
import { PlanError } from "./errors";
import { describeCall, type Call } from "./call";
import { wireCall } from "./plan";

/** Runs `calls` in order from `version`; returns the final Target, or undefined when there were none. */
export async function applyPlan(client: BoundaryClient, id: string, version: number, calls: readonly Call[]): Promise<Target | undefined> {
  let last: Target | undefined;
  for (const call of calls) {
    const v = last?.version ?? version;
    try {
      // the call as plan.ts renders it on the wire; a list action the client may send again through the other action after a 405
      last = await client.send(wireCall(call, id, v, client.releases));
    } catch (err) {
      // an action answered with lists not as asked: its answer is what the controller holds
      if (err instanceof ListNotAppliedError) last = err.target;
      throw new PlanError(err, last, call, describeCall(call));
    }
  }
  return last;
}
