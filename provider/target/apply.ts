/**
 * Executes a plan (`plan.ts`) against the API, threading the `version` of each response into the
 * next call. When a call fails, the error carries the last Target the controller returned, so the
 * caller can record exactly what exists.
 */
import type { Target } from "../../wire/target";
import type { BoundaryClient } from "../client";
import type { Call } from "./plan";

export class PlanError extends Error {
  override readonly name = "PlanError";
  constructor(
    override readonly cause: unknown,
    /** The last Target returned before the failure (undefined if the first call failed). */
    readonly last: Target | undefined,
    readonly failedCall: Call,
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

/** Runs `calls` in order from `version`; returns the final Target, or undefined when there were none. */
export async function applyPlan(client: BoundaryClient, id: string, version: number, calls: readonly Call[]): Promise<Target | undefined> {
  let last: Target | undefined;
  for (const call of calls) {
    const v = last?.version ?? version;
    try {
      switch (call.op) {
        case "update":
          last = await client.updateTarget(id, v, call.mask, call.fields);
          break;
        case "set-host-sets":
          last = await client.setHostSets(id, v, call.ids);
          break;
        case "set-credential-libraries":
          last = await client.setCredentialLibraries(id, v, call.ids);
          break;
      }
    } catch (err) {
      throw new PlanError(err, last, call);
    }
  }
  return last;
}
