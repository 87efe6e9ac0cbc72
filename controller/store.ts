/**
 * The controller's state and every rule about Targets: required fields, limits, name uniqueness per
 * project, associations with host sets and credential libraries, and the `version` that each change
 * advances by exactly one. It knows nothing about HTTP: rules throw BoundaryError with a kind.
 */
import { randomBytes } from "node:crypto";
import {
  Prefix,
  TARGET_DEFAULTS,
  type CreateTargetRequest,
  type RequestField,
  type UpdateTargetRequest,
} from "../wire/target";
import { BoundaryError, invalidField, invalidFields, notFound } from "./errors";
import type { FixtureCredentialLibrary, FixtureHostSet, FixtureScope, FixtureWorker, Fixtures } from "./fixtures";
import * as rules from "./rules";

/**
 * A Target as the store keeps it. The wire view (`view.ts`) adds scope and summaries. Stored records
 * are frozen: every change stores a new record, which is what lets the view cache rendered JSON.
 */
export interface TargetRecord {
  id: string;
  scope_id: string;
  name: string;
  description?: string;
  type: "tcp";
  created_time: string;
  updated_time: string;
  version: number;
  host_set_ids: string[];
  application_credential_library_ids: string[];
  session_max_seconds: number;
  session_connection_limit: number;
  worker_filter?: string;
  default_port?: number;
}

export type Association = "host_sets" | "credential_libraries";
export type AssociationOp = "add" | "remove" | "set";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `prefix_` + 10 base62 characters, as Boundary makes ids. */
export function newId(prefix: string): string {
  const bytes = randomBytes(10);
  let out = prefix;
  for (const b of bytes) out += BASE62[b % 62];
  return out;
}

/** Mask paths a PATCH may change, and the body keys they come from. */
const UPDATABLE = ["name", "description", "session_max_seconds", "session_connection_limit", "worker_filter", "attributes.default_port"] as const;
type UpdatablePath = (typeof UPDATABLE)[number];
/** Fields a PATCH may carry only with their current value: they are changed elsewhere or never. */
const FIXED_ON_UPDATE = ["scope_id", "type", "host_set_ids", "application_credential_library_ids"] as const;

export interface StoreOptions {
  /** Ignore `host_set_ids`/`application_credential_library_ids` on create, as Boundary v0.4 does. */
  ignoreCreateAssociations?: boolean;
  now?: () => Date;
}

export class Store {
  readonly scopes = new Map<string, FixtureScope | { id: "global"; type: "global"; name: string; description: string; parent_scope_id?: undefined }>();
  readonly hostSets = new Map<string, FixtureHostSet>();
  readonly credentialLibraries = new Map<string, FixtureCredentialLibrary>();
  readonly workers: FixtureWorker[];
  private readonly targets = new Map<string, TargetRecord>();
  /** Sorted ids per project, rebuilt lazily after a create or delete in it. */
  private readonly idsByScope = new Map<string, string[]>();
  /** scope_id + "\n" + name → target id: names are unique per project. */
  private readonly names = new Map<string, string>();
  private readonly ignoreCreateAssociations: boolean;
  private readonly now: () => Date;

  constructor(fixtures: Fixtures, options: StoreOptions = {}) {
    this.scopes.set("global", { id: "global", type: "global", name: "Global", description: "Global Scope" });
    for (const s of fixtures.scopes) this.scopes.set(s.id, s);
    for (const h of fixtures.host_sets) this.hostSets.set(h.id, h);
    for (const c of fixtures.credential_libraries) this.credentialLibraries.set(c.id, c);
    this.workers = fixtures.workers;
    this.ignoreCreateAssociations = options.ignoreCreateAssociations ?? false;
    this.now = options.now ?? (() => new Date());
  }

  get size(): number {
    return this.targets.size;
  }

  /** Targets of a project, or with `recursive` of every project under `global` or an org. */
  listTargets(scopeId: string | undefined, recursive: boolean): TargetRecord[] {
    if (!scopeId) throw invalidField("scope_id", "This field is required.");
    const scope = this.scopes.get(scopeId);
    if (!scope) throw notFound(`Scope ${JSON.stringify(scopeId)} not found.`);
    if (!recursive && scope.type !== "project") {
      throw invalidField("scope_id", "This must be a project scope unless recursive is true.");
    }
    const projects =
      scope.type === "project" ? [scopeId] : [...this.scopes.values()].filter((s) => s.type === "project" && (scopeId === "global" || s.parent_scope_id === scopeId)).map((s) => s.id);
    const ids = projects.flatMap((p) => this.idsIn(p));
    if (projects.length > 1) ids.sort();
    return ids.map((id) => this.targets.get(id)!);
  }

