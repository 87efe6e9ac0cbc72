/**
 * The one mapper from a stored Target to the wire Target: adds the scope summary, the lists'
 * summaries, the aliases and the caller's `authorized_actions`, under the names the emulated
 * release answers (the release table's); omits zero values as Boundary does.
 */
import { listIn, summariesOf } from "../wire/releases";
import type { ScopeSummary, Target } from "../wire/target";
import { LIST_FIELDS, REFERENTS, associationOf, spec, type ListWire } from "../wire/target-fields";
import type { Page } from "./pagination";
import type { TargetRecord } from "./record";
import type { Steps } from "./slices";
import type { Store } from "./store";

/**
 * Rendered JSON per caller's set of actions (one per principal and release) and per stored record,
 * filled by reads and lists only. Records are frozen and replaced on every change (see Store), so a
 * record's JSON never goes stale, and a replaced record's entry goes with it (weak keys).
 */
type Cache = WeakMap<readonly string[], WeakMap<TargetRecord, Buffer>>;
const rendered: Cache = new WeakMap();
/** The same for list items where the emulated release omits the lists from them. */
const renderedItems: Cache = new WeakMap();

/** The Target's JSON bytes for a caller with `actions`, cached for the next read (see above). */
export function renderTarget(store: Store, t: TargetRecord, actions: readonly string[]): Buffer {
  return cached(rendered, t, actions, () => targetView(store, t, actions));
}

/** The Target's JSON bytes, not cached: the answer to a change, which the next read may never follow. */
export function renderChanged(store: Store, t: TargetRecord, actions: readonly string[]): Buffer {
  return Buffer.from(JSON.stringify(targetView(store, t, actions)));
}

/** A PATCH's answer: as a change's, without `aliases` (TS UpdateTarget: the repository's updated Target carries none; its create and lookups do). */
export function renderUpdated(store: Store, t: TargetRecord, actions: readonly string[]): Buffer {
  const view = targetView(store, t, actions) as Record<string, unknown>;
  delete view.aliases;
  return Buffer.from(JSON.stringify(view));
}

/** A list item's JSON bytes: the Target, without the lists where the release's list omits them. */
export function renderListItem(store: Store, t: TargetRecord, actions: readonly string[]): Buffer {
  if (store.release.listItemsCarryLists) return renderTarget(store, t, actions);
  return cached(renderedItems, t, actions, () => listItemView(store, t, actions));
}

function cached(cache: Cache, t: TargetRecord, actions: readonly string[], view: () => Target): Buffer {
  let byRecord = cache.get(actions);
  if (!byRecord) cache.set(actions, (byRecord = new WeakMap()));
  let json = byRecord.get(t);
  if (json === undefined) byRecord.set(t, (json = Buffer.from(JSON.stringify(view()))));
  return json;
}

/** The lists a Target may hold (the field table's), with where the store keeps each and the wire fields one summary carries beyond `id`. */
const LISTS = LIST_FIELDS.map((field) => {
  const { kind } = associationOf(field);
  return { field, kind, stored: spec(field).wire as ListWire, carries: Object.values(REFERENTS[kind].summary).map((s) => s.wire) };
});

/** A Target as a list shows it: Boundary's list query loads no list ids or summaries, and no aliases. */
export function listItemView(store: Store, t: TargetRecord, actions: readonly string[]): Target {
  const view = targetView(store, t, actions) as Record<string, unknown>;
  if (store.release.listItemsCarryLists) return view as Target;
  for (const { field } of LISTS) {
    for (const name of listIn(store.release, field)?.answers ?? []) {
      delete view[name];
      delete view[summariesOf(name)];
    }
  }
  delete view.aliases;
  return view as Target;
}

const COLLATOR = new Intl.Collator("en-US");
/** Two ids as PostgreSQL's en_US collation orders them (letters before case, digits before letters). */
const collate = (a: string, b: string) => COLLATOR.compare(a, b);

/** The scope summary Boundary embeds in a Target and a session authorization. */
export function scopeSummary(store: Store, scopeId: string): ScopeSummary {
  const s = store.seed.scope(scopeId);
  const out: ScopeSummary = { id: scopeId, type: s?.type ?? "project" };
  if (s?.name) out.name = s.name;
  if (s?.description) out.description = s.description;
  if (s?.parent_scope_id) out.parent_scope_id = s.parent_scope_id;
  return out;
}

/**
 * The Target as a caller with `actions` sees it, with the names of the release emulated. The
 * record is already wire-shaped: the view adds the scope, each non-empty list under every name the
 * release answers it by (0.5–0.10 answer host sets under both generations' names) with its
 * summaries, the aliases pointing to it (0.16+), `address` even when empty (0.12+: toProto always
 * sets it) and `authorized_actions`; `attributes` is always present, `{}` when empty.
 */
