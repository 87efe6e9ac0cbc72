/**
 * Boundary's releases, resolved from the table (`release-rows.ts`: a row per minor release 0.4 …
 * 0.21, and `spec`), and the questions the controller, the provider and the tests ask of them.
 * Everything that differs between releases is read here, so no other module needs to test which
 * release it is talking to or emulating.
 */
import {
  LIST_FIELDS,
  TARGET_FIELDS,
  associationOf,
  spec,
  type AssociationOp,
  type InputField,
  type ListField,
  type ListKind,
  type ListNoun,
} from "./target-fields";
import { VIEW_ONLY_KEYS } from "./target";
import type { ListFacts, ReleaseFacts, ReleaseRow } from "./release-facts";
import { ROWS, SPEC, V04 } from "./release-rows";
import { InternalError, UnknownReleaseError } from "../common/errors";
import type { ReleaseKey } from "./release-keys";

export type * from "./release-facts";

/** A later row over the previous release: the facts it states replace, the ones it adds accumulate. */
function fold(previous: ReleaseFacts, row: ReleaseRow): ReleaseFacts {
  const { adds, requires, replaces, lists, actionErrors, authorizeSession, ports, authenticate, ...facts } = row;
  return {
    ...previous,
    withinMinor: undefined,
    withinMinorDefaults: undefined,
    ...facts,
    lists: { ...previous.lists, ...lists },
    fields: [...previous.fields, ...(adds?.fields ?? [])],
    values: [...previous.values, ...(adds?.values ?? [])],
    requires: [...previous.requires, ...(requires ?? [])],
    replaces: [...previous.replaces, ...(replaces ?? [])],
    authorizeSession: { ...previous.authorizeSession, ...authorizeSession },
    ports: { ...previous.ports, ...ports },
    authenticate: { ...previous.authenticate, ...authenticate },
    actionErrors: {
      ...previous.actionErrors,
      ...actionErrors,
      handler: { ...previous.actionErrors.handler, ...actionErrors?.handler },
    },
  };
}

const FOLDED: ReleaseFacts[] = ROWS.reduce<ReleaseFacts[]>((all, row) => [...all, fold(all[all.length - 1]!, row)], [V04]);

// the keys, read from the rows in the same order as RELEASES (release-keys.ts: light, for command lines)
export { RELEASE_KEYS, type ReleaseKey } from "./release-keys";

/** Every release, oldest first, `spec` first of all (it is the default). */
export const RELEASES: readonly Release[] = [SPEC, ...FOLDED].map((f) => Object.freeze({ ...f, generation: generationOf(f) }) as Release);

/** The API generations, by their action names: v0.4's (host sets, credential libraries) and the current ones (host sources, credential sources). */
export const API_GENERATIONS = ["v0.4", "current"] as const;
/** An API generation: `v0.4` or `current`. */
export type ApiGeneration = (typeof API_GENERATIONS)[number];
/** True for the name of an API generation. */
export function isApiGeneration(name: string): name is ApiGeneration {
  return (API_GENERATIONS as readonly string[]).includes(name);
}

/** A resolved row: every fact of the release, and the API generation its action names belong to. */
export type Release = ReleaseFacts & {
  release: ReleaseKey;
  /** `current` when the release routes the host-sources actions (0.5 and later), else `v0.4`. */
  generation: ApiGeneration;
};

/** The release of a key (throws on a key the table does not have: keys come from RELEASE_KEYS). */
export function release(key: ReleaseKey): Release {
  const found = RELEASES.find((r) => r.release === key);
  if (!found) throw new UnknownReleaseError(`no release ${key} in the table`);
  return found;
}

/** The newest release of the table. */
export const NEWEST: Release = RELEASES[RELEASES.length - 1]!;

/** The release a controller answers as unless told otherwise: the spec (the table's first row). */
export const DEFAULT_RELEASE: Release = RELEASES[0]!;

/** True for the spec's row: the user's spec, which no Boundary release is. */
export function isSpec(r: Pick<ReleaseFacts, "release">): boolean {
  return r.release === SPEC.release;
}

