/**
 * The controller's state and every rule about Targets: required fields, limits, name uniqueness per
 * project, associations with host sets and credential libraries, the `version` that each change
 * advances by exactly one, and which Targets a list returns. It knows nothing about HTTP: rules
 * throw ControllerFault with a kind. Per-field work walks the field table (`wire/target-fields.ts`),
 * with each field's rule from `rules.ts`.
 */
import { matches, parseFilter } from "../common/filter";
import { trimSpace } from "../common/rules";
import { knows, listIn, release, type ListField, type ListRoute, type Release } from "../wire/releases";
import { Prefix, type CreateTargetRequest, type RequestField, type Target, type UpdateTargetRequest } from "../wire/target";
import {
  INPUT_FIELDS,
  MASK_PATHS,
  REFERENTS,
  associationOf,
  deletePath,
  getPath,
  setPath,
  spec,
  type AssociationOp,
  type InputField,
  type ListKind,
  type ListWire,
} from "../wire/target-fields";
import { actionFieldsMessage, checkActionBody, injectedRefusal, unknownMember, type SentIds } from "./action-rules";
import { Aliases, maybeAlias } from "./aliases";
import { ControllerFault, invalidField, invalidFields, notFound } from "./errors";
import type { FixtureCredential, FixtureCredentialLibrary, FixtureHostSet, FixtureScope, FixtureWorker, Fixtures } from "./fixtures";
import { storedAddress } from "./address";
import { actionMistake, addressConflict, createRules, patchAlwaysApplies, staleVersion, updateFieldRules, updateRules, type Emulation } from "./emulation";
import * as rules from "./rules";
import type { ListQuery } from "./rules";
import type { TargetRecord } from "./record";
import { SortedIds } from "./sorted-ids";
import { BAD_ID, isTargetId, newId, type IdUse } from "./ids";

export { newId, type IdUse } from "./ids";
import { MAX_PAGE_SIZE } from "./pagination";
import { atOnce, filterSteps, mapSteps, type Steps } from "./slices";

/** A field reconciled by the add/set/remove actions. */
export type AssociationField = ListField;

/** How many deletions are remembered for refreshes of paginated lists. */
const MAX_DELETIONS_KEPT = 100_000;

/** The input field behind a wire path, for the fields the table has. */
const BY_WIRE = new Map(INPUT_FIELDS.map((f) => [spec(f).wire, f] as const));
/** Fields set on create and never by PATCH: identity (replaces) and associations (actions). */
const FIXED_ON_UPDATE = INPUT_FIELDS.filter((f) => !spec(f).mask);

export type { ListQuery } from "./rules";

/** How a store behaves where Boundary releases differ. */
export interface StoreOptions {
  /** Which Boundary to behave like (default: the spec, see emulation.ts). */
  emulation?: Emulation;
  /** Ignore `host_set_ids`/`application_credential_library_ids` on create, as Boundary v0.4 does (what `--emulate 0.4` does on create). */
  ignoreCreateAssociations?: boolean;
  /** The default and largest page of a paginated list (`max_page_size`). */
  maxPageSize?: number;
  now?: () => Date;
}

/** A seeded resource an id list may name: its project, and the fields a Target's summary of it carries. */
export type ReferentRecord = { id: string; scope_id: string } & Readonly<Record<string, unknown>>;

type ScopeRecord = FixtureScope | { id: "global"; type: "global"; name: string; description: string; parent_scope_id?: undefined };

