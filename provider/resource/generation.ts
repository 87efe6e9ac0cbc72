/**
 * Which inputs a controller of each API generation can take, as pure functions of (inputs, state,
 * generation). A v0.4 controller silently drops the fields later releases added, and a current one
 * refuses a new legacy `workerFilter`: both are refused here, naming the field and what to use
 * instead, before any call that would change something.
 */
import type { ApiGeneration } from "../client/settings";
import { INPUT_FIELDS, spec } from "../../wire/target-fields";
import { isSet, type CheckFailure, type TargetInputs } from "./inputs";
import type { TargetState } from "./state";

/** The inputs set a field whose fate depends on the generation: only then is it worth learning. */
export function needsGeneration(inputs: Partial<TargetInputs>): boolean {
  return INPUT_FIELDS.some((f) => (spec(f).since || spec(f).replacedBy) && isSet(inputs[f]));
}

/**
 * Why a controller of `generation` cannot apply these inputs, one failure per field; empty when it
 * can. `state` is the Target as last seen (undefined on create): a legacy value it already holds
 * may be kept and changed on a current controller.
 */
export function generationFailures(inputs: Partial<TargetInputs>, generation: ApiGeneration, state?: TargetState): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const f of INPUT_FIELDS) {
    const { since, replacedBy } = spec(f);
    if (!isSet(inputs[f])) continue;
    if (since && generation === "v0.4") {
      failures.push({ property: f, reason: `${f} needs Boundary ${since} or later, but this controller speaks the v0.4 API (Boundary 0.4–0.10), which would silently drop it: remove ${f} or upgrade the controller` });
    }
    if (replacedBy && generation === "current" && !isSet(state?.[f])) {
      failures.push({
        property: f,
        reason: `${f} was replaced by ${replacedBy.field} in Boundary ${replacedBy.since}, and this controller refuses a new ${f}: use ${replacedBy.field} instead`,
      });
    }
  }
  return failures;
}

/** The generation a Target's recorded `authorizedActions` show, if they show one (state written by a read or a change). */
export function generationOf(state: Pick<TargetState, "authorizedActions"> | undefined): ApiGeneration | undefined {
  const actions = state?.authorizedActions ?? [];
  return actions.includes("set-host-sources") ? "current" : actions.includes("set-host-sets") ? "v0.4" : undefined;
}
