/**
 * Which inputs the controller can take, as pure functions of (inputs, state, the releases it may
 * be), all read from the release table (`wire/releases.ts`). What no release it may be takes is
 * refused here, naming the field, the release that brought it and what to use instead, before any
 * call that would change something: a field those releases would silently drop, an id of a kind
 * they do not take, an enum value they lack, a description holding a new line before 0.17, a new
 * value of a field they replaced. What some of them take is sent, and the answer check
 * (`droppedFields`) catches a release that dropped it.
 */
import { descriptionProblem, hasAnyIdPrefix, oneOf } from "../../common/rules";
import {
  BOUNDARY_RELEASES,
  RELEASES,
  anyReleasePrefixes,
  describeReleases,
  fieldSince,
  firstReleaseWhere,
  knows,
  listIn,
  releasesWithActions,
  replacedSince,
  replacement,
  requiredSince,
  requires,
  takesValue,
  valueSince,
  type Release,
} from "../../wire/releases";
import { INPUT_FIELDS, spec, type InputField } from "../../wire/target-fields";
import { isSet, type CheckFailure, type TargetInputs } from "./inputs";
import type { TargetState } from "./state";

/** The ids of a list the release takes none of (a kind it does not have). */
function idsRefused(r: Release, f: InputField, ids: unknown): string[] {
  const list = listIn(r, f);
  if (!list || !Array.isArray(ids)) return [];
  return ids.filter((id): id is string => typeof id === "string" && hasAnyIdPrefix(id, anyReleasePrefixes(f)) && !hasAnyIdPrefix(id, list.prefixes));
}

/** The first release that takes this description, or undefined when none does. */
const descriptionSince = (v: string) => firstReleaseWhere((r) => !descriptionProblem(v, r.descriptions));

/**
 * What a release cannot take of one input, if anything (the reason's core, without the field's name).
 * It reads of the release only what `factsFor` names: keep the two together (exported for the test that holds them so).
 */
export function refusal(r: Release, f: InputField, inputs: Partial<TargetInputs>, state: TargetState | undefined): string | undefined {
  const v = inputs[f];
  if (!isSet(v)) return requires(r, f) && (!state || state.__managed.includes(f)) ? "required" : undefined;
  if (!knows(r, f)) return "unknown";
  if (typeof v === "string" && spec(f).values && !takesValue(r, f, v)) return "value";
  if (idsRefused(r, f, v).length > 0) return "ids";
  // a description no release takes is the field's own rule's to name (checkInputs), not the release's
  if (f === "description" && typeof v === "string" && descriptionProblem(v, r.descriptions) && descriptionSince(v)) return "description";
  if (replacement(r, f) && !isSet(state?.[f])) return "replaced";
  return undefined;
}

/** The inputs set something whose fate depends on the release: only then is the controller's release worth learning. */
export function needsGeneration(inputs: Partial<TargetInputs>): boolean {
  return INPUT_FIELDS.some((f) => isSet(inputs[f]) && sameRefusal(BOUNDARY_RELEASES, f, inputs, undefined) === false);
}

/**
 * Whether every one of `releases` gives the same verdict on field `f` (the verdict, or `false`
 * when they differ): stops at the first that differs, where a set of every verdict would ask them all.
 */
function sameRefusal(releases: readonly Release[], f: InputField, inputs: Partial<TargetInputs>, state: TargetState | undefined): string | undefined | false {
  return sameRefusalOf(kindsOf(releases, f), f, inputs, state);
}

/** `sameRefusal` over the kinds of releases `kindsOf` found for `f`. */
function sameRefusalOf(kinds: Kinds, f: InputField, inputs: Partial<TargetInputs>, state: TargetState | undefined): string | undefined | false {
  // an unset input (most fields of most Targets) is refused only as "required": `refusal`'s first
  // line, with `requires` of each kind read once (`required`)
  if (!isSet(inputs[f])) {
    if (kinds.required === "none") return undefined;
    const managed = !state || state.__managed.includes(f);
    if (kinds.required === "all") return managed ? "required" : undefined;
    return managed ? false : undefined;
  }
  // releases holding the same facts of the field give the same verdict: one of each kind is asked
  const first = kinds.length === 0 ? undefined : refusal(kinds[0]!, f, inputs, state);
  for (let i = 1; i < kinds.length; i++) if (refusal(kinds[i]!, f, inputs, state) !== first) return false;
  return first;
}

/**
 * What `refusal` reads of release `r` for field `f`, as one key: two releases with the same key
 * give every input and state the same verdict on `f`. Found once per release and field.
 */
