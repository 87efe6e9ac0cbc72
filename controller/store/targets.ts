/**
 * The controller's Targets: each record and the `version` that each change advances by exactly
 * one, created, read, listed, updated, re-associated and deleted as the release emulated does. It
 * knows nothing about HTTP: rules throw ControllerFault with a kind. The body rules are
 * `validation.ts`'s, the indexes `indexes.ts`'s, the seed `referents.ts`'s.
 */
import { matches, parseFilter } from "../../common/filter";
import { DEFAULT_RELEASE, release, type ListField, type ListRoute, type Release } from "../../wire/releases";
import { Prefix, type CreateTargetRequest, type RequestField, type Target, type UpdateTargetRequest } from "../../wire/target";
import { INPUT_FIELDS, MASK_PATHS, getPath, setPath, spec, type AssociationOp } from "../../wire/target-fields";
import type { SentIds } from "../rules/actions";
import { storedAddress } from "../rules/address";
import { Aliases, maybeAlias } from "./aliases";
import { updateRules, staleVersion, versionAdvances, type Emulation } from "../emulation";
import { invalidField, invalidFields, notFound } from "../errors";
import type { Fixtures } from "./fixtures";
import { isTargetId, newId, type IdUse } from "../ids";
import { MAX_PAGE_SIZE } from "../pagination";
import { sameRecord, type TargetRecord } from "../record";
import * as rules from "../rules/fields";
import { derivedSteps } from "../derived";
import { dialectOf, type Dialect } from "../dialect";
import type { ListQuery } from "../rules/fields";
import { atOnce, filterSteps, type Steps } from "../slices";
import { associationChange } from "./associations";
import { TargetIndexes } from "./indexes";
import { Seed, type Referents } from "./referents";
import { TargetRules, noValidMask, setValue } from "./validation";

/** A field reconciled by the add/set/remove actions. */
export type AssociationField = ListField;

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

/** The controller's data: the seed (scopes, host sets, credential sources, workers) and the Targets. */
export class Store {
  /** The seeded resources Targets point at (the API does not change them). */
  readonly seed: Referents;
  /** The Boundary release emulated: every fact that differs between releases is asked of it (the release table's row). */
  readonly release: Release;
  /** Whose words the store answers in (ours or Boundary's), chosen once from the release row. */
  readonly dialect: Dialect;
  /** Target aliases (0.16+): made with a Target or declared in the fixtures. */
  readonly aliases: Aliases;
  /** The default and largest page of a paginated list (current releases). */
  readonly maxPageSize: number;
  private readonly targets = new Map<string, TargetRecord>();
  private readonly indexes = new TargetIndexes((id) => this.targets.get(id));
  private readonly rules: TargetRules;
  private readonly now: () => Date;

  /** A store holding the fixtures' seed and no Target. */
  constructor(fixtures: Fixtures, options: StoreOptions = {}) {
    this.seed = new Seed(fixtures);
    this.release = options.emulation === undefined ? DEFAULT_RELEASE : release(options.emulation);
    this.dialect = dialectOf(this.release);
    this.aliases = new Aliases(fixtures.aliases ?? []);
    this.maxPageSize = options.maxPageSize ?? MAX_PAGE_SIZE;
    const ignoreCreateAssociations = options.ignoreCreateAssociations === true || !this.release.createAppliesLists;
    this.rules = new TargetRules(this.release, this.dialect, this.seed, this.aliases, ignoreCreateAssociations);
    this.now = options.now ?? (() => new Date());
  }

  /** How many Targets the store holds. */
  get size(): number {
    return this.targets.size;
  }

  /** How many changes the Targets have seen (creates, updates, association changes, deletes): equal counts, the same Targets. */
  get changes(): number {
    return this.indexes.changes;
  }

  /** Targets of a project, or with `recursive` of every project under `global` or an org, by id. */
  listTargets(scopeId: string | undefined, recursive: boolean): TargetRecord[] {
    return [...atOnce(this.listTargetsSteps(scopeId, recursive))];
  }

  /** `listTargets` as steps that may pause (see slices.ts); the array is the store's: read it only. */
  *listTargetsSteps(scopeId: string | undefined, recursive: boolean): Steps<readonly TargetRecord[]> {
    const scope = this.listScope(scopeId, recursive);
    return yield* this.indexes.projectsSteps([...this.projectsOf(scope.id)]);
  }

  /** The scope a list names, checked: present, known, a project unless recursive. */
  private listScope(scopeId: string | undefined, recursive: boolean): { id: string } {
    if (!scopeId && this.dialect.listNeedsScope) throw invalidField("scope_id", "This field is required.");
    const scope = scopeId === undefined ? undefined : this.seed.scope(scopeId);
    if (!scope) throw this.dialect.scopeNotFound(scopeId);
    if (!recursive && scope.type !== "project") {
      throw invalidField("scope_id", "This must be a project scope unless recursive is true.");
    }
    return scope;
  }

