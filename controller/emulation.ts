/**
 * Which Boundary the controller behaves like, and the answers that differ between releases, built
 * from the release table (`wire/releases.ts`): the store, the view and the routes ask these
 * functions instead of testing a release. `spec` is the user's spec with Boundary v0.4's facts
 * where it is silent (and our clearer answers); `0.4` … `0.21` are those releases as they answer.
 */
import { RELEASE_KEYS, actionFailure, isSpec, knows, listWords, replacement, requires, type Release, type ReleaseKey } from "../wire/releases";
import type { RequestField, UpdateTargetRequest } from "../wire/target";
import type { AssociationOp, ListKind } from "../wire/target-fields";
import { ControllerFault, invalidField } from "./errors";
import { sameRecord, type TargetRecord } from "./record";

/** The releases the controller can emulate (`--emulate`): every row of the release table. */
export const EMULATIONS = RELEASE_KEYS;
/** A release the controller can emulate. */
export type Emulation = ReleaseKey;

export type { ListKind } from "../wire/target-fields";

/** One line for the banner: which API this controller speaks. */
export function describeEmulation(r: Release): string {
  if (isSpec(r)) return `the spec's Target API (Boundary ${r.generation} names; a stale version is 409)`;
  const within = r.withinMinor ? `; ${r.withinMinor}` : "";
  return `Boundary v${r.patch} (${listWords(r)}${within})`;
}

/** The answer to a mutation whose version is not the Target's. */
export function staleVersion(r: Release, targetId: string, current: number, sent: number, op: "update" | AssociationOp, list?: ListKind): ControllerFault {
  if (r.errors === "ours") {
    return new ControllerFault("Aborted", `Version mismatch: target ${targetId} is at version ${current}, but the request carried version ${sent}.`, [
      { name: "version", description: `The current version is ${current}.` },
    ]);
  }
  // TS updateInRepo: 0 rows updated reads as not found
  if (op === "update") return new ControllerFault("NotFound", `Target ${JSON.stringify(targetId)} not found or incorrect version provided.`);
  // host lists: the version update touched no row; credential lists: an explicit version check
  const cause =
    list === "host"
      ? `${op === "set" ? r.actionErrors.staleSet : ""}updated target and 0 rows updated: search issue: error #1101`
      : "invalid target version: integrity violation: error #1105";
  return new ControllerFault("Internal", actionFailure(r, list!, op, cause));
}

/** v0.4.0's database words for a host set added again (the primary key) and for one that does not exist (the foreign key). */
const HOST_SET_CONSTRAINTS: Partial<Record<"attached" | "unknown", string>> = {
  attached: 'duplicate key value violates unique constraint "target_host_set_pkey": unique constraint violation: integrity violation: error #1002',
  unknown: 'insert or update on table "target_host_set" violates foreign key constraint "target_host_set_host_set_id_fkey": integrity violation: error #1003',
};

/** An add or remove of credential sources naming ids the repository's createSources does not find (0.9+): its 500, before the version is checked. */
export function sourcesMismatch(r: Release, op: AssociationOp, expected: number, got: number): ControllerFault {
  const words = r.actionErrors.handler.credential[op];
  const wrap = "wrap" in words ? words.wrap : words.fixed;
  const at = `target.(Repository).${r.actionErrors.ops.credential[op]}`;
  const why = `mismatch between request and returned source ids, expected ${expected} got ${got}`;
  return new ControllerFault("Internal", `${wrap}: ${at}: target.(Repository).createSources: ${why}: integrity violation: error #1003.`);
}

/** A credential source is a library (`clvlt_`, `clvsclt_`, `clvllt_`) or a static credential (`cred…_`): the repository keeps them in two tables. */
export const isCredentialLibrary = (id: string) => !id.startsWith("cred");

/**
 * An add of credential sources the database refuses (0.10+, `credentialSourceConstraints`): the
 * repository creates the libraries' rows, then the static credentials' (AddTargetCredentialSources),
 * each one INSERT, where a row already there breaks the primary key before any foreign key is checked,
 * and one of another project breaks the project-scoped foreign key of migration 46/03. Real v0.12.2,
 * v0.15.5 and v0.21.3 answered so for static credentials; the libraries' words are the same code's
 * with their table's names [inferred]. A set inserts only the ids not attached (query.go setChangesQuery),
 * libraries' rows first, once the version has moved.
 */
