/**
 * The current API's names (Boundary ≥ 0.11, emulated by `--emulate 0.21`), translated at the edge:
 * the store keeps one record shape; responses rename what current releases renamed, and requests
 * keep only the keys the current API knows (Boundary parses with DiscardUnknown, so an old name is
 * silently dropped: `host_set_ids` sent to `:set-host-sources` clears the host sources).
 */
import { READ_ONLY_FIELDS, type Target, type TargetAction } from "../wire/target";
import { INPUT_FIELDS, spec } from "../wire/target-fields";
import { BoundaryError } from "./errors";

/** v0.4's action names → current ones (grants with old names map the same way). */
export function currentAction(action: TargetAction): string {
  return action.replace("host-sets", "host-sources").replace("credential-libraries", "credential-sources");
}

/** A Target with current names: id lists and summaries renamed, actions renamed. */
export function toCurrent(t: Target): Target {
  const out: Record<string, unknown> = { ...t };
  for (const f of INPUT_FIELDS) {
    const a = spec(f).association;
    if (!a) continue;
    for (const [from, to] of [[spec(f).wire, a.current.wire], [a.summaries, a.current.summaries]] as const) {
      if (from !== undefined && from !== to && from in out) {
        out[to] = out[from];
        delete out[from];
      }
    }
  }
  if (t.authorized_actions) out.authorized_actions = t.authorized_actions.map((a) => currentAction(a as TargetAction));
  return out as Target;
}

/** The top-level keys a current create or PATCH body may carry (the rest are discarded, as Boundary does). */
const KNOWN = new Set<string>([...INPUT_FIELDS.filter((f) => !spec(f).association).map((f) => spec(f).wire.split(".")[0]!), "version", ...READ_ONLY_FIELDS]);

/** A current create/PATCH body with the keys the current API does not know dropped (id lists included: only actions change them). */
export function discardUnknown(body: unknown): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([k]) => KNOWN.has(k)));
}

/** The fields later releases added (the table's `since`): top-level keys, and keys inside `attributes`. */
const NEWER = new Set(INPUT_FIELDS.filter((f) => spec(f).since && !spec(f).wire.includes(".")).map((f) => spec(f).wire));
const NEWER_ATTRIBUTES = INPUT_FIELDS.filter((f) => spec(f).since && spec(f).wire.startsWith("attributes.")).map((f) => spec(f).wire.slice("attributes.".length));

/** A create/PATCH body as Boundary v0.4 reads it: the keys later releases added are dropped, silently. */
export function dropNewerFields(body: unknown): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(body).filter(([k]) => !NEWER.has(k)));
  const attributes = out.attributes;
  if (attributes !== null && typeof attributes === "object" && !Array.isArray(attributes)) {
    out.attributes = Object.fromEntries(Object.entries(attributes).filter(([k]) => !NEWER_ATTRIBUTES.includes(k)));
  }
  return out;
}

/** An error whose request fields name v0.4's id lists, renamed for a current release (others as they are). */
export function withCurrentNames(err: unknown): unknown {
  if (!(err instanceof BoundaryError) || err.requestFields.length === 0) return err;
  const renames = new Map(INPUT_FIELDS.flatMap((f) => (spec(f).association ? [[spec(f).wire, spec(f).association!.current.wire] as const] : [])));
  const fields = err.requestFields.map((f) => ({ ...f, name: renames.get(f.name) ?? f.name }));
  return new BoundaryError(err.kind, err.message, fields, err.headers, err.bare);
}