/** Boundary's own releases, oldest first: every row but the spec's. */
export const BOUNDARY_RELEASES: readonly Release[] = RELEASES.filter((r) => !isSpec(r));

/** The oldest Boundary release of the table (not the spec): the first the provider works with. */
export const OLDEST: Release = BOUNDARY_RELEASES[0]!;

function generationOf(f: ReleaseFacts): ApiGeneration {
  return generationRouting(f.lists.hostSetIds!.routes.some((r) => r.noun === "host-sources"));
}

/** What the release's lists are called, in words for people (the banner): its generation's nouns. */
export function listWords(r: Pick<Release, "generation">): string {
  return r.generation === "current" ? "host sources and credential sources" : "host sets and credential libraries";
}

/** The API generation of a controller that routes the host-sources actions (`current`) or does not (`v0.4`). */
export function generationRouting(hostSources: boolean): ApiGeneration {
  return hostSources ? "current" : "v0.4";
}

// ---- lookups ----

/** The release knows the field (it reads it in bodies and answers it). */
export function knows(r: ReleaseFacts, field: InputField): boolean {
  return r.fields.includes(field);
}

/** The release takes this value of an enum field (`type: "ssh"` from 0.10). */
export function takesValue(r: ReleaseFacts, field: InputField, value: string): boolean {
  return !LATER_VALUES.has(`${field}=${value}`) || r.values.some((v) => v.field === field && v.value === value);
}
/** The enum values some release brought (`type=ssh`): a value no release lists, every release takes. */
const LATER_VALUES: ReadonlySet<string> = new Set(RELEASES.flatMap((x) => x.values.map((v) => `${v.field}=${v.value}`)));

/** The release requires the field at create. */
export function requires(r: ReleaseFacts, field: InputField): boolean {
  return r.requires.includes(field);
}

/** What replaced the field in the release (it refuses a new value), if anything. */
export function replacement(r: ReleaseFacts, field: InputField): InputField | undefined {
  return r.replaces.find((x) => x.field === field)?.by;
}

/** The oldest Boundary release (not the spec) where `holds` is true. */
export function firstReleaseWhere(holds: (r: Release) => boolean): Release | undefined {
  return BOUNDARY_RELEASES.find(holds);
}

/** The newest Boundary release (not the spec) where `holds` is true. */
export function newestReleaseWhere(holds: (r: Release) => boolean): Release | undefined {
  return [...BOUNDARY_RELEASES].reverse().find(holds);
}

/** The oldest Boundary release whose fact differs from the oldest's (v0.4's): undefined when none does. */
function changedSince(holds: (r: Release) => boolean): string | undefined {
  const first = firstReleaseWhere(holds);
  return first && first !== OLDEST ? first.release : undefined;
}

/** The minor release that added the field (`0.12`); undefined for fields v0.4 had. */
export function fieldSince(field: InputField): string | undefined {
  // read on every create and update (the answer check): the table does not change, so each field's is found once
  if (FIELD_SINCE.has(field)) return FIELD_SINCE.get(field);
  const since = changedSince((r) => knows(r, field));
  FIELD_SINCE.set(field, since);
  return since;
}
const FIELD_SINCE = new Map<InputField, string | undefined>();

/** The minor release that added an enum value (`0.10` for `ssh`); undefined for values v0.4 had. */
export function valueSince(field: InputField, value: string): string | undefined {
  return changedSince((r) => takesValue(r, field, value));
}

/** The oldest Boundary release that does not route this action noun (`0.11` for `host-sets`); undefined while every release routes it. */
export function nounDroppedIn(noun: ListNoun): string | undefined {
  return changedSince((r) => !routesNoun(r, noun));
}

/** The minor release from which the field is required at create (`0.9` for `defaultPort`). */
export function requiredSince(field: InputField): string | undefined {
  return firstReleaseWhere((r) => requires(r, field))?.release;
}

