/**
 * add/remove/set on a Target's id lists: the body's rules, the ids checked against the seed, and
 * the lists the change makes, in the order Boundary keeps them. Pure: the store records the result.
 */
import type { ListField, ListRoute, Release } from "../../wire/releases";
import { associationOf, spec, type AssociationOp, type ListWire } from "../../wire/target-fields";
import { checkActionBody, injectedRefusal, unknownMember, type SentIds } from "../rules/actions";
import { actionMistake, addressConflict, credentialConstraint, isCredentialLibrary, sourcesMismatch, staleVersion } from "../emulation";
import { invalidFields } from "../errors";
import type { TargetRecord } from "../record";
import type { Referents } from "./referents";
import { sameSet, type TargetRules } from "./validation";

/** One action on a Target: its op, the version it carries, the lists it sent (each under the name it came by) and the route's noun. */
export interface AssociationChange {
  op: AssociationOp;
  version: number | undefined;
  sent: readonly SentIds[];
  noun: ListRoute["noun"];
}

/**
 * The record an action makes of `current` (without its new version and time), or `current` itself
 * when a `set` names the lists it has (a no-op: no version check and no new version, as in Boundary).
 * Throws the release's answer to a bad body, a stale version or an id it refuses.
 */
export function associationChange(
  rules: TargetRules,
  seed: Referents,
  current: TargetRecord,
  change: AssociationChange,
): Record<string, unknown> | TargetRecord {
  const { op, version, sent, noun } = change;
  const release = rules.release;
  const { errors, wanted } = checkActionBody(release, op, version, sent, noun);
  if (errors.length > 0) throw invalidFields(errors, rules.dialect.fieldErrorsMessage);
  const fields = [...wanted.keys()];
  // one route changes lists of one kind (`:set-credential-sources` both credential lists)
  const kind = associationOf(fields[0]!).kind;
  // Boundary's set of credentials selects the ids it finds (internal/target/query.go setChangesQuery): one that names nothing is dropped
  if (rules.dialect.repositoryAnswers && kind === "credential" && op === "set")
    for (const f of fields)
      wanted.set(
        f,
        wanted.get(f)!.filter((id) => seed.referent("credential", id) !== undefined),
      );
  const attachedTo = (f: ListField) => current[spec(f).wire as ListWire] ?? [];
  if (op === "set" && fields.every((f) => sameSet(attachedTo(f), wanted.get(f)!))) return current;
  // 0.9+: createSources looks every id up first (brokered and injected merged, once each)
  if (kind === "credential" && op !== "set" && release.credentialSourcesLookedUp && rules.dialect.repositoryAnswers) {
    const ids = [...new Set(fields.flatMap((f) => wanted.get(f)!))];
    const found = ids.filter((id) => seed.referent("credential", id) !== undefined).length;
    if (found !== ids.length) throw sourcesMismatch(release, op, ids.length, found);
  }
  injectedRefusal(release, fields, wanted, op);
  // the repository reads the address before it moves the version (AddTargetHostSources, SetTargetHostSources: 0.12 to 0.21.3)
  if (kind === "host" && op !== "remove" && current.address) throw addressConflict(op, current.id);
  if (version !== current.version) throw staleVersion(release, current.id, current.version, version!, op, kind);
  if (kind === "credential" && op !== "set" && release.credentialSourcesLookedUp && rules.dialect.repositoryAnswers)
    repositoryRefusals(
      rules.release,
      op,
      current.scope_id,
      seed,
      fields.flatMap((f) => wanted.get(f)!.map((id) => ({ id, attached: attachedTo(f).includes(id) }))),
    );
  // a set inserts the ids not attached, libraries then static credentials: one of another project breaks the foreign key (0.10+)
  if (kind === "credential" && op === "set" && release.credentialSourceConstraints && rules.dialect.repositoryAnswers) {
    const inserted = fields.flatMap((f) => wanted.get(f)!.filter((id) => !attachedTo(f).includes(id)));
    for (const library of [true, false])
      if (inserted.some((id) => isCredentialLibrary(id) === library && seed.referent("credential", id)?.scope_id !== current.scope_id))
        throw credentialConstraint(release, library, "other-project", "set");
  }
  const next: Record<string, unknown> = { ...current };
  for (const f of fields) {
    const name = sent.find((s) => s.field === f && (s.ids?.length ?? 0) > 0)?.name ?? spec(f).wire;
    const [attached, ids] = [attachedTo(f), wanted.get(f)!];
    if (op === "remove") {
      const deleted = ids.filter((h) => attached.includes(h)).length;
      const missing = ids.find((h) => !attached.includes(h));
      if (missing)
        throw actionMistake(release, name, op, kind, {
          kind: "not-attached",
          id: missing,
          why: "is not attached to the target",
          deleted,
          asked: ids.length,
        });
      next[spec(f).wire] = attached.filter((h) => !ids.includes(h));
      continue;
    }
    rules.checkMembers(f, kind === "host" && release.hostSetsAnyProject ? undefined : current.scope_id, ids, (id, why) =>
      unknownMember(release, name, op, kind, id, why),
    );
    // lists keep the order ids were attached in (the join table's rows, read back unordered)
    if (op === "add") {
      const dup = ids.find((h) => attached.includes(h));
      if (dup) throw actionMistake(release, name, op, kind, { kind: "attached", id: dup, why: "is already attached to the target" });
      next[spec(f).wire] = [...attached, ...ids];
    } else next[spec(f).wire] = [...attached.filter((h) => ids.includes(h)), ...ids.filter((h) => !attached.includes(h))];
  }
  return next;
}

/**
 * What AddTargetCredentialSources and DeleteTargetCredentialSources (0.9+) refuse once the version
 * is checked: libraries' rows first, then static credentials'. An add breaks a key (`constraints`,
 * 0.10+: `credentialConstraint`); a remove counts each table's deleted rows, where the static check
 * words its counts from the libraries' (`rowsDeleted`, `len(deleteCredLibs)`: real v0.12.2, v0.15.5 and
 * v0.21.3 answered "static credential deleted 0 did not match request for 0").
 */
function repositoryRefusals(release: Release, op: "add" | "remove", projectId: string, seed: Referents, rows: { id: string; attached: boolean }[]): void {
  const libraries = rows.filter((r) => isCredentialLibrary(r.id));
  for (const group of [libraries, rows.filter((r) => !isCredentialLibrary(r.id))]) {
    const library = group === libraries;
    if (op === "remove") {
      const missing = group.find((r) => !r.attached);
      if (!missing) continue;
      const [noun, deleted] = library ? ["credential libraries", 0] : ["static credential", libraries.length];
      const why = "is not attached to the target";
      throw actionMistake(release, "", op, "credential", { kind: "not-attached", id: missing.id, why, deleted, asked: libraries.length, noun });
    }
    if (!release.credentialSourceConstraints) return;
    if (group.some((r) => r.attached)) throw credentialConstraint(release, library, "attached");
    if (group.some((r) => seed.referent("credential", r.id)?.scope_id !== projectId)) throw credentialConstraint(release, library, "other-project");
  }
}