/** The controller's data: seeded scopes, host sets, libraries and workers, and the Targets. */
export class Store {
  /** Scopes by id, `global` included (seeded; the API does not change them). */
  readonly scopes = new Map<string, ScopeRecord>();
  /** Host sets by id (seeded). */
  readonly hostSets = new Map<string, FixtureHostSet>();
  /** Credential sources by id (seeded): credential libraries, and static credentials (current releases only take these). */
  readonly credentialLibraries = new Map<string, FixtureCredentialLibrary | FixtureCredential>();
  /** Every resource an id list may name, by kind (REFERENTS), from the fixture arrays the table names: what attaching checks ids against. */
  readonly referents: Record<ListKind, Map<string, ReferentRecord>>;
  /** The workers a session may use (seeded). */
  readonly workers: FixtureWorker[];
  private readonly targets = new Map<string, TargetRecord>();
  /** Recent deletions, oldest first (bounded): what a paginated list's refresh reports as removed. */
  private readonly deleted: { id: string; scope_id: string; at: number }[] = [];
  /** Sorted ids per project, kept sorted on every create and delete (nothing is rebuilt by scanning). */
  private readonly idsByScope = new Map<string, SortedIds>();
  /**
   * Each project's records in id order, as the last list made them; dropped on any change in the
   * project (see `changed`), so a list of an unchanged project makes no lookup at all.
   */
  private readonly listed = new Map<string, readonly TargetRecord[]>();
  /** scope_id + "\n" + name → target id: names are unique per project. */
  private readonly names = new Map<string, string>();
  /**
   * For names with capitals only (a lower-case name is found in `names` under its own key):
   * scope_id + "\n" + lower-case name → the target id, or the ids when several fold together.
   * authorize-session matches names case-insensitively.
   */
  private readonly foldedNames = new Map<string, string | string[]>();
  /** The Boundary release emulated: every fact that differs between releases is asked of it (the release table's row). */
  readonly release: Release;
  /** Target aliases (0.16+): made with a Target or declared in the fixtures. */
  readonly aliases: Aliases;
  /** The default and largest page of a paginated list (current releases). */
  readonly maxPageSize: number;
  private readonly ignoreCreateAssociations: boolean;
  private readonly now: () => Date;

  /** A store holding the fixtures' seed and no Target. */
  constructor(fixtures: Fixtures, options: StoreOptions = {}) {
    this.scopes.set("global", { id: "global", type: "global", name: "Global", description: "Global Scope" });
    for (const s of fixtures.scopes) this.scopes.set(s.id, s);
    for (const h of fixtures.host_sets) this.hostSets.set(h.id, h);
    for (const c of [...fixtures.credential_libraries, ...fixtures.credentials]) this.credentialLibraries.set(c.id, c);
    const seeded: Readonly<Record<string, readonly object[] | undefined>> = fixtures;
    this.referents = Object.fromEntries(
      Object.entries(REFERENTS).map(([kind, r]) => [
        kind,
        new Map(r.fixtures.flatMap((key) => (seeded[key] ?? []).filter(isReferent)).map((item) => [item.id, item])),
      ]),
    ) as Record<ListKind, Map<string, ReferentRecord>>;
    this.workers = fixtures.workers;
    this.release = release(options.emulation ?? "spec");
    this.aliases = new Aliases(fixtures.aliases ?? []);
    this.maxPageSize = options.maxPageSize ?? MAX_PAGE_SIZE;
    this.ignoreCreateAssociations = options.ignoreCreateAssociations === true || !this.release.createAppliesLists;
    this.now = options.now ?? (() => new Date());
  }

  /** How many Targets the store holds. */
  get size(): number {
    return this.targets.size;
  }

  /** Targets of a project, or with `recursive` of every project under `global` or an org, by id. */
  listTargets(scopeId: string | undefined, recursive: boolean): TargetRecord[] {
    return [...atOnce(this.listTargetsSteps(scopeId, recursive))];
  }

  /** `listTargets` as steps that may pause (see slices.ts); the array is the store's: read it only. */
  *listTargetsSteps(scopeId: string | undefined, recursive: boolean): Steps<readonly TargetRecord[]> {
    const boundary = this.release.errors === "boundary";
    if (!scopeId && !boundary) throw invalidField("scope_id", "This field is required.");
    const scope = scopeId === undefined ? undefined : this.scopes.get(scopeId);
    if (!scope) throw boundary ? notFound() : notFound(`Scope ${JSON.stringify(scopeId)} not found.`);
    if (!recursive && scope.type !== "project") {
      throw invalidField("scope_id", "This must be a project scope unless recursive is true.");
    }
    const projects = this.projectsOf(scope.id);
    let records: readonly TargetRecord[] = [];
    for (const p of projects) {
      let more = this.listed.get(p);
      if (!more) this.listed.set(p, (more = yield* mapSteps(this.idsByScope.get(p)?.toArray() ?? [], (id) => this.targets.get(id)!)));
      records = records.length === 0 ? more : yield* mergeById(records, more);
    }
    return records;
  }

  /** A change in `projectId`: its list is made afresh next time. */
  private changed(projectId: string): void {
    this.listed.delete(projectId);
  }

  /**
   * A list as the API asks for it: the query's rules (`recursive`, a parsable `filter`), then the
   * Targets whose `view` (the Target as this caller sees it) matches the filter.
   */
  queryTargets(q: ListQuery, view: (t: TargetRecord) => Target): TargetRecord[] {
    return [...atOnce(this.queryTargetsSteps(q, view))];
  }