/** The minor release that replaced the field, and by what (`workerFilter` → `egressWorkerFilter` in 0.12). */
export function replacedSince(field: InputField): { since: string; by: InputField } | undefined {
  const first = firstReleaseWhere((r) => replacement(r, field) !== undefined);
  return first && { since: first.release, by: replacement(first, field)! };
}

/** Every id prefix any release takes for a list, the newest release's first (what a program may name; a given release may take fewer). */
export function anyReleasePrefixes(field: InputField): readonly string[] {
  // asked of every id of every list on each check, diff, create and update: the table does not change, so each field's is found once
  let prefixes = ANY_PREFIXES.get(field);
  if (!prefixes) {
    prefixes = Object.freeze([...new Set([...RELEASES].reverse().flatMap((r) => (isList(field) ? r.lists[field]?.prefixes : undefined) ?? []))]);
    ANY_PREFIXES.set(field, prefixes);
  }
  return prefixes;
}
const ANY_PREFIXES = new Map<InputField, readonly string[]>();

/** The list's facts in the release; undefined when the release does not have the list. */
export function listIn(r: ReleaseFacts, field: InputField): ListFacts | undefined {
  return isList(field) ? r.lists[field] : undefined;
}

/** True for an id list (a field with an association). */
export function isList(field: InputField): field is ListField {
  return (LIST_FIELDS as readonly InputField[]).includes(field);
}

/** The summaries' field that goes with an id field (`host_sets` with `host_set_ids`), from the field table's names. */
export function summariesOf(idsField: string): string {
  for (const f of LIST_FIELDS) {
    const a = associationOf(f);
    if (TARGET_FIELDS[f].wire === idsField && a.summaries) return a.summaries;
    if (a.current.wire === idsField) return a.current.summaries;
    if (a.current.earlier?.wire === idsField) return a.current.earlier.summaries;
  }
  throw new InternalError(`no summaries for ${idsField}`);
}

/** The 500 a release answers for an action whose repository call failed: its handler's words over the repository's error. */
export function actionFailure(r: ReleaseFacts, list: ListKind, op: AssociationOp, cause: string): string {
  const words = r.actionErrors.handler[list][op];
  if ("fixed" in words) return words.fixed;
  const at = `target.(Repository).${r.actionErrors.ops[list][op]}`;
  // an add of hosts wraps its transaction's error once more (repository_host_set.go / repository_host_source.go, v0.4.0 to v0.21.3)
  const tx = list === "host" && op === "add" ? "error creating sets: db.DoTx" : "db.DoTx";
  return `${words.wrap}: ${at}: ${tx}: ${at}: ${cause}.`;
}

/** A short name for a set of releases, for messages: `0.7–0.10`, `0.12 or later`, `the v0.4 API`. */
export function describeReleases(keys: readonly ReleaseKey[]): string {
  const real = RELEASES.filter((r) => keys.includes(r.release) && r.release !== "spec").map((r) => r.release);
  if (real.length === 0 || (real.length === 1 && real[0] === "0.4")) return "Boundary v0.4 (the v0.4 API)";
  const [first, last] = [real[0]!, real[real.length - 1]!];
  if (last === NEWEST.release && first !== last) return `Boundary ${first} or later`;
  return first === last ? `Boundary ${first}` : `Boundary ${first}–${last}`;
}

/** The values a field left unset takes on a controller of this release: its newest patch's default, and an earlier patch's where it differed. */
export function defaultsIn(r: ReleaseFacts, field: InputField): unknown[] {
  const newest = r.defaults[field] ?? spec(field).default;
  const earlier = r.withinMinorDefaults?.[field];
  return earlier === undefined || earlier === newest ? [newest] : [newest, earlier];
}

/** A controller's default for a field: known, or the values the releases it may be disagree on. */
export type ControllerDefault = { known: true; value: unknown } | { known: false; candidates: readonly unknown[] };

/**
 * The default of `field` on a controller that is one of `releases` (every release when nothing is
 * known): known when they all agree, else the values they disagree on, oldest release's first.
 * What "reset to the controller's default" means when a program stops setting a field; never a
 * guess between releases.
 */