function factsFor(r: Release, f: InputField): string {
  let byField = FACTS.get(r);
  if (!byField) FACTS.set(r, (byField = new Map()));
  let key = byField.get(f);
  if (key === undefined) {
    const values = r.values.filter((v) => v.field === f).map((v) => v.value);
    key = JSON.stringify([
      knows(r, f),
      requires(r, f),
      replacement(r, f) ?? null,
      listIn(r, f)?.prefixes ?? null,
      values,
      f === "description" ? r.descriptions : null,
    ]);
    byField.set(f, key);
  }
  return key;
}
const FACTS = new WeakMap<Release, Map<InputField, string>>();

/**
 * The first release of each kind among `releases` for field `f` (releases of one kind hold the
 * same `factsFor`), in their order. A verdict is asked on every check, diff, create and update, of
 * every field, against releases that mostly agree (19 rows, a handful of kinds per field): the
 * kinds are found once per list of releases, known by the releases' names (the steps narrow the
 * releases anew, by the Target's recorded actions or none, into lists equal but not the same).
 */
function kindsOf(releases: readonly Release[], f: InputField): Kinds {
  return kindsIn(kindsTable(releases), releases, f);
}

/** The kinds of releases for one field, and whether `requires` holds for none, all or some of them (read once, for unset inputs). */
type Kinds = readonly Release[] & { readonly required: "none" | "all" | "some" };
/** `kindsOf`'s answers for one list of releases, by field. */
type KindsTable = Map<InputField, Kinds>;

/** The kinds found for the list `releases`, by field (`kindsOf`): looked up once per verdict over every field. */
function kindsTable(releases: readonly Release[]): KindsTable {
  let byField = KINDS.get(releases);
  if (!byField) {
    const names = releases.map((r) => r.release).join(" ");
    const known = KINDS_BY_NAMES.get(names);
    // the same rows, not rows of the same names (a test may make its own)
    if (known && known.releases.length === releases.length && known.releases.every((r, i) => r === releases[i])) byField = known.byField;
    else {
      // as many lists as the table has runs of releases at most, in practice a few: the oldest let go past a bound all the same
      if (KINDS_BY_NAMES.size >= 256) KINDS_BY_NAMES.delete(KINDS_BY_NAMES.keys().next().value!);
      KINDS_BY_NAMES.set(names, { releases: [...releases], byField: (byField = new Map()) });
    }
    KINDS.set(releases, byField);
  }
  return byField;
}

/** The kinds of `releases` (whose table is `byField`) for field `f`, found at the first ask. */
function kindsIn(byField: KindsTable, releases: readonly Release[], f: InputField): Kinds {
  let kinds = byField.get(f);
  if (!kinds) {
    const first = new Map<string, Release>();
    for (const r of releases) {
      const key = factsFor(r, f);
      if (!first.has(key)) first.set(key, r);
    }
    const found = [...first.values()];
    const requiring = found.filter((r) => requires(r, f)).length;
    kinds = Object.assign(found, { required: requiring === 0 ? "none" : requiring === found.length ? "all" : "some" } as const);
    byField.set(f, kinds);
  }
  return kinds;
}
const KINDS = new WeakMap<readonly Release[], KindsTable>();
const KINDS_BY_NAMES = new Map<string, { releases: readonly Release[]; byField: KindsTable }>();

/**
 * Why a controller that is one of `releases` cannot apply these inputs, one failure per field;
 * empty when it can. A failure needs every release it may be to refuse the input (when only some
 * do, the input is sent and the answer tells). `state` is the Target as last seen (undefined on
 * create): a replaced field's value it already holds may be kept and changed; what a release
 * requires must be set on create and stay set. `stateless` (check, which has no state) leaves
 * those two out.
 */
export function generationFailures(
  inputs: Partial<TargetInputs>,
  releases: readonly Release[],
  state?: TargetState,
  options: { stateless?: boolean } = {},
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  // the releases' name is for the messages only: worded when there is one (this runs on every check, diff, create and update)
  let those: string | undefined;
  const byField = kindsTable(releases);
  // by index, not for…of: on every check, diff, create and update, mostly before V8 optimises it
  for (let i = 0; i < INPUT_FIELDS.length; i++) {
    const f = INPUT_FIELDS[i]!;
    const reason = sameRefusalOf(kindsIn(byField, releases, f), f, inputs, state);
    if (reason === false || reason === undefined) continue;
    // without the state (check), what depends on it cannot be judged: a required field it holds, a replaced one it keeps
    if (options.stateless && (reason === "required" || reason === "replaced")) continue;
    those ??= describeReleases(releases.map((r) => r.release));
    failures.push({ property: f, reason: explain(f, reason, inputs, releases, state, those) });
  }
  return failures;
}