  /** `queryTargets` as steps that may pause (see slices.ts): filtering 100,000 Targets takes ~200 ms. */
  *queryTargetsSteps(q: ListQuery, view: (t: TargetRecord) => Target): Steps<readonly TargetRecord[]> {
    const recursive = rules.checkListQuery(this.release, q);
    const filter = q.filter ? parseFilter(q.filter, this.release.errors === "boundary" ? "evaluation" : "refused") : undefined;
    const records = yield* this.listTargetsSteps(q.scopeId, recursive);
    return filter ? yield* filterSteps(records, (t) => matches(filter, { item: view(t) })) : records;
  }

  /**
   * The Target a path segment names: an id, or from 0.16 an alias value (a segment without `_`,
   * resolved to its Target; an unknown one is 404). An id of other characters than letters, digits
   * and `_` after `ttcp_` is a 400 naming `id`; a well-formed one no Target has is 404.
   */
  getTarget(segment: string, use: IdUse = "read"): TargetRecord {
    const t = this.targets.get(this.resolveId(segment, use));
    if (!t) throw notFound();
    return t;
  }

  /** The Target id a path segment names (see `getTarget`), checked as the release checks it. */
  resolveId(segment: string, use: IdUse = "read"): string {
    if (this.release.aliases && maybeAlias(segment)) return this.aliases.resolve(segment);
    if (isTargetId(segment)) return segment;
    if (this.release.errors === "ours")
      throw invalidField("id", `Incorrectly formatted identifier: it must be ${Prefix.target} followed by letters and digits.`);
    throw invalidFields([{ name: "id", description: BAD_ID[use] }], use === "action" ? actionFieldsMessage(this.release) : undefined);
  }

  /** The field errors of a create body (shape and rules, nothing that needs other records). */
  checkCreate(req: CreateTargetRequest): RequestField[] {
    const errors: RequestField[] = [];
    const push = (f: RequestField | undefined) => f && errors.push(f);
    if (req.version !== undefined && req.version !== 0)
      push({ name: "version", description: this.release.errors === "ours" ? "This is a read only field." : "Cannot specify this field in a create request." });
    const boundary = this.release.errors === "boundary";
    // TS validateCreateRequest: handlers.ValidId(scope_id, "p"); whether it exists is asked after
    if (boundary && !rules.validId(req.scope_id, "p"))
      push({ name: "scope_id", description: "This field is required to have a properly formatted project scope id." });
    else if (!req.scope_id) push({ name: "scope_id", description: "This field is required." });
    else if ((this.scopes.get(req.scope_id)?.type ?? "project") !== "project") {
      push({ name: "scope_id", description: "Targets can only be created in a project scope." });
    }
    // the release's own create rules come first; like Boundary's map of bad fields, one message per field
    const released = createRules(this.release, req);
    for (const f of released) errors.push(f);
    if (this.release.aliases) for (const f of this.aliases.check(req.with_aliases)) errors.push(f);
    if (req.name === undefined || req.name === null) push({ name: "name", description: "This field is required." });
    // 0.8's subtype registry answers an absent type as an unknown one
    const noType = !boundary ? "This field is required." : this.release.ports.vetsUpdate ? "Unknown type provided." : "This is a required field.";
    if (req.type === undefined || req.type === null) push({ name: "type", description: noType });
    for (const f of INPUT_FIELDS) {
      const association = spec(f).association;
      if (association) {
        for (const e of rules.checkIds(spec(f).wire, this.prefixes(f), this.createIds(req, f)).errors) errors.push(e);
      } else if (f !== "scopeId" && this.knows(f) && !released.some((r) => r.name === spec(f).wire))
        push(rules.checkField(f, getPath(req, spec(f).wire), this.release));
    }
    return errors;
  }

  /** The id prefixes a list takes in the release emulated (the release table's). */
  private prefixes(f: InputField): readonly string[] {
    return listIn(this.release, f)?.prefixes ?? [];
  }

  /** The release emulated has the field (the bodies of other releases' fields were discarded or named at the edge). */
  private knows(f: InputField): boolean {
    return knows(this.release, f);
  }

