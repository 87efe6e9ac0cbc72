/**
 * Which inputs a controller of each API generation can take, as pure functions of (inputs, state,
 * generation). A v0.4 controller silently drops the fields later releases added (so do 0.7.3–0.10,
 * as a Target's recorded actions show), and a current one refuses a new legacy `workerFilter`: these
 * are refused here, naming the field and what to use instead, before any call that would change
 * something. What slips past (a release the actions do not tell) the answer check catches.
 */
import type { ApiGeneration } from "../client/settings";
import { hasAnyIdPrefix, hasIdPrefix, oneOf } from "../../common/rules";
import { INPUT_FIELDS, spec, type InputField } from "../../wire/target-fields";
import { isSet, type CheckFailure, type TargetInputs } from "./inputs";
import type { TargetState } from "./state";

/** The inputs set a field whose fate depends on the generation: only then is it worth learning. */
export function needsGeneration(inputs: Partial<TargetInputs>): boolean {
  return INPUT_FIELDS.some((f) => ((spec(f).since || spec(f).replacedBy) && isSet(inputs[f])) || newerIds(f, inputs).length > 0 || newerValue(f, inputs) !== undefined);
}

/** The release that added the value a program gives an enum field, when a later one did (`type: "ssh"`). */
function newerValue(f: InputField, inputs: Partial<TargetInputs>): string | undefined {
  const v = inputs[f];
  return typeof v === "string" ? spec(f).valuesSince?.[v] : undefined;
}

/** Ids in a list whose kind only current controllers have (`hsplg_…`, `credup_…`). */
function newerIds(f: InputField, inputs: Partial<TargetInputs>): string[] {
  const a = spec(f).association;
  const ids = inputs[f];
  // a list v0.4 does not have at all is refused as a field (its `since`), not id by id
  // (ids of no kind at all are check's to name)
  return a?.prefix && Array.isArray(ids) ? ids.filter((id) => typeof id === "string" && hasAnyIdPrefix(id, a.current.prefixes) && !hasIdPrefix(id, a.prefix!)) : [];
}

/**
 * Why a controller of `generation` cannot apply these inputs, one failure per field; empty when it
 * can. `state` is the Target as last seen (undefined on create): a legacy value it already holds
 * may be kept and changed on a current controller; what a release requires must be set on create
 * and stay set.
 */
export function generationFailures(inputs: Partial<TargetInputs>, generation: ApiGeneration, state?: TargetState): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const ceiling = generation === "current" ? newestRelease(state) : undefined;
  for (const f of INPUT_FIELDS) {
    const { since, replacedBy, requiredSince } = spec(f);
    // on create, or when the program stops setting it (which would clear it)
    if (requiredSince && generation === "current" && !isSet(inputs[f]) && (!state || state.__managed.includes(f))) {
      failures.push({ property: f, reason: `${f} is required by Boundary ${requiredSince} and later, which this controller is: ${state ? "keep" : "set"} it` });
    }
    if (!isSet(inputs[f])) continue;
    const release = generation === "v0.4" ? newerValue(f, inputs) : undefined;
    if (release) {
      failures.push({ property: f, reason: `${f} ${JSON.stringify(inputs[f])} needs Boundary ${release} or later, but this controller speaks the v0.4 API: use ${JSON.stringify(spec(f).default)}` });
    }
    const newer = generation === "v0.4" ? newerIds(f, inputs) : [];
    if (newer.length > 0) {
      const a = spec(f).association!;
      failures.push({
        property: f,
        reason: `${f}: ${newer.join(", ")} ${newer.length === 1 ? "is a kind" : "are kinds"} of source only current controllers take (${oneOf(a.current.prefixes)}), but this controller speaks the v0.4 API, which takes ${a.prefix}… only`,
      });
    }
    if (since && generation === "v0.4") {
      failures.push({ property: f, reason: `${f} needs Boundary ${since} or later, but this controller speaks the v0.4 API, which would silently drop it: remove ${f} or upgrade the controller` });
    }
    if (since && ceiling && isLater(since, ceiling)) {
      failures.push({
        property: f,
        reason:
          `${f} needs Boundary ${since} or later, but this controller is ${ceiling} or older (the Target's authorized actions, as last read, still name set-host-sets), ` +
          `which would silently drop it: remove ${f} or upgrade the controller (if it was upgraded since, \`pulumi refresh\` reads the Target again)`,
      });
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

/**
 * The newer fields the program set that the controller's answer does not hold. A release older
 * than a field discards it without an error; releases 0.5–0.11 have the current actions, so the
 * probe takes them for current ones, and recorded actions tell only 0.7.3–0.10, once a Target has
 * been read: the answer always tells. One failure per field, naming the release that added it.
 */
export function droppedFields(inputs: Partial<TargetInputs>, state: TargetState): CheckFailure[] {
  return INPUT_FIELDS.filter((f) => spec(f).since && isSet(inputs[f]) && !isSet(state[f])).map((f) => ({
    property: f,
    reason: `${f} was not kept: the controller took it without an error but does not know it (Boundary ${spec(f).since} added it); remove ${f} or upgrade the controller`,
  }));
}

/**
 * The newest release a controller of the current API can be, when the Target's recorded actions
 * tell: 0.7.3–0.10 name both `set-host-sets` and `set-host-sources`, 0.11 and later only the
 * latter. Undefined when they do not tell.
 */
function newestRelease(state: Pick<TargetState, "authorizedActions"> | undefined): string | undefined {
  const actions = state?.authorizedActions ?? [];
  return actions.includes("set-host-sets") && actions.includes("set-host-sources") ? "0.10" : undefined;
}

/** `a` is a later release than every `b`.x (`"0.12.0"` after `"0.10"`). */
function isLater(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < y!.length; i++) if (x![i] !== y![i]) return (x![i] ?? 0) > y![i]!;
  return false;
}

/** The generation a Target's recorded `authorizedActions` show, if they show one (state written by a read or a change). */
export function generationOf(state: Pick<TargetState, "authorizedActions"> | undefined): ApiGeneration | undefined {
  const actions = state?.authorizedActions ?? [];
  return actions.includes("set-host-sources") ? "current" : actions.includes("set-host-sets") ? "v0.4" : undefined;
}