  /** A list's query and scope checked as `queryTargets` checks them, listing nothing: whether it is recursive. */
  checkList(q: ListQuery): boolean {
    const recursive = rules.checkListQuery(this.release, q);
    if (q.filter) parseFilter(q.filter, rules.listFilter(this.release).parse);
    this.listScope(q.scopeId, recursive);
    return recursive;
  }

  /**
   * A list as the API asks for it: the query's rules (`recursive`, a parsable `filter`), then the
   * Targets whose `view` (the Target as this caller sees it) matches the filter.
   */
  queryTargets(q: ListQuery, view: (t: TargetRecord) => Target): TargetRecord[] {
    return [...atOnce(this.queryTargetsSteps(q, view))];
  }

  /**
   * `queryTargets` as steps that may pause (see slices.ts): filtering 100,000 Targets takes ~200 ms.
   * With `viewKey`, which names all `view` reads besides the record (the caller's actions), the
   * filtered list is kept while the Targets are unchanged (see derived.ts), for the next page.
   */
  *queryTargetsSteps(q: ListQuery, view: (t: TargetRecord) => Target, viewKey?: string): Steps<readonly TargetRecord[]> {
    const recursive = rules.checkListQuery(this.release, q);
    const { parse, missing } = rules.listFilter(this.release);
    const filter = q.filter ? parseFilter(q.filter, parse) : undefined;
    const records = yield* this.listTargetsSteps(q.scopeId, recursive);
    if (!filter) return records;
    const keep = () => filterSteps(records, (t) => matches(filter, { item: view(t) }, missing));
    return viewKey === undefined ? yield* keep() : yield* derivedSteps(records, `filter ${viewKey}\n${q.filter}`, keep);
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
    const bad = this.dialect.badTargetId(use, use === "action" ? this.dialect.fieldErrorsMessage : undefined);
    // TS validateUpdateRequest (0.8+): an id of no Target subtype's prefix has no subtype, "Unknown type provided." beside it (real v0.12.2 to v0.21.3)
    if (use === "update" && this.release.ports.vetsUpdate && this.dialect.repositoryAnswers && !segment.startsWith(Prefix.target))
      throw invalidFields([...bad.requestFields, { name: "type", description: "Unknown type provided." }], bad.message);
    throw bad;
  }

  /** The field errors of a create body (shape and rules, nothing that needs other records). */
  checkCreate(req: CreateTargetRequest): RequestField[] {
    return this.rules.checkCreate(req);
  }

  /** A create body's field errors in one 400, then its project looked up (404): what Boundary checks before the caller's grant. Returns the project. */
  vetCreate(req: CreateTargetRequest): string {
    const errors = this.rules.checkCreate(req);
    if (errors.length > 0) throw invalidFields(errors);
    const scopeId = req.scope_id!;
    if (!this.seed.scope(scopeId)) throw this.dialect.scopeNotFound(scopeId);
    return scopeId;
  }

  /** Creates a Target from a create body; the body's field errors, if any, all in one 400. */
  createTarget(req: CreateTargetRequest): TargetRecord {
    const scopeId = this.vetCreate(req);
    // TS CreateTarget: the aliases' scopes are authorized before anything is written
    if (this.release.aliases) this.aliases.authorize(req.with_aliases, (id) => this.seed.scope(id) !== undefined);
    const now = this.now().toISOString();
    const target: Record<string, unknown> = { id: newId(Prefix.target), created_time: now, updated_time: now, version: 1 };
    for (const f of INPUT_FIELDS) {
      const { wire, association } = spec(f);
      if (association) {
        // in the order they were given, as a later add appends them
        const ids = [...new Set(this.rules.createIds(req, f))];
        this.rules.checkMembers(f, scopeId, ids);
        target[wire] = ids;
      } else setValue(target, f, this.rules.knows(f) ? getPath(req, wire) : undefined, this.rules.defaultOf(f));
    }
    const record = target as TargetRecord;
    if (record.address) record.address = storedAddress(record.address, this.release);
    this.checkUniqueName(scopeId, record.name);
    // the aliases are made with the Target, in one transaction: a value taken fails the create
    if (this.release.aliases) this.aliases.create(record.id, req.with_aliases, () => newId("alt_"));
    this.targets.set(record.id, Object.freeze(record));
    this.indexes.added(record);
    return record;
  }

  /** The field errors of a PATCH (shape and rules), for a Target that exists. */
  checkUpdate(id: string, req: UpdateTargetRequest, mask: string[] | undefined): RequestField[] {
    const { errors, paths } = this.rules.updated(this.getTarget(id, "update"), req, mask);
    // Boundary: the validator's errors, and only past them (in updateInRepo, after the caller is judged) an empty mask
    if (this.dialect.repositoryAnswers) return errors;
    return paths === 0 && errors.length === 0 ? noValidMask().requestFields : errors;
  }