export function targetView(store: Store, t: TargetRecord, actions: readonly string[]): Target {
  const r = store.release;
  const fields: Record<string, unknown> = { ...t };
  for (const { stored } of LISTS) delete fields[stored];
  const out: Record<string, unknown> = { ...fields, scope: scopeSummary(store, t.scope_id), attributes: t.attributes ?? {}, authorized_actions: [...actions] };
  if (r.addressAlways) out.address = t.address ?? "";
  for (const { field, kind, stored, carries } of LISTS) {
    const held = t[stored];
    if (held.length === 0) continue;
    // credential sources come back in the view's order from 0.12, host sets on 0.4 in the order they were created
    // (see the release table's credentialSourceOrder and hostSetOrder)
    const ids =
      kind === "credential" && r.credentialSourceOrder === "collation"
        ? [...held].sort(collate)
        : kind === "host" && r.hostSetOrder === "created"
          ? [...held].sort((a, b) => store.seed.createdAt(kind, a) - store.seed.createdAt(kind, b))
          : held;
    // Boundary's Target carries only id and its catalog or store here; the full summary is in authorize-session
    const summaries = ids.map((id) => {
      const item = store.seed.referent(kind, id);
      return Object.fromEntries([["id", id], ...carries.map((k) => [k, item?.[k]])]);
    });
    for (const name of listIn(r, field)?.answers ?? []) {
      out[name] = ids;
      out[summariesOf(name)] = summaries;
    }
  }
  if (r.aliases) {
    const aliases = store.aliases.pointingTo(t.id);
    if (aliases.length > 0) out.aliases = aliases.map((a) => ({ id: a.id, value: a.value }));
  }
  return out as Target;
}

const ITEMS_OPEN = Buffer.from('{"items":[');
const ITEMS_END = Buffer.from("]");
const OBJECT_CLOSE = Buffer.from("}");
const COMMA = Buffer.from(",");

/**
 * A list's JSON as the pieces it is made of (`{"items":[`, each item's cached bytes, the commas,
 * the close) and their total length: written one after another, never copied into one buffer.
 * Copying a list of 100,000 into 64 KiB chunks allocated 60 MB per list outside the heap, and the
 * collections that pressure forced held the event loop up to ~100 ms; the pieces are the render
 * cache's own bytes.
 */
export interface ListBytes {
  readonly pieces: readonly Buffer[];
  readonly length: number;
}

/** How many items are rendered between two pause points (see slices.ts). */
const ITEMS_PER_STEP = 64;

/**
 * `{"items":[…]}` from cached per-item bytes, rendered in steps; an empty list as the emulated
 * release sends it. `close` ends the object after the items' `]` (a page's fields go there).
 */
export function* renderList(store: Store, targets: readonly TargetRecord[], actions: readonly string[], close: Buffer = OBJECT_CLOSE): Steps<ListBytes> {
  if (targets.length === 0) return whole(Buffer.from(JSON.stringify(store.release.emptyList)));
  const pieces: Buffer[] = [ITEMS_OPEN];
  let length = ITEMS_OPEN.length;
  for (let i = 0; i < targets.length; i++) {
    if (i > 0) {
      pieces.push(COMMA);
      length += COMMA.length;
    }
    const item = renderListItem(store, targets[i]!, actions);
    pieces.push(item);
    length += item.length;
    if (i % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
  }
  pieces.push(ITEMS_END, close);
  return { pieces, length: length + ITEMS_END.length + close.length };
}

function whole(body: Buffer): ListBytes {
  return { pieces: [body], length: body.length };
}

/**
 * Unpaginated list bodies (spec and v0.4), kept whole per store, caller's actions and query, to
 * answer clients that poll an unchanged list (Boundary Desktop, a watch on the CLI) with one write
 * of ready bytes. An entry is used only while the query returns the very same records (records
 * are replaced on every change, so one identity check per item proves the body current). Bounded:
 * bodies up to LIST_BODY_MAX_BYTES, the LIST_BODIES_KEPT most recent queries per store.
 */
const listBodies = new WeakMap<Store, Map<string, { records: readonly TargetRecord[]; body: Buffer }>>();
const LIST_BODY_MAX_BYTES = 1 << 20;
const LIST_BODIES_KEPT = 16;

/**
 * The list's JSON, as `renderList` makes it, or its kept body when nothing in it changed.
 * `query` names what selected `targets` (scope, recursive, filter).
 */
export function* listBody(store: Store, query: string, targets: readonly TargetRecord[], actions: readonly string[]): Steps<ListBytes> {
  let kept = listBodies.get(store);
  if (!kept) listBodies.set(store, (kept = new Map()));
  const key = `${actions.join(",")}\n${query}`;
  const hit = kept.get(key);
  if (hit && sameRecords(hit.records, targets)) return whole(hit.body);
  const list = yield* renderList(store, targets, actions);
  if (list.length > LIST_BODY_MAX_BYTES) return list; // too large to keep
  const body = list.pieces.length === 1 ? list.pieces[0]! : Buffer.concat(list.pieces as Buffer[], list.length);
  kept.delete(key); // most recent last, so the first is the one to drop
  kept.set(key, { records: targets, body });
  if (kept.size > LIST_BODIES_KEPT) kept.delete(kept.keys().next().value!);
  return whole(body);
}

function sameRecords(a: readonly TargetRecord[], b: readonly TargetRecord[]): boolean {
  if (a === b) return true; // the store's own list of an unchanged project
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** One page of a paginated list: `{"items":[…], …fields}`, or only the fields when it has no items. */
export function* renderPage(store: Store, p: Page, actions: readonly string[]): Steps<ListBytes> {
  const fields = JSON.stringify(p.fields).slice(1); // `"response_type":…}`
  if (p.items.length === 0) return whole(Buffer.from(`{${fields}`));
  return yield* renderList(store, p.items, actions, Buffer.from(`,${fields}`));
}