/** A refusal worded for a Pulumi user: the field, the release that changed it, what to do. */
function explain(
  f: InputField,
  reason: string,
  inputs: Partial<TargetInputs>,
  releases: readonly Release[],
  state: TargetState | undefined,
  those: string,
): string {
  const v = inputs[f];
  switch (reason) {
    case "required":
      return `${f} is required by Boundary ${requiredSince(f)} and later, which this controller is (${those}): ${state ? "keep" : "set"} it`;
    case "unknown":
      return (
        `${f} needs Boundary ${fieldSince(f)} or later, but this controller is ${those}, which would silently drop it: ` +
        `remove ${f} or upgrade the controller (if it was upgraded since, \`pulumi refresh\` reads the Target again)`
      );
    case "value":
      return (
        `${f} ${JSON.stringify(v)} needs Boundary ${valueSince(f, v as string)} or later, ` +
        `but this controller is ${those}: use ${JSON.stringify(spec(f).default)}`
      );
    case "ids": {
      const refused = [...new Set(releases.flatMap((r) => idsRefused(r, f, v)))];
      const takes = [...new Set(releases.flatMap((r) => listIn(r, f)?.prefixes ?? []))];
      const kinds = `${refused.join(", ")} ${refused.length === 1 ? "is a kind" : "are kinds"}`;
      return `${f}: ${kinds} of source this controller (${those}) does not take: it takes ${oneOf(takes.map((p) => `${p}…`))}`;
    }
    case "description": {
      const since = descriptionSince(v as string)!.release;
      return `${f} holds a new line, a tab or another space that only Boundary ${since} and later take, but this controller is ${those}: keep it on one line`;
    }
    default: {
      const replaced = replacedSince(f)!;
      return `${f} was replaced by ${replaced.by} in Boundary ${replaced.since}, and this controller (${those}) refuses a new ${f}: use ${replaced.by} instead`;
    }
  }
}

/**
 * The fields the program set that the controller's answer does not hold. A release older than a
 * field discards it without an error, and only the answer always tells. One failure per field,
 * naming the release that added it.
 */
export function droppedFields(inputs: Partial<TargetInputs>, state: TargetState): CheckFailure[] {
  // on every create and update: the fields a release added found once, walked by index, no closure
  const fields = (addedFields ??= INPUT_FIELDS.filter((f) => fieldSince(f) !== undefined));
  const out: CheckFailure[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (!isSet(inputs[f]) || isSet(state[f])) continue;
    out.push({
      property: f,
      reason:
        `${f} was not kept: the controller took it without an error but does not know it ` +
        `(Boundary ${fieldSince(f)} added it); remove ${f} or upgrade the controller`,
    });
  }
  return out;
}
/** The input fields some release added (`fieldSince`): the only ones an older release can drop. */
let addedFields: readonly InputField[] | undefined;

/** The releases a Target's recorded `authorizedActions` allow (state written by a read or a change): those having every one of them. */
export function releasesOf(state: Pick<TargetState, "authorizedActions"> | undefined, among: readonly Release[] = RELEASES): readonly Release[] {
  const actions = state?.authorizedActions ?? [];
  // no recorded action (check, create, a state without them) rules out no release: the list itself,
  // and the kept answer below stays the Targets' (a step without state between two with it, as
  // check before diff and update, used to replace it every time)
  if (actions.length === 0) return among;
  // every Target of a stack usually records the same actions, read on each step: the last answer is kept per list of releases
  const last = RECORDED.get(among);
  // one step asks several times of the same state: the same list is known without comparing it
  if (last && (last.source === actions || sameStrings(last.actions, actions))) {
    last.source = actions;
    return last.releases;
  }
  const releases = Object.freeze(releasesWithActions(actions, among));
  RECORDED.set(among, { actions: [...actions], source: actions, releases });
  return releases;
}
/**
 * `releasesOf`'s last answer per list of releases (the client's knowledge replaces its list when it
 * learns: the old one is let go): a copy of the actions, the list last asked with (the state's own,
 * which this module never changes), and the releases.
 */
const RECORDED = new WeakMap<readonly Release[], { actions: readonly string[]; source: readonly string[]; releases: readonly Release[] }>();

/** Two lists of the same strings in the same order. */
function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
