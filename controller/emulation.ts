/**
 * Which Boundary the controller behaves like, as data: the store, the view and the routes ask the
 * profile instead of testing a mode. `spec` is the user's spec with Boundary v0.4's facts where the
 * spec is silent (and our clearer 409 for a stale version); `0.4` is Boundary v0.4.0 as it answers,
 * read in its source at that tag (messages included).
 */
import type { RequestField, UpdateTargetRequest } from "../wire/target";
import type { AssociationOp, InputField } from "../wire/target-fields";
import { BoundaryError, invalidField } from "./errors";
import type { TargetRecord } from "./record";

/** The releases the controller can emulate (`--emulate`). */
export const EMULATIONS = ["spec", "0.4", "0.21"] as const;
export type Emulation = (typeof EMULATIONS)[number];

/** The two id lists, by the noun of their actions. */
export type AssociationNoun = "host-sets" | "credential-libraries";

/** Everything that differs between the emulated releases. */
export interface Profile {
  emulation: Emulation;
  /** Which names the API uses: v0.4's (`host_set_ids`, `:set-host-sets`) or current ones (`host_source_ids`, `:set-host-sources`). */
  generation: "v0.4" | "current";
  /** Field errors of a create body beyond the spec's rules (current releases require `attributes.default_port`, refuse `worker_filter`). */
  createRules(req: { worker_filter?: unknown; attributes?: { default_port?: unknown } | null }): RequestField[];
  /** One line for the banner: which API this controller speaks. */
  describes: string;
  /** Create applies `host_set_ids` / `application_credential_library_ids` (real Boundary ignores them). */
  createAppliesAssociations: boolean;
  /** Defaults that differ from the field table's (`session_connection_limit` was 1 until Boundary 0.9.1). */
  defaults: Partial<Record<InputField, string | number>>;
  /** The answer to a mutation whose version is not the Target's. */
  staleVersion(targetId: string, current: number, sent: number, op: "update" | AssociationOp, noun?: AssociationNoun): BoundaryError;
  /** The answer to an add of an attached id, a remove of an unattached one, or an id of another project. */
  associationMistake(field: string, description: string, op: AssociationOp, noun: AssociationNoun): BoundaryError;
  /** The body of an empty list. */
  emptyList: Record<string, unknown>;
  /** List items carry the association ids and summaries (Boundary's list query does not load them). */
  listItemsCarryAssociations: boolean;
  /**
   * What a body's fields from later releases (the table's `since`) meet: the current API knows them;
   * Boundary v0.4 drops keys it does not know; the spec's controller names them in a 400.
   */
  newerFields: "known" | "dropped" | "refused";
  /** How the add/set/remove bodies' field errors are worded, where the release words them its own way. */
  associationWords?: {
    /** An id of no kind the list takes; `noun` is the action's (`host-sets` or `credential-libraries`). */
    malformed(noun: AssociationNoun, id: string): string;
    /** An add or remove with no id (`both`: the current credential action, which takes two lists). */
    empty(both: boolean): string;
    /** No version. */
    version: string;
  };
  /** Paths a PATCH applies whether or not its mask names them (current releases: `address`). */
  patchAlwaysApplies?(req: UpdateTargetRequest): string[];
  /**
   * Field errors of a PATCH beyond the field rules, given the paths it updates (current releases:
   * legacy and new worker filters exclude each other; the default port cannot be cleared).
   */
  updateFieldRules?(req: UpdateTargetRequest, paths: ReadonlySet<string>): RequestField[];
  /**
   * The release's rules on the record a valid, current-version PATCH makes: throws what the release
   * answers, or adjusts the draft `next` as its database does (a new worker filter clears the legacy one).
   */
  updateRules?(before: TargetRecord, req: UpdateTargetRequest, next: TargetRecord): void;
}