export function credentialConstraint(r: Release, library: boolean, violation: "attached" | "other-project", op: "add" | "set" = "add"): ControllerFault {
  const [noun, table, fkey] = library
    ? ["credential library", "target_credential_library", "credential_library_fkey"]
    : ["static credential", "target_static_credential", "credential_static_fkey"];
  // SetTargetCredentialSources words its inserts otherwise, the static one with a space before its colon (0.9 to 0.21.3)
  const doing =
    op === "add" ? `unable to create target ${noun}` : library ? "unable to add target credential libraries" : "unable to add target static credential ";
  const why =
    violation === "attached"
      ? `duplicate key value violates unique constraint "${table}_pkey": unique constraint violation: integrity violation: error #1002`
      : `insert or update on table "${table}" violates foreign key constraint "${fkey}": integrity violation: error #1003`;
  return new ControllerFault("Internal", actionFailure(r, "credential", op, `${doing}: db.CreateItems: ${why}`));
}

/** What an action meets that the database refuses: an attached id added again, an id not attached removed, an id not found or of another project. */
export type ActionMistake =
  | { kind: "attached" | "missing" | "unknown"; id: string; why: string }
  /** `noun` names the rows the count check counted, when not the release's `removedMismatch`. */
  | { kind: "not-attached"; id: string; why: string; deleted: number; asked: number; noun?: string };

/**
 * The answer to an action's mistake: ours is a 400 naming the field; Boundary's is the repository
 * error wrapped in the handler's 500. A remove of ids that are not all attached is the repository's
 * count check (`… deleted 0 did not match request for 1`, internal/target/repository_*.go); the
 * database's own refusals (unique, foreign key) are worded from their cause [inferred].
 */
export function actionMistake(r: Release, field: string, op: AssociationOp, list: ListKind, m: ActionMistake): ControllerFault {
  if (r.errors === "ours") return invalidField(field, `${m.id} ${m.why}.`);
  const constraint = list === "host" && r.hostSetConstraints && HOST_SET_CONSTRAINTS[m.kind as "attached" | "unknown"];
  if (constraint)
    return new ControllerFault(
      "Internal",
      actionFailure(r, list, op, `unable to add target host sets: db.CreateItems: db.Create: create failed: ${constraint}`),
    );
  const cause =
    m.kind === "not-attached"
      ? `${m.noun ?? r.actionErrors.removedMismatch[list]} deleted ${m.deleted} did not match request for ${m.asked}: search issue: error #1101`
      : `${m.id} ${m.why}: integrity violation: error #1002`;
  return new ControllerFault("Internal", actionFailure(r, list, op, cause));
}

/**
 * The answer to host sources on a Target with an address, or an address on a Target with host
 * sources (0.12+): a repository Conflict, which the handlers surface as 400 FailedPrecondition, in
 * the words of its wrapping (internal/target/repository_host_source.go AddTargetHostSources wraps
 * "error creating sets"; UpdateTarget "failed for <id>" and updateInRepo "unable to update target";
 * real v0.12.2, v0.15.5 and v0.21.3 answered so).
 */
export function addressConflict(op: AssociationOp | "update", targetId: string): ControllerFault {
  if (op === "update") {
    const at = "target.(Repository).UpdateTarget";
    const why = "unable to set address because one or more host sources is assigned to the given target";
    return new ControllerFault("FailedPrecondition", `${updateInRepo(at, targetId)}: db.DoTx: ${at}: ${why}: integrity violation: error #409`);
  }
  const at = `target.(Repository).${op === "add" ? "Add" : "Set"}TargetHostSources`;
  const why = `unable to ${op} host sources because a network address is directly assigned to the given target`;
  return new ControllerFault(
    "FailedPrecondition",
    `${at}: ${op === "add" ? "error creating sets: " : ""}db.DoTx: ${at}: ${why}: integrity violation: error #409`,
  );
}

/** How updateInRepo (0.12+) wraps the repository's UpdateTarget error: its op and words, then the repository's "failed for <id>". */
function updateInRepo(at: string, targetId: string): string {
  return `targets.(Service).updateInRepo: unable to update target: ${at}: failed for ${targetId}`;
}