  private idsIn(projectId: string): string[] {
    let ids = this.idsByScope.get(projectId);
    if (!ids) {
      ids = [...this.targets.values()].filter((t) => t.scope_id === projectId).map((t) => t.id).sort();
      this.idsByScope.set(projectId, ids);
    }
    return ids;
  }

  getTarget(id: string): TargetRecord {
    if (!id.startsWith(Prefix.target)) throw invalidField("id", `Incorrectly formatted identifier: it must start with ${Prefix.target}.`);
    const t = this.targets.get(id);
    if (!t) throw notFound();
    return t;
  }

  /**
   * `decodeErrors` are the fields the HTTP layer could not decode (wrong JSON types, unknown or
   * read-only keys): they join this method's own rule errors in one 400, and their keys are not
   * checked again (a key sent with the wrong type is not also "required").
   */
  createTarget(req: CreateTargetRequest, decodeErrors: RequestField[] = []): TargetRecord {
    const { errors, push } = collect(decodeErrors);
    if (req.version !== undefined && req.version !== 0) push({ name: "version", description: "This is a read only field." });
    if (!req.scope_id) push({ name: "scope_id", description: "This field is required." });
    else if (this.scopes.has(req.scope_id) && this.scopes.get(req.scope_id)!.type !== "project") {
      push({ name: "scope_id", description: "Targets can only be created in a project scope." });
    }
    push(rules.checkName(req.name));
    push(rules.checkDescription(req.description));
    push(rules.checkType(req.type));
    push(rules.checkSessionMaxSeconds(req.session_max_seconds));
    push(rules.checkSessionConnectionLimit(req.session_connection_limit));
    push(rules.checkDefaultPort(req.attributes?.default_port));
    push(rules.checkWorkerFilter(req.worker_filter));
    const apply = !this.ignoreCreateAssociations;
    const hostSets = rules.normalizeIds("host_set_ids", Prefix.hostSet, apply ? req.host_set_ids : []);
    const libraries = rules.normalizeIds("application_credential_library_ids", Prefix.credentialLibrary, apply ? req.application_credential_library_ids : []);
    [...hostSets.errors, ...libraries.errors].forEach(push);
    if (errors.length > 0) throw invalidFields(errors);
    const scopeId = req.scope_id!;
    if (!this.scopes.has(scopeId)) throw notFound(`Scope ${JSON.stringify(scopeId)} not found.`);
    this.checkMembers("host_sets", scopeId, hostSets.ids);
    this.checkMembers("credential_libraries", scopeId, libraries.ids);
    this.checkUniqueName(scopeId, req.name!);

    const now = this.now().toISOString();
    const target: TargetRecord = {
      id: newId(Prefix.target),
      scope_id: scopeId,
      name: req.name!,
      type: "tcp",
      created_time: now,
      updated_time: now,
      version: 1,
      host_set_ids: hostSets.ids,
      application_credential_library_ids: libraries.ids,
      session_max_seconds: req.session_max_seconds ?? TARGET_DEFAULTS.session_max_seconds,
      session_connection_limit: req.session_connection_limit ?? TARGET_DEFAULTS.session_connection_limit,
    };
    if (req.description !== undefined && req.description !== "") target.description = req.description;
    if (req.worker_filter !== undefined && req.worker_filter !== "") target.worker_filter = req.worker_filter;
    if (typeof req.attributes?.default_port === "number") target.default_port = req.attributes.default_port;
    this.targets.set(target.id, Object.freeze(target));
    this.idsByScope.delete(scopeId);
    this.names.set(nameKey(scopeId, target.name), target.id);
    return target;
  }