const SPEC: Profile = {
  emulation: "spec",
  generation: "v0.4",
  createRules: () => [],
  describes: "the spec's Target API (Boundary v0.4 names; a stale version is 409)",
  createAppliesAssociations: true,
  defaults: { sessionConnectionLimit: 1 },
  staleVersion: (id, current, sent) =>
    new BoundaryError("Aborted", `Version mismatch: target ${id} is at version ${current}, but the request carried version ${sent}.`, [
      { name: "version", description: `The current version is ${current}.` },
    ]),
  associationMistake: (field, description) => invalidField(field, description),
  emptyList: { items: [] },
  listItemsCarryAssociations: true,
  newerFields: "refused",
};

/** v0.4.0's repository operations, by action: the op names and messages its errors carry. */
const V04_OPS: Record<AssociationNoun, Record<AssociationOp, { op: string; handler: string }>> = {
  "host-sets": {
    add: { op: "target.(Repository).AddTargetHostSets", handler: "Unable to add host sets to target" },
    set: { op: "target.(Repository).SetTargetHostSets", handler: "Unable to set host sets in target" },
    remove: { op: "target.(Repository).DeleteTargeHostSets", handler: "Unable to remove host sets from target" },
  },
  "credential-libraries": {
    add: { op: "target.(Repository).AddTargetCredentialLibraries", handler: "Unable to add credential libraries to target" },
    set: { op: "target.(Repository).SetTargetCredentialLibraries", handler: "Unable to set credential libraries in target" },
    remove: { op: "target.(Repository).DeleteTargetCredentialLibraries", handler: "Unable to remove credential libraries from target" },
  },
};

/** A 500 as v0.4.0's handlers wrap a repository error: "<handler>: <op>: db.DoTx: <op>: <cause>." */
function internal(noun: AssociationNoun, op: AssociationOp, cause: string): BoundaryError {
  const o = V04_OPS[noun][op];
  return new BoundaryError("Internal", `${o.handler}: ${o.op}: db.DoTx: ${o.op}: ${cause}.`);
}

const V04: Profile = {
  emulation: "0.4",
  generation: "v0.4",
  createRules: () => [],
  describes: "Boundary v0.4.0 (create ignores associations; stale versions are 404 and 500, as it answers)",
  createAppliesAssociations: false,
  defaults: { sessionConnectionLimit: 1 },
  staleVersion: (id, _current, _sent, op, noun) => {
    if (op === "update") return new BoundaryError("NotFound", `Target ${JSON.stringify(id)} not found or incorrect version provided.`);
    // host sets: the version update touched no row; credential libraries: an explicit version check
    return noun === "host-sets"
      ? internal(noun, op, `${op === "set" ? "set target host sets: " : ""}updated target and 0 rows updated: search issue: error #1101`)
      : internal(noun!, op, "invalid target version: integrity violation: error #1105");
  },
  associationMistake: (_field, description, op, noun) => internal(noun, op, `${description.replace(/\.$/, "")}: integrity violation: error #1002`),
  emptyList: {},
  listItemsCarryAssociations: false,
  newerFields: "dropped",
};

/** v0.21.3's handler and repository messages for a stale version on the source actions. */
function staleSources(op: AssociationOp, noun: AssociationNoun): BoundaryError {
  if (noun === "host-sets") {
    if (op !== "remove") return new BoundaryError("Internal", `Failed to ${op} target host sources`);
    const o = "target.(Repository).DeleteTargetHostSources";
    return new BoundaryError("Internal", `Unable to remove host sources from target: ${o}: db.DoTx: ${o}: updated target and 0 rows updated: search issue: error #1101.`);
  }
  const Op = op[0]!.toUpperCase() + op.slice(1);
  const o = `target.(Repository).${op === "remove" ? "Delete" : Op}TargetCredentialSources`;
  const where = op === "add" ? "to" : op === "remove" ? "from" : "in";
  return new BoundaryError("Internal", `Unable to ${op} credential sources ${where} target: ${o}: db.DoTx: ${o}: invalid target version: integrity violation: error #1105.`);
}

