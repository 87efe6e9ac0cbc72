/**
 * Whether a list action did what it asked, read from its answer. A 200 is not proof: real v0.4.0
 * answers `:set-credential-libraries` naming an unknown library 200 and attaches nothing (keeping
 * the version). So after every add/set/remove the answer's lists are compared with what was sent,
 * and ids the controller dropped (or kept, for a remove) are named.
 */
import { RELEASES, listIn, type ListField } from "../../wire/releases";
import type { Target } from "../../wire/target";
import { INPUT_FIELDS, getPath, spec, type AssociationOp, type InputField } from "../../wire/target-fields";
import type { ListIds } from "./api";

/** Every name any release answers a list under (the release table's), newest release first. */
export const ANSWER_NAMES: ReadonlyMap<InputField, readonly string[]> = new Map(
  INPUT_FIELDS.map((f) => [f, [...new Set([...RELEASES].reverse().flatMap((r) => listIn(r, f)?.answers ?? []))]]),
);

/** The ids of list `field` an answer holds, under whichever release's name it came; none when absent (Boundary omits an empty list). */
export function answeredIds(t: Target, field: ListField): string[] {
  for (const name of ANSWER_NAMES.get(field) ?? []) {
    const v = getPath(t, name);
    if (Array.isArray(v)) return v as string[];
  }
  return [];
}

/** One list an answer shows the action did not change as asked: the ids it `dropped` (add, set), `kept` (remove) or `added` (set). */
export interface ListMismatch {
  field: ListField;
  dropped: string[];
  kept: string[];
  added: string[];
}

/** What the answer `t` to `op` of `lists` shows was not done; empty when every list is as asked. */
export function listMismatches(op: AssociationOp, lists: readonly ListIds[], t: Target): ListMismatch[] {
  const out: ListMismatch[] = [];
  for (const l of lists) {
    const held = new Set(answeredIds(t, l.field));
    const sent = [...new Set(l.ids)];
    const dropped = op === "remove" ? [] : sent.filter((id) => !held.has(id));
    const kept = op === "remove" ? sent.filter((id) => held.has(id)) : [];
    const added = op === "set" ? [...held].filter((id) => !sent.includes(id)) : [];
    if (dropped.length + kept.length + added.length > 0) out.push({ field: l.field, dropped, kept, added });
  }
  return out;
}

/** Says what each mismatch is, naming the ids and the list's field. */
export function describeMismatches(mismatches: readonly ListMismatch[]): string {
  return mismatches
    .map((m) => {
      const parts = [
        m.dropped.length > 0 ? `did not attach ${m.dropped.join(", ")}` : "",
        m.kept.length > 0 ? `did not detach ${m.kept.join(", ")}` : "",
        m.added.length > 0 ? `still holds ${m.added.join(", ")}` : "",
      ].filter(Boolean);
      return `${spec(m.field).wire}: the controller ${parts.join(" and ")}`;
    })
    .join("; ");
}
