/**
 * The reconcile decisions, as pure functions of (state, desired inputs): what differs, whether it
 * needs a replacement, and the exact API calls to make. No I/O here; `apply.ts` executes the plan.
 * Every per-field fact (mask path, default, replaces, association) comes from the field table.
 *
 * Rules: a field the program sets is compared with what the last read saw; a field the program
 * stopped setting (it is in `__managed`) goes back to the controller's default (that controller's:
 * the release table's `controllerDefault`); a field the program never set is not managed, whatever the server
 * holds; a field the engine was told to ignore (`ignoreChanges`) is never changed. Id lists are sets.
 *
 * An update is the run's planned changes (what the preview showed); after a version conflict the
 * same changes, and only they, are replayed on the fresh Target (`replayChanges`), so nothing
 * another stack or a person changed meanwhile is reverted.
 */
import type { CreateTargetRequest, Target } from "../../wire/target";
import { INPUT_FIELDS, LIST_FIELDS, setPath, spec, type Association, type InputField } from "../../wire/target-fields";
import { UNKNOWN, isUnknown, type TargetInputs } from "./inputs";
import { controllerDefault, isList, type ListField, type Release } from "../../wire/releases";
import * as api from "../client/api";
import type { ListIds, WireCall } from "../client/api";
import { OUTPUT_FIELDS, TARGET_OUTPUTS, managedFields, type TargetState } from "./state";
import type { Call } from "./call";

export type { Call } from "./call";

/** One field whose desired value differs from the state. */
export interface Change {
  field: InputField;
  from: unknown;
  /**
   * The desired value. With `kind: "delete"` it is the controller's default, undefined for a field
   * without one (cleared), or UNKNOWN when the controller's release does not tell its default.
   */
  to: unknown;
  /** add: set where it was unset; update: a new value; delete: removed from the program (reset). */
  kind: "add" | "update" | "delete";
  /** The field cannot change in place: the Target is replaced. */
  replace: boolean;
  /** The desired value is not known yet (preview): assume it changes. */
  unknown: boolean;
}

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return [...new Set(v)].sort();
  if (v === "") return undefined;
  return v;
}

/** Equality as the controller sees it: id lists as sets, "" as unset, and a `field`'s values in the form it stores them (an address's spellings). */
export function sameValue(a: unknown, b: unknown, field?: InputField): boolean {
  // the same value is the same (most fields of most diffs): no canonical form, no JSON of either
  if (a === b) return true;
  const canonical = field && spec(field).canonical;
  // two values, not a destructured pair: unoptimised code iterates a pair (this runs on every set field of every diff and update)
  const x = canonical && typeof a === "string" ? canonical(a) : a;
  const y = canonical && typeof b === "string" ? canonical(b) : b;
  if (x === y) return true;
  return JSON.stringify(normalize(x)) === JSON.stringify(normalize(y));
}

/** What, beyond state and inputs, decides a plan. */
export interface PlanContext {
  /** The releases the controller may be (the release table's rows), for the default a removed field goes back to (default: any release). */
  releases?: readonly Release[];
  /** The engine's `ignoreChanges` property paths: those fields are never changed. */
  ignoreChanges?: readonly string[];
  /** The name was made by autonaming, not set by the program. */
  autonamed?: boolean;
}

/**
 * Every field whose desired value differs from the state, except the ones the engine was told to
 * ignore. A field removed from the program goes back to the controller's default; when the
 * controller's release does not tell that default and the value is one it may be, the reset is
 * still a change (it cannot be ruled out), going to UNKNOWN: the controller applies its own.
 */
export function changes(state: TargetState, news: Partial<TargetInputs>, ctx: PlanContext = {}): Change[] {
  const managed = state.__managed ?? [];
  // most plans ignore nothing: no test to build for them
  const ignored = ctx.ignoreChanges?.length ? ignoredFields(ctx.ignoreChanges) : undefined;
  const out: Change[] = [];
  // by index, not for…of: on every diff and update, mostly before V8 optimises it
  for (let i = 0; i < INPUT_FIELDS.length; i++) {
    const field = INPUT_FIELDS[i]!;
    if (ignored?.(field)) continue;
    const f = spec(field);
    const from = state[field];
    const to = news[field];
    const replace = f.replaces === true;
    if (to !== undefined) {
      const unknown = isUnknown(to);
      if (unknown || !sameValue(from, to, field)) out.push({ field, from, to, kind: from === undefined ? "add" : "update", replace, unknown });
    } else if (managed.includes(field)) {
      const d = controllerDefault(field, ctx.releases);
      if (d.known && !sameValue(from, d.value)) out.push({ field, from, to: d.value, kind: "delete", replace, unknown: false });
      if (!d.known) out.push({ field, from, to: UNKNOWN, kind: "delete", replace, unknown: true });
    }
  }
  return out;
}