/** Present and not null: what Boundary's wrapper types call set (unlike the provider's `isSet`, "" counts). */
const given = (v: unknown) => v !== undefined && v !== null;

/** Field errors of a create body beyond the field rules: what the release requires, and fields it replaced (TS validateCreateRequest, tcp.go Vet). */
export function createRules(r: Release, req: { type?: unknown; worker_filter?: unknown; attributes?: { default_port?: unknown } | null }): RequestField[] {
  const fields: RequestField[] = [];
  if (replacement(r, "workerFilter") && req.worker_filter !== undefined)
    fields.push({ name: "worker_filter", description: "This field is deprecated. Use egress_worker_filter instead." });
  // the tcp subtype's Vet asks for the port: a body of no known type is never vetted (real v0.12.2 to v0.21.3, an empty body)
  if (requires(r, "defaultPort") && req.type === "tcp" && !given(req.attributes?.default_port))
    fields.push({ name: "attributes.default_port", description: "This field is required." });
  return fields;
}

/** Paths a PATCH applies whether or not its mask names them: `address` where the release has it (TS updateInRepo). */
export function patchAlwaysApplies(r: Release, req: UpdateTargetRequest): string[] {
  return knows(r, "address") && given(req.address) ? ["address"] : [];
}

/**
 * Field errors of a PATCH beyond the field rules, given the paths it updates: a required default
 * port cannot be cleared (checked only when the mask names it: tcp.go VetForUpdate); a legacy and a
 * new worker filter exclude each other (TS validateUpdateRequest).
 */
export function updateFieldRules(r: Release, req: UpdateTargetRequest, paths: ReadonlySet<string>): RequestField[] {
  const fields: RequestField[] = [];
  if (requires(r, "defaultPort") && paths.has("attributes.default_port") && !given(req.attributes?.default_port))
    fields.push({ name: "attributes.default_port", description: "This field is required." });
  if (!replacement(r, "workerFilter") || !given(req.worker_filter)) return fields;
  for (const k of ["egress_worker_filter", "ingress_worker_filter"] as const) {
    if (given(req[k])) fields.push({ name: k, description: `Cannot set worker_filter and ${k}; they are mutually exclusive fields.` });
  }
  return fields;
}

/**
 * A valid, current-version PATCH advances the version (and the update time): where the Target's own
 * row changes (the database's triggers), and from 0.12 wherever `address` is its only path, changed
 * or not (internal/target/repository.go UpdateTarget puts `Version` in the mask: the address is a
 * child row, whose change alone no trigger sees). Beside another path, a new address alone keeps it.
 */
export function versionAdvances(r: Release, before: TargetRecord, next: TargetRecord, paths: ReadonlySet<string>): boolean {
  if (!r.addressChildRow) return !sameRecord(before, next);
  if (paths.size === 1 && paths.has("address")) return true;
  const { address: _b, ...row } = before;
  const { address: _n, ...nextRow } = next;
  return !sameRecord(row as TargetRecord, nextRow as TargetRecord);
}

/**
 * The release's rules on the record a valid, current-version PATCH makes: throws what the release
 * answers, or adjusts the draft `next` as its database does (a new worker filter clears the legacy
 * one: the trigger of migration 59/01).
 */
export function updateRules(r: Release, before: TargetRecord, next: TargetRecord): void {
  if (knows(r, "address") && next.address && next.address !== before.address && next.host_set_ids.length > 0) throw addressConflict("update", before.id);
  if (!replacement(r, "workerFilter")) return;
  if (next.worker_filter && !before.worker_filter) {
    // the database's trigger (migration 59/01) refuses it; real v0.12.2, v0.15.5 and v0.21.3 answered these words
    const at = "target.(Repository).UpdateTarget";
    const why = "db.Update: worker_filter is deprecated and cannot be set: integrity violation: error #1104";
    throw new ControllerFault("Internal", `${updateInRepo(at, before.id)}: db.DoTx: ${at}: ${why}`);
  }
  const newFilter = next.egress_worker_filter !== before.egress_worker_filter || next.ingress_worker_filter !== before.ingress_worker_filter;
  if (newFilter && next.worker_filter === before.worker_filter) delete (next as { worker_filter?: string }).worker_filter;
}
