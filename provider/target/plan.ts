/**
 * The reconcile decisions, as pure functions of (state, desired inputs): what differs, whether it
 * needs a replacement, and the exact API calls to make. No I/O here; `apply.ts` executes the plan.
 *
 * Rules: a field the program sets is compared with what the last read saw; a field the program
 * stopped setting (it is in `__managed`) goes back to the controller's default; a field the program
 * never set is not managed, whatever the server holds. Id lists are sets.
 */
import { TARGET_DEFAULTS, type CreateTargetRequest, type UpdateTargetRequest } from "../../wire/target";
import { INPUT_FIELDS, REPLACE_FIELDS, isUnknown, type InputField, type TargetInputs } from "./inputs";
import type { TargetState } from "./state";

export interface Change {
  field: InputField;
  from: unknown;
  /** The desired value; undefined with `reset` means "back to the controller's default". */
  to: unknown;
  reset: boolean;
  /** The desired value is not known yet (preview): assume it changes. */
  unknown: boolean;
}

/** What a field is when the program does not set it (Boundary's defaults; unset for the rest). */
const DEFAULTS: Partial<Record<InputField, unknown>> = {
  type: "tcp",
  hostSetIds: [],
  applicationCredentialLibraryIds: [],
  sessionMaxSeconds: TARGET_DEFAULTS.session_max_seconds,
  sessionConnectionLimit: TARGET_DEFAULTS.session_connection_limit,
};

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return [...new Set(v)].sort();
  if (v === "") return undefined;
  return v;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

/** Every field whose desired value differs from the state. */
export function changes(state: TargetState, news: Partial<TargetInputs>): Change[] {
  const managed = new Set(state.__managed ?? []);
  const out: Change[] = [];
  for (const field of INPUT_FIELDS) {
    const from = state[field];
    const to = news[field];
    if (to !== undefined) {
      if (isUnknown(to)) out.push({ field, from, to, reset: false, unknown: true });
      else if (!sameValue(from, to)) out.push({ field, from, to, reset: false, unknown: false });
    } else if (managed.has(field) && !sameValue(from, DEFAULTS[field])) {
      out.push({ field, from, to: DEFAULTS[field], reset: true, unknown: false });
    }
  }
  return out;
}

export interface TargetDiff {
  changes: boolean;
  replaces: InputField[];
  changed: Change[];
  /** A replacement lands in another project (or is a new type), so create-before-delete is safe. */
  deleteBeforeReplace: false;
}

export function diffTarget(state: TargetState, news: Partial<TargetInputs>): TargetDiff {
  const changed = changes(state, news);
  // A field newly set to the value the server already has is no change: the plan must show only
  // what will really change. `__managed` catches up at the next apply that changes something.
  const replaces = changed.filter((c) => REPLACE_FIELDS.includes(c.field)).map((c) => c.field);
  return { changes: changed.length > 0, replaces, changed, deleteBeforeReplace: false };
}

export type Call =
  | { op: "update"; mask: string[]; fields: Omit<UpdateTargetRequest, "version"> }
  | { op: "set-host-sets"; ids: string[] }
  | { op: "set-credential-libraries"; ids: string[] };

/** Scalar inputs → their `update_mask` path. */
const MASK: Partial<Record<InputField, string>> = {
  name: "name",
  description: "description",
  sessionMaxSeconds: "session_max_seconds",
  sessionConnectionLimit: "session_connection_limit",
  workerFilter: "worker_filter",
  defaultPort: "attributes.default_port",
};

/**
 * The calls that take the Target from `state` to `news`: one PATCH with an exact mask when a scalar
 * changed (reset fields are masked and left out, which clears them), then a set-* for each list
 * that changed. Nothing when nothing changed.
 */
export function planUpdate(state: TargetState, news: Partial<TargetInputs>): Call[] {
  const calls: Call[] = [];
  const mask: string[] = [];
  const fields: Omit<UpdateTargetRequest, "version"> = {};
  const lists: Call[] = [];
  for (const c of changes(state, news)) {
    if (REPLACE_FIELDS.includes(c.field)) continue; // handled by replacement, never by update
    if (c.field === "hostSetIds") lists.push({ op: "set-host-sets", ids: normalize(c.to ?? []) as string[] });
    else if (c.field === "applicationCredentialLibraryIds") lists.push({ op: "set-credential-libraries", ids: normalize(c.to ?? []) as string[] });
    else {
      mask.push(MASK[c.field]!);
      if (c.reset) continue;
      if (c.field === "defaultPort") fields.attributes = { default_port: c.to as number };
      else (fields as Record<string, unknown>)[MASK[c.field]!] = c.to;
    }
  }
  if (mask.length > 0) calls.push({ op: "update", mask, fields });
  return [...calls, ...lists];
}

/** The create body: only what the program set (the controller applies its own defaults). */
export function createRequest(news: TargetInputs): CreateTargetRequest {
  const body: CreateTargetRequest = { scope_id: news.scopeId, name: news.name, type: news.type ?? "tcp" };
  if (news.description) body.description = news.description;
  if (news.sessionMaxSeconds !== undefined) body.session_max_seconds = news.sessionMaxSeconds;
  if (news.sessionConnectionLimit !== undefined) body.session_connection_limit = news.sessionConnectionLimit;
  if (news.workerFilter) body.worker_filter = news.workerFilter;
  if (news.defaultPort !== undefined) body.attributes = { default_port: news.defaultPort };
  if (news.hostSetIds?.length) body.host_set_ids = normalize(news.hostSetIds) as string[];
  if (news.applicationCredentialLibraryIds?.length) body.application_credential_library_ids = normalize(news.applicationCredentialLibraryIds) as string[];
  return body;
}