  /**
   * PATCH: `mask` is the `update_mask` paths, or undefined to derive them from the body's keys.
   * Masked fields that are null or absent are cleared or reset to their defaults.
   */
  updateTarget(id: string, req: UpdateTargetRequest, mask: string[] | undefined): TargetRecord {
    const current = this.getTarget(id, "update");
    const { errors, paths, masked, next } = this.rules.updated(current, req, mask);
    if (paths === 0 && errors.length === 0) throw noValidMask();
    if (errors.length > 0) throw invalidFields(errors);
    if (req.version! !== current.version) throw staleVersion(this.release, current.id, current.version, req.version!, "update");
    updateRules(this.release, current, next);
    if (next.address) next.address = storedAddress(next.address, this.release);
    if (next.name !== current.name) this.checkUniqueName(current.scope_id, next.name);
    // the database's version and update-time triggers move only when the Target's row changes (and,
    // from 0.12, UpdateTarget moves the version of a PATCH whose only path is the address)
    const advances = versionAdvances(this.release, current, next, masked);
    if (!advances && sameRecord(next, current)) return this.answered(current, req, mask);
    next.version = advances ? current.version + 1 : current.version;
    next.updated_time = advances ? this.now().toISOString() : current.updated_time;
    this.targets.set(current.id, Object.freeze(next));
    this.indexes.replaced(current, next);
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

  /** Removes a Target. */
  deleteTarget(segment: string): void {
    const t = this.getTarget(segment, "delete");
    this.targets.delete(t.id);
    this.aliases.detach(t.id);
    this.indexes.removed(t, this.now().getTime());
  }

  /** Targets deleted since `since` (ms) in these projects: a paginated list's refresh reports them as `removed_ids`. */
  deletedSince(since: number, projects: ReadonlySet<string>): string[] {
    return this.indexes.deletedSince(since, projects);
  }

  /** The projects a list of `scopeId` covers (itself, or with `recursive` every project below it). */
  projectsOf(scopeId: string): Set<string> {
    const scope = this.seed.scope(scopeId);
    if (scope?.type === "project") return new Set([scopeId]);
    return new Set([...this.seed.allScopes()].filter((s) => s.type === "project" && (scopeId === "global" || s.parent_scope_id === scopeId)).map((s) => s.id));
  }

  /**
   * add/remove/set on one or more of a Target's lists in one change: `sent` are the lists the
   * route reads, each under the name it came by (current releases' `:set-credential-sources`
   * carries the brokered and the injected list; a set replaces both, an absent list with nothing).
   * A `set` to the current lists is a no-op: no version check and no new version, as in Boundary.
   */
  changeAssociation(segment: string, op: AssociationOp, version: number | undefined, sent: readonly SentIds[], noun: ListRoute["noun"]): TargetRecord {
    const current = this.getTarget(segment, "action");
    const next = associationChange(this.rules, this.seed, current, { op, version, sent, noun });
    if (next === current) return current;
    next.version = current.version + 1;
    next.updated_time = this.now().toISOString();
    this.targets.set(current.id, Object.freeze(next as TargetRecord));
    this.indexes.changed(current.scope_id);
    return next as TargetRecord;
  }

  /**
   * Finds a target by name in a scope given by id or by name, both matched case-insensitively (as
   * Boundary does). Names are unique case-sensitively, so two targets can match: that is a 400
   * naming `name`, never a guess.
   */
  findTargetByName(name: string, scope: { id?: string; name?: string }): TargetRecord {
    const scopeIds = scope.id ? [scope.id] : [...this.seed.allScopes()].filter((s) => s.name?.toLowerCase() === scope.name!.toLowerCase()).map((s) => s.id);
    const ids = scopeIds.flatMap((s) => this.indexes.idsNamedLike(s, name));
    // Boundary's authResult answers its generic 404 (handlers.NotFoundError, v0.4.0 to v0.21.3; real v0.4.0 answered so)
    if (ids.length === 0) throw this.dialect.repositoryAnswers ? notFound() : notFound(`Target ${JSON.stringify(name)} not found in the given scope.`);
    if (ids.length > 1) {
      const names = ids
        .map((id) => JSON.stringify(this.targets.get(id)!.name))
        .sort()
        .join(", ");
      throw invalidField("name", `More than one target matches ${JSON.stringify(name)} case-insensitively (${names}); name the target by its id.`);
    }
    return this.targets.get(ids[0]!)!;
  }

  private checkUniqueName(scopeId: string, name: string): void {
    if (!this.indexes.hasName(scopeId, name)) return;
    throw this.dialect.nameTaken(name, scopeId);
  }
}