  /** Creates a Target from a create body; the body's field errors, if any, all in one 400. */
  createTarget(req: CreateTargetRequest): TargetRecord {
    const errors = this.checkCreate(req);
    if (errors.length > 0) throw invalidFields(errors);
    const scopeId = req.scope_id!;
    const boundary = this.release.errors === "boundary";
    if (!this.scopes.has(scopeId)) throw boundary ? notFound() : notFound(`Scope ${JSON.stringify(scopeId)} not found.`);
    // TS CreateTarget: the aliases' scopes are authorized before anything is written
    if (this.release.aliases) this.aliases.authorize(req.with_aliases, (id) => this.scopes.has(id));
    const now = this.now().toISOString();
    const target: Record<string, unknown> = { id: newId(Prefix.target), created_time: now, updated_time: now, version: 1 };
    for (const f of INPUT_FIELDS) {
      const { wire, association } = spec(f);
      if (association) {
        // in the order they were given, as a later add appends them
        const ids = [...new Set(this.createIds(req, f))];
        this.checkMembers(f, scopeId, ids);
        target[wire] = ids;
      } else setValue(target, f, this.knows(f) ? getPath(req, wire) : undefined, this.defaultOf(f));
    }
    const record = target as TargetRecord;
    if (record.address) record.address = storedAddress(record.address, this.release);
    this.checkUniqueName(scopeId, record.name);
    // the aliases are made with the Target, in one transaction: a value taken fails the create
    if (this.release.aliases) this.aliases.create(record.id, req.with_aliases, () => newId("alt_"));
    this.targets.set(record.id, Object.freeze(record));
    this.changed(scopeId);
    const ids = this.idsByScope.get(scopeId) ?? new SortedIds();
    ids.add(record.id);
    this.idsByScope.set(scopeId, ids);
    this.indexName(record);
    return record;
  }

  /** The controller's value of a field left unset or cleared: the table's default, unless this release's differs. */
  private defaultOf(f: InputField): unknown {
    return this.release.defaults[f] ?? spec(f).default;
  }

  /** The ids a create body asks for in an association field (none when creates ignore them). */
  private createIds(req: CreateTargetRequest, f: InputField): string[] {
    return this.ignoreCreateAssociations ? [] : ((getPath(req, spec(f).wire) as string[] | null | undefined) ?? []);
  }

  /** The field errors of a PATCH (shape and rules), for a Target that exists. */
  checkUpdate(id: string, req: UpdateTargetRequest, mask: string[] | undefined): RequestField[] {
    const { errors, paths } = this.updated(this.getTarget(id, "update"), req, mask);
    return paths === 0 && errors.length === 0 ? noValidMask().requestFields : errors;
  }

  /**
   * PATCH: `mask` is the `update_mask` paths, or undefined to derive them from the body's keys.
   * Masked fields that are null or absent are cleared or reset to their defaults.
   */
  updateTarget(id: string, req: UpdateTargetRequest, mask: string[] | undefined): TargetRecord {
    const current = this.getTarget(id, "update");
    const { errors, paths, next } = this.updated(current, req, mask);
    if (paths === 0 && errors.length === 0) throw noValidMask();
    if (errors.length > 0) throw invalidFields(errors);
    this.checkVersion(current, req.version!, "update");
    updateRules(this.release, current, next);
    if (next.address) next.address = storedAddress(next.address, this.release);
    if (next.name !== current.name) this.checkUniqueName(current.scope_id, next.name);
    // the database's version and update-time triggers move only when the row changes
    if (sameRecord(next, current)) return this.answered(current, req, mask);
    next.version = current.version + 1;
    next.updated_time = this.now().toISOString();
    this.unindexName(current);
    this.indexName(next);
    this.targets.set(current.id, Object.freeze(next));
    this.changed(next.scope_id);
    return this.answered(next, req, mask);
  }

  /**
   * What a PATCH answers: the stored Target, and where the release echoes them (0.4–0.6, see
   * `patchEchoesUnmasked`), the body's fields its `?update_mask=` left out wherever the stored value is unset.
   */
  private answered(stored: TargetRecord, req: UpdateTargetRequest, mask: string[] | undefined): TargetRecord {
    if (!mask || !this.release.patchEchoesUnmasked) return stored;
    const answer = structuredClone(stored) as Record<string, unknown>;
    for (const path of MASK_PATHS) {
      const sent = getPath(req, path);
      if (!mask.includes(path) && sent !== undefined && sent !== null && getPath(answer, path) === undefined) setPath(answer, path, sent);
    }
    return answer as TargetRecord;
  }