export function controllerDefault(field: InputField, releases: readonly ReleaseFacts[] = RELEASES): ControllerDefault {
  const values: unknown[] = [];
  for (const v of releases.flatMap((r) => defaultsIn(r, field))) if (!values.some((x) => JSON.stringify(x) === JSON.stringify(v))) values.push(v);
  return values.length === 1 ? { known: true, value: values[0] } : { known: false, candidates: values };
}

/**
 * The rate limiter's default quota store size (DefaultLimiterMaxQuotas): per resource and action,
 * one quota in total and 1,000 each per IP and per token. The table has counted v0.21.3's actions
 * only; a release whose count it lacks (0.14.3–0.20) takes the newest count it has [not read at
 * that release's tag]. Undefined for a release without the limiter.
 */
export function defaultMaxQuotas(r: ReleaseFacts): number | undefined {
  if (!r.rateLimiter) return undefined;
  const counted = r.rateLimiter.actionsPerResource ?? [...RELEASES].reverse().find((x) => x.rateLimiter?.actionsPerResource)!.rateLimiter!.actionsPerResource!;
  return Object.values(counted).reduce((a, b) => a + b, 0) * (1 + 1000 + 1000);
}

// ---- what answers tell of the release that gave them ----

/**
 * The top-level keys a release's Target views may carry: the view's own (id, scope, times,
 * version, actions), each field it knows (a nested one under its parent, `attributes`), each
 * list's names with their summaries, and `aliases` where it has them.
 */
export function viewKeys(r: ReleaseFacts): ReadonlySet<string> {
  const fields = (Object.keys(TARGET_FIELDS) as InputField[]).filter((f) => knows(r, f)).map((f) => TARGET_FIELDS[f].wire.split(".")[0]!);
  const lists = Object.values(r.lists).flatMap((l) => l.answers.flatMap((name) => [name, summariesOf(name)]));
  return new Set([...VIEW_ONLY_KEYS, ...fields, ...lists, ...(r.aliases ? ["aliases"] : [])]);
}
const ANSWER_KEYS = new Map(RELEASES.map((r) => [r, viewKeys(r)]));
/** Keys and actions some release answers: only these tell anything (a later release's new key tells nothing here). */
const ANY_KEY = new Set(RELEASES.flatMap((r) => [...ANSWER_KEYS.get(r)!]));
const ANY_ACTION = new Set(RELEASES.flatMap((r) => r.actions));

/**
 * The releases among `among` that could have answered this Target view: each key of it some
 * release answers is one they answer (`host_set_ids`: up to 0.10), each key they always answer is
 * there (`"address"`, even empty: 0.12+), and each action it authorizes is one they have
 * (`set-host-sets` with `set-host-sources`: 0.7–0.10). A caller's grants may hide actions and a
 * Target may lack lists, so their absence tells nothing.
 */
export function releasesAnswering(view: Readonly<Record<string, unknown>>, among: readonly Release[] = RELEASES): Release[] {
  const keys = Object.keys(view).filter((k) => ANY_KEY.has(k));
  const actions = (Array.isArray(view.authorized_actions) ? (view.authorized_actions as unknown[]) : []).filter(
    (a): a is string => typeof a === "string" && ANY_ACTION.has(a),
  );
  return among.filter(
    (r) => keys.every((k) => ANSWER_KEYS.get(r)!.has(k)) && (!r.addressAlways || "address" in view) && actions.every((a) => r.actions.includes(a)),
  );
}

/** The releases among `among` whose actions include every one of `actions` (a Target's recorded `authorized_actions`). */
export function releasesWithActions(actions: readonly string[], among: readonly Release[] = RELEASES): Release[] {
  const telling = actions.filter((a) => ANY_ACTION.has(a));
  return among.filter((r) => telling.every((a) => r.actions.includes(a)));
}

/** The release routes this action noun for some list (`host-sources` from 0.5). */
export function routesNoun(r: ReleaseFacts, noun: ListFacts["routes"][number]["noun"]): boolean {
  return Object.values(r.lists).some((l) => l.routes.some((x) => x.noun === noun));
}