/**
 * The fields a removal would reset to a default the releases do not decide, while the value is one
 * of the defaults it may be: only then is it worth asking which release the controller is.
 */
export function undecidedResets(state: TargetState, news: Partial<TargetInputs>, ctx: PlanContext = {}): InputField[] {
  return undecidedAmong(changes(state, news, ctx), ctx.releases);
}

/** `undecidedResets` among changes already computed (`changes`) for `releases`. */
export function undecidedAmong(changed: readonly Change[], releases?: readonly Release[]): InputField[] {
  return changed
    .filter((c) => c.kind === "delete" && c.to === UNKNOWN)
    .filter((c) => {
      const d = controllerDefault(c.field, releases);
      return !d.known && d.candidates.some((v) => sameValue(c.from, v));
    })
    .map((c) => c.field);
}

/**
 * A test for the fields `ignoreChanges` names. A path names its top-level input (`hostSetIds[0]`,
 * `hostSetIds[*]` and `["hostSetIds"]` all ignore the list: its elements are a set, with no stable
 * positions), and `*` names them all.
 */
export function ignoredFields(paths: readonly string[] = []): (field: InputField) => boolean {
  const names = new Set(
    paths.map(
      (p) =>
        p
          .trim()
          .replace(/^\["([^"]+)"\].*$/, "$1")
          .split(/[.[]/)[0]!,
    ),
  );
  return (field) => names.has("*") || names.has(field);
}

/** What `pulumi preview` shows for a Target. */
export interface TargetDiff {
  changes: boolean;
  /** The fields that force a replacement. */
  replaces: InputField[];
  changed: Change[];
  /**
   * A replacement must delete the old Target first: the program set the name and the replacement
   * keeps it in the same project, where names are unique (pulumi-kubernetes' convention). Answered
   * for any change, because the engine may replace for reasons Diff does not see
   * (`replaceOnChanges`); it uses the answer only when it replaces.
   */
  deleteBeforeReplace: boolean;
}

/**
 * The diff of a Target. A field newly set to the value the server already has is no change: the
 * plan must show only what will really change.
 */
export function diffTarget(state: TargetState, news: Partial<TargetInputs>, ctx: PlanContext = {}): TargetDiff {
  return diffOf(state, news, changes(state, news, ctx), ctx);
}

/** `diffTarget` from changes already computed (`changes`, with the same `ctx`). */
export function diffOf(state: TargetState, news: Partial<TargetInputs>, changed: Change[], ctx: PlanContext = {}): TargetDiff {
  const replaces = changed.filter((c) => c.replace).map((c) => c.field);
  return { changes: changed.length > 0, replaces, changed, deleteBeforeReplace: changed.length > 0 && !ctx.autonamed && keepsName(state, news) };
}

/** The new Target would have the old one's name in the old one's project (or may: a value not known yet). */
function keepsName(state: TargetState, news: Partial<TargetInputs>): boolean {
  const same = (a: unknown, b: unknown) => a === undefined || isUnknown(a) || a === b;
  return news.name !== undefined && same(news.name, state.name) && same(news.scopeId, state.scopeId);
}

/**
 * The calls that take the Target from `state` to `news`: one PATCH with an exact mask when a scalar
 * changed (reset fields are masked and left out, which clears them), then a set action for each
 * list that changed, one per action (lists that share a current action travel together). Nothing
 * when nothing changed.
 */
export function planUpdate(state: TargetState, news: Partial<TargetInputs>, ctx: PlanContext = {}): Call[] {
  return callsFor(state, changes(state, news, ctx));
}

/**
 * The calls that make `planned` on a Target holding `base`, touching nothing else: a list that
 * shares its current action with another carries the other as `base` holds it, unless it is
 * planned too.
 */
export function callsFor(base: TargetState, planned: readonly Change[]): Call[] {
  const mask: string[] = [];
  const fields: Record<string, unknown> = {};
  const lists: Call[] = [];
  const wanted = (field: InputField): string[] => {
    const c = planned.find((p) => p.field === field && !p.replace);
    return normalize(c ? (c.to ?? []) : (base[field] ?? [])) as string[];
  };
  for (const c of planned) {
    const f = spec(c.field);
    if (c.replace) continue; // handled by replacement, never by update
    if (f.association && isList(c.field)) {
      if (lists.some((l) => l.op === "set" && l.siblings?.some((s) => s.field === c.field))) continue; // travels with a list already planned
      lists.push({ op: "set", field: c.field, association: f.association, ids: wanted(c.field), ...siblingsOf(c.field, f.association, wanted) });
    } else if (f.mask) {
      // a removed field, or one set to "" (unset), is masked and left out: the controller clears it
      mask.push(f.wire);
      if (c.kind !== "delete" && normalize(c.to) !== undefined) setPath(fields, f.wire, c.to);
    }
  }
  return mask.length > 0 ? [{ op: "update", mask, fields }, ...lists] : lists;
}

/** The lists a set call carries, its own first (that one decides the action). */
export function listsOf(call: Extract<Call, { op: "set" }>): ListIds[] {
  return [{ field: call.field, ids: call.ids }, ...(call.siblings ?? [])];
}

/**
 * The exact wire call (method, path, body) a planned call is sent as, on Target `id` at `version`,
 * to a controller that may be any of `releases` (which picks a list's action and names: see
 * `api.listAction`). What `apply.ts` sends, each call at the version the previous answer carried.
 */
export function wireCall(call: Call, id: string, version: number, releases: readonly Release[]): WireCall<Target> {
  return call.op === "update" ? api.updateTarget(id, version, call.mask, call.fields) : api.listAction(releases, id, "set", version, listsOf(call));
}

/**
 * The planned changes still to make on a fresh read of the Target (after a version conflict): each
 * one whose value the Target does not already hold, from what it holds now. Nothing else: what
 * changed outside Pulumi meanwhile stays as it is.
 */
export function replayChanges(fresh: TargetState, planned: readonly Change[]): Change[] {
  return planned.filter((c) => c.unknown || !sameValue(fresh[c.field], c.to, c.field)).map((c) => ({ ...c, from: fresh[c.field] }));
}

/** The lists that share `field`'s current action, each with the ids it must hold after the call. */
function siblingsOf(field: ListField, association: Association, wanted: (f: InputField) => string[]): { siblings?: { field: ListField; ids: string[] }[] } {
  const others = LIST_FIELDS.filter((o) => o !== field && spec(o).association?.current.action === association.current.action);
  if (others.length === 0) return {};
  return { siblings: others.map((o) => ({ field: o, ids: wanted(o) })) };
}

/**
 * The create body: only what the program set (the controller applies its own defaults), plus the
 * fields that can never change later (scope and type), which are always sent. The id lists only
 * `withLists`: when the controller may apply them on create (every Boundary release ignores them;
 * the set actions that follow apply them).
 */
export function createRequest(news: TargetInputs, withLists = true): CreateTargetRequest {
  const body: Record<string, unknown> = {};
  for (const field of INPUT_FIELDS) {
    const f = spec(field);
    if (f.association && !withLists) continue;
    const v = normalize(news[field] ?? (f.replaces ? f.default : undefined));
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    setPath(body, f.wire, v);
  }
  return body as CreateTargetRequest;
}

/**
 * What a create will produce, for a preview (no API call): the inputs the program set, and unknown
 * for everything the controller decides (its defaults, the outputs).
 */
export function projectCreate(news: Partial<TargetInputs>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of INPUT_FIELDS) out[f] = news[f] ?? UNKNOWN;
  for (const k of OUTPUT_FIELDS) out[k] = UNKNOWN;
  out.__managed = managedFields(news);
  return out;
}

/**
 * What an update will produce, for a preview (no API call): the state with each change applied (a
 * removed field back at its default, a value not known yet unknown), and the outputs an update
 * changes unknown.
 */
export function projectUpdate(state: TargetState, news: Partial<TargetInputs>, ctx: PlanContext = {}): Record<string, unknown> {
  return projectChanges(state, news, changes(state, news, ctx));
}

/** `projectUpdate` from changes already computed (`changes`). */
export function projectChanges(state: TargetState, news: Partial<TargetInputs>, planned: readonly Change[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...state };
  const changed = new Set<string>();
  for (const c of planned) {
    out[c.field] = c.to;
    changed.add(c.field);
  }
  for (const k of OUTPUT_FIELDS) {
    const rule = TARGET_OUTPUTS[k].onUpdate;
    if (rule === "changes" ? changed.size > 0 : rule !== "kept" && changed.has(rule)) out[k] = UNKNOWN;
  }
  out.__managed = managedFields(news);
  return out;
}