  /** The record a PATCH would make, with its field errors and how many valid mask paths it named. */
  private updated(current: TargetRecord, req: UpdateTargetRequest, mask: string[] | undefined) {
    const errors: RequestField[] = [];
    // version 0 is missing: the request message's zero value (handlers/verifiers.go, v0.4.0 and v0.21.3)
    if (!req.version)
      errors.push({
        name: "version",
        description:
          this.release.errors === "ours"
            ? "This field is required: it must be the target's current version."
            : "Existing resource version is required for an update.",
      });
    const boundary = this.release.errors === "boundary";
    // Boundary: a type other than the Target's is refused where the release vets a PATCH (0.8+); the mask manager drops the other fixed fields
    if (boundary && this.release.ports.vetsUpdate && req.type !== undefined && req.type !== null && req.type !== "" && req.type !== current.type)
      errors.push({ name: "type", description: "Cannot modify the resource type." });
    for (const f of boundary ? [] : FIXED_ON_UPDATE) {
      const { wire, association } = spec(f);
      const sent = getPath(req, wire);
      if (sent === undefined || !this.knows(f)) continue;
      const now = getPath(current, wire);
      const same = association ? sameSet(now as string[], rules.checkIds(wire, this.prefixes(f), sent as string[] | null).ids) : sent === now;
      const how = association ? `use the :set-${listIn(this.release, f)?.routes.at(-1)?.noun} action` : "replace the target instead";
      if (!same) errors.push({ name: wire, description: `This field cannot be changed by an update; ${how}.` });
    }
    const paths = new Set<string>();
    for (const raw of [...(mask ?? derivedMask(req)), ...patchAlwaysApplies(this.release, req)]) {
      const f = BY_WIRE.get(raw);
      if (MASK_PATHS.includes(raw) && this.knows(f!)) paths.add(raw);
      else if (raw === "attributes" && !boundary)
        MASK_PATHS.filter((p) => p.startsWith("attributes.") && this.knows(BY_WIRE.get(p)!)).forEach((p) => paths.add(p));
      else if (mask && f && spec(f).replaces && !boundary)
        errors.push({ name: raw, description: "This field cannot be changed by an update; replace the target instead." });
      // Boundary's mask manager drops the paths it cannot map; ours names them
      else if (mask && raw !== "version" && !(f && spec(f).association) && this.release.errors === "ours")
        errors.push({ name: "update_mask", description: `Unknown field ${JSON.stringify(raw)} in the update mask.` });
    }
    const next = structuredClone(current) as TargetRecord;
    for (const path of paths) {
      const f = BY_WIRE.get(path)!;
      let value = getPath(req, path);
      // before 0.8 a PATCH's attributes are never vetted: port 0 is the proto's zero value, which clears the column
      if (boundary && f === "defaultPort" && value === 0 && !this.release.ports.vetsUpdate) value = undefined;
      if (spec(f).required && (value === undefined || value === null || value === ""))
        errors.push({ name: path, description: boundary && f === "name" ? "This field cannot be set to empty." : "This field is required." });
      else {
        const bad = rules.checkField(f, value, this.release, "update");
        if (bad) errors.push(bad);
        else setValue(next, f, value, this.defaultOf(f));
      }
    }
    for (const e of updateFieldRules(this.release, req, paths)) errors.push(e);
    return { errors, paths: paths.size, next };
  }

  /** Removes a Target. */
  deleteTarget(segment: string): void {
    const t = this.getTarget(segment, "delete");
    const id = t.id;
    this.targets.delete(id);
    this.aliases.detach(id);
    this.changed(t.scope_id);
    this.idsByScope.get(t.scope_id)!.delete(id);
    this.unindexName(t);
    this.deleted.push({ id, scope_id: t.scope_id, at: this.now().getTime() });
    if (this.deleted.length > MAX_DELETIONS_KEPT) this.deleted.splice(0, this.deleted.length - MAX_DELETIONS_KEPT);
  }

  /** Targets deleted since `since` (ms) in these projects: a paginated list's refresh reports them as `removed_ids`. */
  deletedSince(since: number, projects: ReadonlySet<string>): string[] {
    return this.deleted.filter((d) => d.at > since && projects.has(d.scope_id)).map((d) => d.id);
  }

