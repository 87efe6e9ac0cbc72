/**
 * The store's indexes over its Targets, kept in step on every create, rename and delete so that
 * nothing is rebuilt by scanning: names per project (and their case-folded forms), ids per project
 * in order, each project's last list, and recent deletions for paginated refreshes.
 */
import type { TargetRecord } from "../record";
import { mapSteps, type Steps } from "../slices";
import { SortedIds } from "./sorted-ids";

/** How many deletions are remembered for refreshes of paginated lists. */
const MAX_DELETIONS_KEPT = 100_000;

/** The indexes of one store's Targets; `get` reads a record by id from the store. */
export class TargetIndexes {
  /** Recent deletions, oldest first (bounded): what a paginated list's refresh reports as removed. */
  private readonly deleted: { id: string; scope_id: string; at: number }[] = [];
  /** Sorted ids per project, kept sorted on every create and delete. */
  private readonly idsByScope = new Map<string, SortedIds>();
  /**
   * Each project's records in id order, as the last list made them; dropped on any change in the
   * project (see `changed`), so a list of an unchanged project makes no lookup at all.
   */
  private readonly listed = new Map<string, readonly TargetRecord[]>();
  /**
   * Each set of projects' records in id order, merged from the project lists it names (a
   * recursive list's); dropped when one of them changes, so an unchanged estate is one array.
   */
  private readonly merged = new Map<string, { projects: readonly string[]; records: readonly TargetRecord[] }>();
  /** scope_id + "\n" + name → target id: names are unique per project. */
  private readonly names = new Map<string, string>();
  /**
   * For names with capitals only (a lower-case name is found in `names` under its own key):
   * scope_id + "\n" + lower-case name → the target id, or the ids when several fold together.
   * authorize-session matches names case-insensitively.
   */
  private readonly foldedNames = new Map<string, string | string[]>();
  /** How many changes the Targets have seen (see `changes`). */
  private changeCount = 0;

  /** Indexes over the records `get` reads. */
  constructor(private readonly get: (id: string) => TargetRecord | undefined) {}

  /** A Target was created. */
  added(t: TargetRecord): void {
    this.changed(t.scope_id);
    const ids = this.idsByScope.get(t.scope_id) ?? new SortedIds();
    ids.add(t.id);
    this.idsByScope.set(t.scope_id, ids);
    this.indexName(t);
  }

  /** A Target changed from `before` to `after` (same id and project). */
  replaced(before: TargetRecord, after: TargetRecord): void {
    this.unindexName(before);
    this.indexName(after);
    this.changed(after.scope_id);
  }

  /** A Target was deleted at `at` (ms). */
  removed(t: TargetRecord, at: number): void {
    this.changed(t.scope_id);
    this.idsByScope.get(t.scope_id)!.delete(t.id);
    this.unindexName(t);
    this.deleted.push({ id: t.id, scope_id: t.scope_id, at });
    if (this.deleted.length > MAX_DELETIONS_KEPT) this.deleted.splice(0, this.deleted.length - MAX_DELETIONS_KEPT);
  }

  /**
   * How many changes the Targets have seen: every create, update, association change and delete
   * counts one (each goes through `changed`), so an equal count means the very same Targets.
   */
  get changes(): number {
    return this.changeCount;
  }

  /** A change in `projectId`: its list is made afresh next time. */
  changed(projectId: string): void {
    this.changeCount++;
    this.listed.delete(projectId);
    for (const [key, m] of this.merged) if (m.projects.includes(projectId)) this.merged.delete(key);
  }

  /** A project's Targets in id order (the array is the index's: read it only). */
  *projectSteps(projectId: string): Steps<readonly TargetRecord[]> {
    let records = this.listed.get(projectId);
    if (!records) this.listed.set(projectId, (records = yield* mapSteps(this.idsByScope.get(projectId)?.toArray() ?? [], (id) => this.get(id)!)));
    return records;
  }

  /**
   * The Targets of these projects in id order: the same array while none of them changes (see
   * derived.ts: what is derived from it is kept with it). The array is the index's: read it only.
   */
  *projectsSteps(projectIds: readonly string[]): Steps<readonly TargetRecord[]> {
    if (projectIds.length === 1) return yield* this.projectSteps(projectIds[0]!);
    const key = projectIds.join("\n");
    const hit = this.merged.get(key);
    if (hit) return hit.records;
    const parts: (readonly TargetRecord[])[] = [];
    let records: readonly TargetRecord[] = [];
    for (const p of projectIds) {
      const more = yield* this.projectSteps(p);
      parts.push(more);
      records = records.length === 0 ? more : yield* mergeById(records, more);
    }
    // kept only if no project changed while the merge paused (a change drops entries, not merges under way)
    if (projectIds.every((p, i) => this.listed.get(p) === parts[i])) this.merged.set(key, { projects: [...projectIds], records });
    return records;
  }

  /** Targets deleted since `since` (ms) in these projects. */
  deletedSince(since: number, projects: ReadonlySet<string>): string[] {
    return this.deleted.filter((d) => d.at > since && projects.has(d.scope_id)).map((d) => d.id);
  }

  /** A Target of this project has exactly this name. */
  hasName(scopeId: string, name: string): boolean {
    return this.names.has(nameKey(scopeId, name));
  }

  /** The ids of the project's Targets whose names match `name` case-insensitively. */
  idsNamedLike(scopeId: string, name: string): string[] {
    const key = nameKey(scopeId, name.toLowerCase());
    return [this.names.get(key) ?? [], this.foldedNames.get(key) ?? []].flat();
  }

  private indexName(t: TargetRecord): void {
    this.names.set(nameKey(t.scope_id, t.name), t.id);
    const lower = t.name.toLowerCase();
    if (lower === t.name) return;
    const folded = nameKey(t.scope_id, lower);
    const ids = this.foldedNames.get(folded);
    this.foldedNames.set(folded, ids === undefined ? t.id : [...(typeof ids === "string" ? [ids] : ids), t.id]);
  }

  private unindexName(t: TargetRecord): void {
    this.names.delete(nameKey(t.scope_id, t.name));
    const lower = t.name.toLowerCase();
    if (lower === t.name) return;
    const folded = nameKey(t.scope_id, lower);
    const rest = [this.foldedNames.get(folded) ?? []].flat().filter((id) => id !== t.id);
    if (rest.length === 0) this.foldedNames.delete(folded);
    else this.foldedNames.set(folded, rest.length === 1 ? rest[0]! : rest);
  }
}

/** Two sorted id lists as one sorted list (a recursive list merges its projects' lists, never re-sorts). */
export function* mergeById(a: readonly TargetRecord[], b: readonly TargetRecord[]): Steps<TargetRecord[]> {
  const out = new Array<TargetRecord>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    out[k++] = a[i]!.id <= b[j]!.id ? a[i++]! : b[j++]!;
    if (k % 4096 === 0) yield;
  }
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

function nameKey(scopeId: string, name: string): string {
  return `${scopeId}\n${name}`;
}