  /**
   * PATCH: `mask` is the `update_mask` paths, or undefined to derive them from the body's keys.
   * Masked fields that are null or absent are cleared or reset to their defaults.
   */
  updateTarget(id: string, req: UpdateTargetRequest, mask: string[] | undefined, decodeErrors: RequestField[] = []): TargetRecord {
    const current = this.getTarget(id);
    const { errors, push } = collect(decodeErrors);
    if (req.version === undefined || req.version === null) push({ name: "version", description: "This field is required: it must be the target's current version." });
    for (const field of FIXED_ON_UPDATE) {
      const sent = req[field];
      if (sent === undefined) continue;
      const now = current[field];
      const same = Array.isArray(now) ? rules.sameIds(now, [...new Set(sent as string[] | null ?? [])].sort()) : sent === now;
      if (!same) {
        const how = field === "host_set_ids" ? "use the :set-host-sets action" : field === "application_credential_library_ids" ? "use the :set-credential-libraries action" : "replace the target instead";
        push({ name: field, description: `This field cannot be changed by an update; ${how}.` });
      }
    }
    const paths = new Set<UpdatablePath>();
    for (const raw of mask ?? derivedMask(req)) {
      const path = raw === "attributes" ? "attributes.default_port" : raw;
      if ((UPDATABLE as readonly string[]).includes(path)) paths.add(path as UpdatablePath);
      else if (mask && (path === "scope_id" || path === "type")) errors.push({ name: path, description: "This field cannot be changed by an update; replace the target instead." });
      else if (mask && !["version", "host_set_ids", "application_credential_library_ids"].includes(path)) {
        errors.push({ name: "update_mask", description: `Unknown field ${JSON.stringify(path)} in the update mask.` });
      }
    }
    if (paths.size === 0 && errors.length === 0) throw invalidField("update_mask", "No valid fields included in the update mask.");

    const next: TargetRecord = { ...current };
    if (paths.has("name")) {
      const f = rules.checkName(req.name);
      if (f) push(f);
      else next.name = req.name!;
    }
    if (paths.has("description")) {
      const f = rules.checkDescription(req.description);
      push(f);
      setOptional(next, "description", req.description);
    }
    if (paths.has("worker_filter")) {
      const f = rules.checkWorkerFilter(req.worker_filter);
      push(f);
      setOptional(next, "worker_filter", req.worker_filter);
    }
    if (paths.has("session_max_seconds")) {
      const f = rules.checkSessionMaxSeconds(req.session_max_seconds);
      push(f);
      next.session_max_seconds = req.session_max_seconds ?? TARGET_DEFAULTS.session_max_seconds;
    }
    if (paths.has("session_connection_limit")) {
      const f = rules.checkSessionConnectionLimit(req.session_connection_limit);
      push(f);
      next.session_connection_limit = req.session_connection_limit ?? TARGET_DEFAULTS.session_connection_limit;
    }
    if (paths.has("attributes.default_port")) {
      const port = req.attributes?.default_port;
      const f = rules.checkDefaultPort(port);
      push(f);
      if (typeof port === "number") next.default_port = port;
      else delete next.default_port;
    }
    if (errors.length > 0) throw invalidFields(errors);
    this.checkVersion(current, req.version!);
    if (next.name !== current.name) this.checkUniqueName(current.scope_id, next.name);

    next.version = current.version + 1;
    next.updated_time = this.now().toISOString();
    this.names.delete(nameKey(current.scope_id, current.name));
    this.names.set(nameKey(next.scope_id, next.name), next.id);
    this.targets.set(id, Object.freeze(next));
    return next;
  }

  deleteTarget(id: string): void {
    const t = this.getTarget(id);
    this.targets.delete(id);
    this.idsByScope.delete(t.scope_id);
    this.names.delete(nameKey(t.scope_id, t.name));
  }