  /** The projects a list of `scopeId` covers (itself, or with `recursive` every project below it). */
  projectsOf(scopeId: string): Set<string> {
    const scope = this.scopes.get(scopeId);
    if (scope?.type === "project") return new Set([scopeId]);
    return new Set([...this.scopes.values()].filter((s) => s.type === "project" && (scopeId === "global" || s.parent_scope_id === scopeId)).map((s) => s.id));
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

  /**
   * add/remove/set on one or more of a Target's lists in one change: `sent` are the lists the
   * route reads, each under the name it came by (current releases' `:set-credential-sources`
   * carries the brokered and the injected list; a set replaces both, an absent list with nothing).
   * A `set` to the current lists is a no-op: no version check and no new version, as in Boundary.
   */
  changeAssociation(segment: string, op: AssociationOp, version: number | undefined, sent: readonly SentIds[], noun: ListRoute["noun"]): TargetRecord {
    const current = this.getTarget(segment, "action");
    const { errors, wanted } = checkActionBody(this.release, op, version, sent, noun);
    if (errors.length > 0) throw invalidFields(errors, actionFieldsMessage(this.release));
    const fields = [...wanted.keys()];
    // one route changes lists of one kind (`:set-credential-sources` both credential lists)
    const kind = associationOf(fields[0]!).kind;
    const boundary = this.release.errors === "boundary";
    // Boundary's set of credentials selects the ids it finds (internal/target/query.go setChangesQuery): one that names nothing is dropped
    if (boundary && kind === "credential" && op === "set")
      for (const f of fields)
        wanted.set(
          f,
          wanted.get(f)!.filter((id) => this.referents.credential.has(id)),
        );
    const attachedTo = (f: AssociationField) => current[spec(f).wire as ListWire] ?? [];
    if (op === "set" && fields.every((f) => sameSet(attachedTo(f), wanted.get(f)!))) return current;
    injectedRefusal(this.release, fields, wanted, op);
    this.checkVersion(current, version!, op, kind);
    if (kind === "host" && op !== "remove" && current.address) throw addressConflict(op);
    const next: Record<string, unknown> = { ...current, version: current.version + 1, updated_time: this.now().toISOString() };
    for (const f of fields) {
      const name = sent.find((s) => s.field === f && (s.ids?.length ?? 0) > 0)?.name ?? spec(f).wire;
      const [attached, ids] = [attachedTo(f), wanted.get(f)!];
      if (op === "remove") {
        const deleted = ids.filter((h) => attached.includes(h)).length;
        const missing = ids.find((h) => !attached.includes(h));
        if (missing)
          throw actionMistake(this.release, name, op, kind, {
            kind: "not-attached",
            id: missing,
            why: "is not attached to the target",
            deleted,
            asked: ids.length,
          });
        next[spec(f).wire] = attached.filter((h) => !ids.includes(h));
        continue;
      }
      this.checkMembers(f, kind === "host" && this.release.hostSetsAnyProject ? undefined : current.scope_id, ids, (id, why) =>
        unknownMember(this.release, name, op, kind, id, why),
      );
      // lists keep the order ids were attached in (the join table's rows, read back unordered)
      if (op === "add") {
        const dup = ids.find((h) => attached.includes(h));
        if (dup) throw actionMistake(this.release, name, op, kind, { kind: "attached", id: dup, why: "is already attached to the target" });
        next[spec(f).wire] = [...attached, ...ids];
      } else next[spec(f).wire] = [...attached.filter((h) => ids.includes(h)), ...ids.filter((h) => !attached.includes(h))];
    }
    this.targets.set(current.id, Object.freeze(next as TargetRecord));
    this.changed(current.scope_id);
    return next as TargetRecord;
  }

  /**
   * Finds a target by name in a scope given by id or by name, both matched case-insensitively (as
   * Boundary does). Names are unique case-sensitively, so two targets can match: that is a 400
   * naming `name`, never a guess.
   */
  findTargetByName(name: string, scope: { id?: string; name?: string }): TargetRecord {
    const scopeIds = scope.id ? [scope.id] : [...this.scopes.values()].filter((s) => s.name?.toLowerCase() === scope.name!.toLowerCase()).map((s) => s.id);
    const key = (s: string) => nameKey(s, name.toLowerCase());
    const ids = scopeIds.flatMap((s) => [this.names.get(key(s)) ?? [], this.foldedNames.get(key(s)) ?? []].flat());
    if (ids.length === 0) throw notFound(`Target ${JSON.stringify(name)} not found in the given scope.`);
    if (ids.length > 1) {
      const names = ids
        .map((id) => JSON.stringify(this.targets.get(id)!.name))
        .sort()
        .join(", ");
      throw invalidField("name", `More than one target matches ${JSON.stringify(name)} case-insensitively (${names}); name the target by its id.`);
    }
    return this.targets.get(ids[0]!)!;
  }

  /** A stale version is answered as the emulated release answers it (409 here; 404 or 500 in Boundary). */
  private checkVersion(current: TargetRecord, version: number, op: "update" | AssociationOp, list?: ListKind): void {
    if (version !== current.version) throw staleVersion(this.release, current.id, current.version, version, op, list);
  }

  private checkUniqueName(scopeId: string, name: string): void {
    if (!this.names.has(nameKey(scopeId, name))) return;
    // Boundary: the database's unique constraint, which names no field (handlers/errors.go)
    if (this.release.errors === "boundary") throw new ControllerFault("InvalidArgument", rules.UNIQUENESS);
    throw invalidField("name", `A target named ${JSON.stringify(name)} already exists in scope ${scopeId}.`);
  }

  /** Every id names a host set (or library) of the target's project; `bad` makes the error (400 on create, the release's answer on an action). */
  private checkMembers(
    field: InputField,
    scopeId: string | undefined,
    ids: readonly string[],
    bad: (id: string, why: string) => ControllerFault = (id, why) => invalidField(spec(field).wire, `${id} ${why}.`),
  ): void {
    const { kind } = associationOf(field as ListField);
    const noun = REFERENTS[kind].noun;
    for (const id of ids) {
      const item = this.referents[kind].get(id);
      if (!item) throw bad(`${noun} ${id}`, "was not found");
      if (scopeId !== undefined && item.scope_id !== scopeId)
        throw bad(`${noun} ${id}`, `belongs to scope ${item.scope_id}, not to the target's scope ${scopeId}`);
    }
  }
}

/** A fixture item an id list may name: it has an id and a project. */
function isReferent(item: object): item is ReferentRecord {
  return "id" in item && typeof item.id === "string" && "scope_id" in item && typeof item.scope_id === "string";
}

/**
 * Stores a field's value in a record, trimmed where Boundary trims: a value is kept; unset, null or
 * "" (Boundary omits zero values) becomes `fallback` (the field's default), or removes it.
 */
function setValue(record: Record<string, unknown>, f: InputField, value: unknown, fallback: unknown): void {
  const { wire, trim } = spec(f);
  const v = trim && typeof value === "string" ? trimSpace(value) : value;
  if (v !== undefined && v !== null && v !== "") setPath(record, wire, v);
  else if (fallback !== undefined) setPath(record, wire, fallback);
  else deletePath(record, wire);
}

/** Two sorted id lists as one sorted list (a recursive list merges its projects' lists, never re-sorts). */
function* mergeById(a: readonly TargetRecord[], b: readonly TargetRecord[]): Steps<TargetRecord[]> {
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

/** A record's fields (not its version and times) are those of another: a PATCH that changes nothing. */
function sameRecord(a: TargetRecord, b: TargetRecord): boolean {
  const fields = (t: TargetRecord) => {
    const { version: _v, updated_time: _u, ...rest } = t;
    return JSON.stringify(rest, (_k, v: unknown) =>
      v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v,
    );
  };
  return fields(a) === fields(b);
}

/** A PATCH whose mask names no field the release updates (TS updateInRepo, v0.4.0 to v0.21.3). */
function noValidMask(): ControllerFault {
  return invalidFields([{ name: "update_mask", description: "No valid paths provided in the update mask." }], "No valid fields included in the update mask.");
}

/** Two id lists hold the same ids, whatever their order. */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

function nameKey(scopeId: string, name: string): string {
  return `${scopeId}\n${name}`;
}

/**
 * Without `update_mask`, the mask is the body's fields, a nested object's as `parent.field`
 * (`attributes.default_client_port`): a PATCH that clears one attribute leaves the others out of
 * the mask (grpc-gateway's field mask from the request body). An empty or null parent is the
 * parent itself.
 */
function derivedMask(req: UpdateTargetRequest): string[] {
  return Object.entries(req).flatMap(([key, value]) => {
    if (key === "version") return [];
    const inner = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
    return inner.length > 0 ? inner.map((k) => `${key}.${k}`) : [key];
  });
}