/**
 * v0.21.3's answer to host sources on a Target with an address, or an address on a Target with host
 * sources: a repository Conflict, which the handlers surface as 400 FailedPrecondition (the wrapping
 * of the message is inferred from its error type).
 */
export function addressConflict(op: AssociationOp | "update"): BoundaryError {
  const [o, why] =
    op === "update"
      ? ["UpdateTarget", "unable to set address because one or more host sources is assigned to the given target"]
      : [`${op === "add" ? "Add" : "Set"}TargetHostSources`, `unable to ${op} host sources because a network address is directly assigned to the given target`];
  const at = `target.(Repository).${o}`;
  return new BoundaryError("FailedPrecondition", `${at}: db.DoTx: ${at}: ${why}: integrity violation: error #409`);
}

/** Present and not null: what Boundary's wrapper types call set (unlike the provider's `isSet`, "" counts). */
const given = (v: unknown) => v !== undefined && v !== null;

const V021: Profile = {
  emulation: "0.21",
  generation: "current",
  describes: "Boundary v0.21.3 (current names and actions: host sources, credential sources; v0.4's actions are 405)",
  createRules: (req) => {
    const fields: RequestField[] = [];
    if (req.worker_filter !== undefined) fields.push({ name: "worker_filter", description: "This field is deprecated. Use egress_worker_filter instead." });
    if (req.attributes?.default_port === undefined || req.attributes?.default_port === null) fields.push({ name: "attributes.default_port", description: "This field is required." });
    return fields;
  },
  createAppliesAssociations: false,
  defaults: {},
  staleVersion: (id, _current, _sent, op, noun) =>
    op === "update" ? new BoundaryError("NotFound", `Target ${JSON.stringify(id)} not found or incorrect version provided.`) : staleSources(op, noun!),
  associationMistake: (_field, description) => new BoundaryError("Internal", description),
  emptyList: { response_type: "complete", sort_by: "created_time", sort_dir: "desc" },
  listItemsCarryAssociations: false,
  newerFields: "known",
  // v0.21.3's validateAdd/Set/Remove…SourcesRequest
  associationWords: {
    malformed: (noun, id) => `Incorrectly formatted ${noun === "host-sets" ? "host" : "credential"} source identifier ${JSON.stringify(id)}.`,
    empty: (both) => (both ? "Brokered or Injected Application Credential Source IDs must be provided." : "Must be non-empty."),
    version: "Required field.",
  },
  patchAlwaysApplies: (req) => (given(req.address) ? ["address"] : []),
  updateFieldRules: (req, paths) => {
    const fields: RequestField[] = [];
    if (paths.has("attributes.default_port") && !given(req.attributes?.default_port)) fields.push({ name: "attributes.default_port", description: "This field is required." });
    if (!given(req.worker_filter)) return fields;
    for (const k of ["egress_worker_filter", "ingress_worker_filter"] as const) {
      if (given(req[k])) fields.push({ name: k, description: `Cannot set worker_filter and ${k}; they are mutually exclusive fields.` });
    }
    return fields;
  },
  updateRules: (before, _req, next) => {
    if (next.address && next.address !== before.address && next.host_set_ids.length > 0) throw addressConflict("update");
    // the database refuses a new legacy filter, and a new egress or ingress filter clears an old one
    if (next.worker_filter && !before.worker_filter) {
      const at = "target.(Repository).UpdateTarget";
      throw new BoundaryError("Internal", `Unable to update target: ${at}: db.DoTx: ${at}: db.Update: worker_filter is deprecated and cannot be set: db exception: error #1104.`);
    }
    const newFilter = next.egress_worker_filter !== before.egress_worker_filter || next.ingress_worker_filter !== before.ingress_worker_filter;
    if (newFilter && next.worker_filter === before.worker_filter) delete (next as { worker_filter?: string }).worker_filter;
  },
};

/** The profile of an emulation. */
export function profileOf(emulation: Emulation): Profile {
  return emulation === "0.4" ? V04 : emulation === "0.21" ? V021 : SPEC;
}
