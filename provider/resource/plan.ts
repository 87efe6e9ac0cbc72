/**
 * The reconcile decisions, as pure functions of (state, desired inputs): what differs, whether it
 * needs a replacement, and the exact API calls to make. No I/O here; `apply.ts` executes the plan.
 * Every per-field fact (mask path, default, replaces, association) comes from the field table.
 *
 * Rules: a field the program sets is compared with what the last read saw; a field the program
 * stopped setting (it is in `__managed`) goes back to the controller's default; a field the program
 * never set is not managed, whatever the server holds. Id lists are sets.
 */
import type { CreateTargetRequest, UpdateTargetRequest } from "../../wire/target";
import { INPUT_FIELDS, setPath, spec, type Association, type InputField } from "../../wire/target-fields";
import { UNKNOWN, isUnknown, type TargetInputs } from "./inputs";
import { OUTPUT_FIELDS, TARGET_OUTPUTS, managedFields, type TargetState } from "./state";

/** One field whose desired value differs from the state. */
export interface Change {
  field: InputField;
  from: unknown;
  /** The desired value; undefined with `kind: "delete"` means "back to the controller's default". */
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

/** Equality as the controller sees it: id lists as sets, "" as unset. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

/** Every field whose desired value differs from the state. */
export function changes(state: TargetState, news: Partial<TargetInputs>): Change[] {
  const managed = new Set(state.__managed ?? []);
  const out: Change[] = [];
  for (const field of INPUT_FIELDS) {
    const f = spec(field);
    const from = state[field];
    const to = news[field];
    const replace = f.replaces === true;
    if (to !== undefined) {
      const unknown = isUnknown(to);
      if (unknown || !sameValue(from, to)) out.push({ field, from, to, kind: from === undefined ? "add" : "update", replace, unknown });
    } else if (managed.has(field) && !sameValue(from, f.default)) {
      out.push({ field, from, to: f.default, kind: "delete", replace, unknown: false });
    }
  }
  return out;
}

/** What `pulumi preview` shows for a Target. */
export interface TargetDiff {
  changes: boolean;
  /** The fields that force a replacement. */
  replaces: InputField[];
  changed: Change[];
  /** A replacement lands in another project (or is a new type), so create-before-delete is safe. */
  deleteBeforeReplace: false;
}

/**
 * The diff of a Target. A field newly set to the value the server already has is no change: the
 * plan must show only what will really change.
 */
export function diffTarget(state: TargetState, news: Partial<TargetInputs>): TargetDiff {
  const changed = changes(state, news);
  const replaces = changed.filter((c) => c.replace).map((c) => c.field);
  return { changes: changed.length > 0, replaces, changed, deleteBeforeReplace: false };
}

/** One API call of a plan. */
export type Call =
  | { op: "update"; mask: string[]; fields: Omit<UpdateTargetRequest, "version"> }
  | {
      op: "set";
      field: InputField;
      association: Association;
      ids: string[];
      /**
       * The other lists the same current action replaces, with the ids each must hold after it
       * (`:set-credential-sources` sets the brokered and the injected list: leaving one out would clear it).
       */
      siblings?: { field: InputField; ids: string[] }[];
    };

/**
 * The calls that take the Target from `state` to `news`: one PATCH with an exact mask when a scalar
 * changed (reset fields are masked and left out, which clears them), then a set action for each
 * list that changed, one per action (lists that share a current action travel together). Nothing
 * when nothing changed.
 */
export function planUpdate(state: TargetState, news: Partial<TargetInputs>): Call[] {
  const mask: string[] = [];
  const fields: Record<string, unknown> = {};
  const lists: Call[] = [];
  for (const c of changes(state, news)) {
    const f = spec(c.field);
    if (c.replace) continue; // handled by replacement, never by update
    if (f.association) {
      const ids = normalize(c.to ?? []) as string[];
      const shared = lists.find((l) => l.op === "set" && l.siblings?.some((s) => s.field === c.field));
      if (shared?.op === "set") shared.siblings = shared.siblings!.map((s) => (s.field === c.field ? { field: c.field, ids } : s));
      else lists.push({ op: "set", field: c.field, association: f.association, ids, ...siblingsOf(c.field, f.association, state, news) });
    }
    else if (f.mask) {
      // a removed field, or one set to "" (unset), is masked and left out: the controller clears it
      mask.push(f.wire);
      if (c.kind !== "delete" && normalize(c.to) !== undefined) setPath(fields, f.wire, c.to);
    }
  }
  return mask.length > 0 ? [{ op: "update", mask, fields }, ...lists] : lists;
}

/** The lists that share `field`'s current action, as the program wants them (or as last seen, when it does not manage one). */
function siblingsOf(field: InputField, association: Association, state: TargetState, news: Partial<TargetInputs>): { siblings?: { field: InputField; ids: string[] }[] } {
  const others = INPUT_FIELDS.filter((o) => o !== field && spec(o).association?.current.action === association.current.action);
  if (others.length === 0) return {};
  return { siblings: others.map((o) => ({ field: o, ids: normalize(news[o] ?? state[o] ?? []) as string[] })) };
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

/** Says what a call does, for messages. */
export function describeCall(call: Call): string {
  return call.op === "update" ? `updating ${call.mask.join(", ")}` : `setting ${(call.association.action ?? call.association.current.action).replace("-", " ")}`;
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
export function projectUpdate(state: TargetState, news: Partial<TargetInputs>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...state };
  const changed = new Set<string>();
  for (const c of changes(state, news)) {
    out[c.field] = c.to === undefined ? spec(c.field).default : c.to;
    changed.add(c.field);
  }
  for (const k of OUTPUT_FIELDS) {
    const rule = TARGET_OUTPUTS[k].onUpdate;
    if (rule === "changes" ? changed.size > 0 : rule !== "kept" && changed.has(rule)) out[k] = UNKNOWN;
  }
  out.__managed = managedFields(news);
  return out;
}