  /**
   * add/remove/set host sets or credential libraries. A `set` to the current list is a no-op: no
   * version check and no new version, as in Boundary.
   */
  changeAssociation(id: string, what: Association, op: AssociationOp, version: number | undefined, ids: readonly string[] | null | undefined): TargetRecord {
    const current = this.getTarget(id);
    const field = what === "host_sets" ? "host_set_ids" : "application_credential_library_ids";
    const prefix = what === "host_sets" ? Prefix.hostSet : Prefix.credentialLibrary;
    const errors: RequestField[] = [];
    if (version === undefined) errors.push({ name: "version", description: "This field is required: it must be the target's current version." });
    const { ids: wanted, errors: idErrors } = rules.normalizeIds(field, prefix, ids);
    errors.push(...idErrors);
    if (op !== "set" && wanted.length === 0) errors.push({ name: field, description: "This must contain at least one identifier." });
    if (errors.length > 0) throw invalidFields(errors);

    const attached = current[field];
    if (op === "set" && rules.sameIds(attached, wanted)) return current;
    this.checkVersion(current, version!);
    this.checkMembers(what, current.scope_id, wanted);
    const bad = (id: string, why: string) => invalidField(field, `${id} ${why}.`);
    let result: string[];
    if (op === "add") {
      const dup = wanted.find((h) => attached.includes(h));
      if (dup) throw bad(dup, "is already attached to the target");
      result = [...attached, ...wanted].sort();
    } else if (op === "remove") {
      const missing = wanted.find((h) => !attached.includes(h));
      if (missing) throw bad(missing, "is not attached to the target");
      result = attached.filter((h) => !wanted.includes(h));
    } else {
      result = wanted;
    }
    const next: TargetRecord = { ...current, [field]: result, version: current.version + 1, updated_time: this.now().toISOString() };
    this.targets.set(id, Object.freeze(next));
    return next;
  }

  /** Finds a target by name in a scope given by id or by name (both case-insensitive on names). */
  findTargetByName(name: string, scope: { id?: string; name?: string }): TargetRecord {
    const scopeIds = scope.id
      ? [scope.id]
      : [...this.scopes.values()].filter((s) => s.name?.toLowerCase() === scope.name!.toLowerCase()).map((s) => s.id);
    const lower = name.toLowerCase();
    const found = [...this.targets.values()].find((t) => scopeIds.includes(t.scope_id) && t.name.toLowerCase() === lower);
    if (!found) throw notFound(`Target ${JSON.stringify(name)} not found in the given scope.`);
    return found;
  }

  private checkVersion(current: TargetRecord, version: number): void {
    if (version !== current.version) {
      throw new BoundaryError(
        "Aborted",
        `Version mismatch: target ${current.id} is at version ${current.version}, but the request carried version ${version}.`,
        [{ name: "version", description: `The current version is ${current.version}.` }],
      );
    }
  }

  private checkUniqueName(scopeId: string, name: string): void {
    if (this.names.has(nameKey(scopeId, name))) {
      throw invalidField("name", `A target named ${JSON.stringify(name)} already exists in scope ${scopeId}.`);
    }
  }

  private checkMembers(what: Association, scopeId: string, ids: readonly string[]): void {
    const field = what === "host_sets" ? "host_set_ids" : "application_credential_library_ids";
    const table: Map<string, { scope_id: string }> = what === "host_sets" ? this.hostSets : this.credentialLibraries;
    const noun = what === "host_sets" ? "Host set" : "Credential library";
    for (const id of ids) {
      const item = table.get(id);
      if (!item) throw invalidField(field, `${noun} ${id} was not found.`);
      if (item.scope_id !== scopeId) throw invalidField(field, `${noun} ${id} belongs to scope ${item.scope_id}, not to the target's scope ${scopeId}.`);
    }
  }
}

/**
 * Collects field errors, starting from the ones found while decoding the request. A key that
 * failed to decode is not judged again by a rule (it was sent, just with the wrong type).
 */
function collect(decodeErrors: RequestField[]) {
  const errors: RequestField[] = [...decodeErrors];
  const badKeys = new Set(decodeErrors.map((f) => f.name.split(".")[0]));
  const push = (f: RequestField | undefined) => {
    if (f && !badKeys.has(f.name.split(".")[0])) errors.push(f);
  };
  return { errors, push };
}

function nameKey(scopeId: string, name: string): string {
  return `${scopeId}\n${name}`;
}

function setOptional(t: TargetRecord, key: "description" | "worker_filter", value: string | null | undefined): void {
  if (value === undefined || value === null || value === "") delete t[key];
  else t[key] = value;
}

/** Without `update_mask`, Boundary takes the mask from the JSON keys present in the body. */
function derivedMask(req: UpdateTargetRequest): string[] {
  const paths: string[] = [];
  for (const key of Object.keys(req)) {
    if (key === "version") continue;
    if (key === "attributes") paths.push("attributes.default_port");
    else paths.push(key);
  }
  return paths;
}
