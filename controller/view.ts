/**
 * The one mapper from a stored Target to the wire Target: adds the scope summary, host set and
 * credential library summaries and the caller's `authorized_actions`; omits zero values as Boundary does.
 */
import type { ScopeSummary, Target, TargetAction } from "../wire/target";
import type { Store, TargetRecord } from "./store";

/**
 * Rendered JSON per stored record and per set of actions. Records are frozen and replaced on every
 * change (see Store), so a record's JSON never goes stale; a GET or a list then costs no stringify.
 */
const rendered = new WeakMap<TargetRecord, Map<readonly TargetAction[], Buffer>>();

/** The Target's JSON bytes for a caller with `actions` (cached; see above). */
export function renderTarget(store: Store, t: TargetRecord, actions: readonly TargetAction[]): Buffer {
  let byActions = rendered.get(t);
  if (!byActions) rendered.set(t, (byActions = new Map()));
  let json = byActions.get(actions);
  if (json === undefined) byActions.set(actions, (json = Buffer.from(JSON.stringify(targetView(store, t, actions)))));
  return json;
}

/** The scope summary Boundary embeds in a Target and a session authorization. */
export function scopeSummary(store: Store, scopeId: string): ScopeSummary {
  const s = store.scopes.get(scopeId);
  const out: ScopeSummary = { id: scopeId, type: s?.type ?? "project" };
  if (s?.name) out.name = s.name;
  if (s?.description) out.description = s.description;
  if (s?.parent_scope_id) out.parent_scope_id = s.parent_scope_id;
  return out;
}

/**
 * The Target as a caller with `actions` sees it. The record is already wire-shaped: the view adds
 * the scope, the association summaries and `authorized_actions`, and omits empty id lists (zero
 * values are omitted on the wire); `attributes` is always present, `{}` when empty.
 */
export function targetView(store: Store, t: TargetRecord, actions: readonly TargetAction[]): Target {
  const { host_set_ids, application_credential_library_ids, ...fields } = t;
  const out: Target = { ...fields, scope: scopeSummary(store, t.scope_id), attributes: t.attributes ?? {}, authorized_actions: [...actions] };
  if (host_set_ids.length > 0) {
    out.host_set_ids = host_set_ids;
    out.host_sets = host_set_ids.map((id) => ({ id, host_catalog_id: store.hostSets.get(id)?.host_catalog_id }));
  }
  if (application_credential_library_ids.length > 0) {
    out.application_credential_library_ids = application_credential_library_ids;
    // Boundary's Target carries only id and store id here; the full summary is in authorize-session.
    out.application_credential_libraries = application_credential_library_ids.map((id) => ({
      id,
      credential_store_id: store.credentialLibraries.get(id)?.credential_store_id,
    }));
  }
  return out;
}

const ITEMS_OPEN = Buffer.from('{"items":[');
const ITEMS_CLOSE = Buffer.from("]}");
const COMMA = Buffer.from(",");

/** `{"items":[…]}` from cached per-target bytes. */
export function renderList(store: Store, targets: readonly TargetRecord[], actions: readonly TargetAction[]): Buffer {
  const parts: Buffer[] = [ITEMS_OPEN];
  targets.forEach((t, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(renderTarget(store, t, actions));
  });
  parts.push(ITEMS_CLOSE);
  return Buffer.concat(parts);
}
