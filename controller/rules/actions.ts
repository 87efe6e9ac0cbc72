/**
 * The rules of an add/set/remove action's body, as pure functions of the release: the version,
 * the ids' kinds, and an add or remove that names no id, worded as each release's validators
 * word them (`validateAdd…Request` in each release's target_service.go) or, for the spec's
 * controller, in our own clearer words. What the database refuses (an attached id added, an id
 * not attached removed) is the store's, with the release's 500s (`emulation.ts`).
 */
import { oneOf, hasAnyIdPrefix } from "../../common/rules";
import { actionFailure, listIn, type ListField, type ListRoute, type Release } from "../../wire/releases";
import type { RequestField } from "../../wire/target";
import type { AssociationOp, ListKind } from "../../wire/target-fields";
import { dialectOf } from "../dialect";
import { actionMistake } from "../emulation";
import { ControllerFault } from "../errors";
import { MAX_IDS_PER_REQUEST } from "./fields";

/** The ids an action's body sent for one list, under one of the names its route reads. */
export interface SentIds {
  field: ListField;
  name: string;
  ids: readonly string[] | null | undefined;
}

/** What one id names, from the route's noun: `host-sources` → "host source" (Boundary's messages say "host source identifier"). */
function singular(noun: ListRoute["noun"]): string {
  return noun.replace(/-/g, " ").replace(/ies$/, "y").replace(/s$/, "");
}

/** The body's field errors, and the ids wanted per list (in the order sent, without repeats; several names of one list merged, as 0.10–0.13 merge theirs). */
export function checkActionBody(
  r: Release,
  op: AssociationOp,
  version: number | undefined,
  sent: readonly SentIds[],
  noun: ListRoute["noun"],
): { errors: RequestField[]; wanted: Map<ListField, string[]> } {
  const d = dialectOf(r);
  const errors: RequestField[] = [];
  // version 0 is missing: the request message's zero value (v0.4.0 and v0.21.3 alike)
  if (!version) errors.push({ name: "version", description: d.versionMissingOnAction });
  const wanted = new Map<ListField, string[]>();
  for (const s of sent) {
    const ids = s.ids ?? [];
    const prefixes = listIn(r, s.field)?.prefixes ?? [];
    if (ids.length > MAX_IDS_PER_REQUEST) {
      errors.push({ name: s.name, description: `At most ${MAX_IDS_PER_REQUEST} identifiers per request; this one has ${ids.length}.` });
      continue;
    }
    const bad = ids.filter((id) => !hasAnyIdPrefix(id, prefixes));
    // Boundary names the first bad id of a field (its errors are a map by field); ours names each
    const named = d.namesEveryBadId ? bad : bad.slice(0, 1);
    for (const id of named) errors.push({ name: s.name, description: d.badListId(id, oneOf(prefixes), singular(noun)) });
    wanted.set(s.field, [...new Set([...(wanted.get(s.field) ?? []), ...ids])]);
  }
  if (op !== "set" && [...wanted.values()].every((w) => w.length === 0)) errors.push(...emptyAction(r, sent, noun, op));
  return { errors, wanted };
}

/** An add or remove with no id: each name the route reads, or the credential-sources route's own words and fields. */
function emptyAction(r: Release, sent: readonly SentIds[], noun: ListRoute["noun"], op: "add" | "remove"): RequestField[] {
  const noIds = dialectOf(r).noIds;
  if (noIds) return sent.map((s) => ({ name: s.name, description: noIds }));
  if (noun === "credential-sources") {
    const { message, fields } = r.emptyCredentialSources;
    return fields[op].map((name) => ({ name, description: message }));
  }
  return sent.map((s) => ({ name: s.name, description: "Must be non-empty." }));
}

/**
 * An id of an add or set that names nothing (or another project): v0.4's add of a credential
 * library is the database's foreign key (its set drops the id: the store); otherwise the
 * release's answer to the mistake (ours a 400).
 */
export function unknownMember(r: Release, name: string, op: AssociationOp, kind: ListKind, id: string, why: string): ControllerFault {
  if (dialectOf(r).repositoryAnswers && kind === "credential" && r.credentialLibraryForeignKey && why === "was not found") {
    const cause =
      'unable to create target credential libraries: db.CreateItems: db.Create: create failed: insert or update on table "target_credential_library" ' +
      'violates foreign key constraint "credential_library_fkey": integrity violation: error #1003';
    return new ControllerFault("Internal", actionFailure(r, kind, op, cause));
  }
  return actionMistake(r, name, op, kind, { kind: "unknown", id, why });
}

/**
 * Throws what an open-source controller answers an add, set or remove carrying injected
 * credential sources on a tcp Target (tcp.VetCredentialSources, 0.10+): the repository's 500. Add
 * and remove vet in createSources; set vets its additions itself, unwrapped.
 */
export function injectedRefusal(r: Release, fields: readonly ListField[], wanted: ReadonlyMap<ListField, string[]>, op: AssociationOp): void {
  const words = r.injectedOnTcp;
  if (!words || !dialectOf(r).repositoryAnswers || !fields.includes("injectedApplicationCredentialSourceIds")) return;
  if ((wanted.get("injectedApplicationCredentialSourceIds")?.length ?? 0) === 0) return;
  const handler = r.actionErrors.handler.credential[op];
  const wrap = "wrap" in handler ? handler.wrap : handler.fixed;
  const at = `target.(Repository).${r.actionErrors.ops.credential[op]}`;
  throw new ControllerFault("Internal", op === "set" ? `${wrap}: ${words}.` : `${wrap}: ${at}: target.(Repository).createSources: ${words}.`);
}
