/**
 * Target aliases (Boundary 0.16+): global names such as `db.prod.example` that point to a Target.
 * Made with the Target (`with_aliases` on create) or declared in the fixtures; a path segment
 * without `_` is an alias value, resolved to its Target before the handler runs
 * (internal/alias/interceptor.go), and an alias whose value or Target is unknown is 404. Deleting a
 * Target leaves its aliases pointing nowhere (the database sets their destination to null).
 */
import type { RequestField, WithAlias } from "../wire/target";
import { ControllerFault, notFound } from "./errors";

/** One alias: its id (`alt_…`), value, scope (always `global`), the Target it points to and the host a session through it uses. */
export interface Alias {
  id: string;
  value: string;
  scope_id: string;
  destination_id?: string;
  host_id?: string;
}

/**
 * A Target alias value is a DNS name (migration 85/02 `wt_target_alias`): labels of a–z, 0–9 and
 * `-` (not first or last), 1–63 characters, joined by `.`, fewer than 254 characters, the last
 * label not all digits; compared case-insensitively (citext).
 */
export function aliasValueProblem(value: string): string | undefined {
  const labels = value.toLowerCase().split(".");
  if (value.length === 0 || value.length >= 254) return "must be 1 to 253 characters long";
  if (!labels.every((l) => /^(?!-)[a-z0-9-]{0,62}[a-z0-9]$/.test(l)))
    return "must be a DNS name: labels of letters, digits and '-' (not first or last), 1 to 63 characters, joined by '.'";
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return "must not end with an all-numeric label";
  return undefined;
}

/** A segment Boundary takes for an alias value rather than an id: non-empty, no `_` (alias.maybeAlias). */
export function maybeAlias(segment: string): boolean {
  return segment.length > 0 && !segment.includes("_");
}

/** The aliases the controller holds, by value (case-insensitive). */
export class Aliases {
  private readonly byValue = new Map<string, Alias>();

  /** The aliases of `seed` (the fixtures'), by value case-insensitively. */
  constructor(seed: readonly Alias[] = []) {
    for (const a of seed) this.byValue.set(a.value.toLowerCase(), { ...a });
  }

  /** The Target an alias value points to: 404 "Resource not found." when there is no such alias or it points nowhere. */
  resolve(value: string): string {
    const destination = this.byValue.get(value.toLowerCase())?.destination_id;
    if (!destination) throw notFound();
    return destination;
  }

  /** The aliases pointing to a Target, by value. */
  pointingTo(targetId: string): Alias[] {
    return [...this.byValue.values()].filter((a) => a.destination_id === targetId).sort((a, b) => (a.value < b.value ? -1 : 1));
  }

  /** The field errors of a create's `with_aliases` (TS validateCreateRequest, and what the database's constraints refuse). */
  check(withAliases: readonly WithAlias[] | undefined): RequestField[] {
    const fields: RequestField[] = [];
    const seen = new Set<string>();
    for (const a of withAliases ?? []) {
      const extra = Object.keys(a).filter((k) => !["value", "scope_id", "attributes"].includes(k));
      const problem =
        extra.length > 0
          ? "Included aliases can only specify a value, a scope id, and attributes."
          : aliasValueProblem(a.value) && `Alias value ${JSON.stringify(a.value)} ${aliasValueProblem(a.value)}.`;
      const scope = a.scope_id !== undefined && a.scope_id !== "global" ? "Aliases can only be created in the global scope." : undefined;
      const why = problem || scope;
      if (why) fields.push({ name: "with_aliases", description: why });
      else if (seen.has(a.value.toLowerCase())) fields.push({ name: "with_aliases", description: `Alias value ${JSON.stringify(a.value)} is given twice.` });
      seen.add(a.value.toLowerCase());
    }
    return fields.slice(0, 1);
  }

  /** Makes the aliases of a new Target (after `check`); a value already taken is Boundary's uniqueness 400, and nothing is made. */
  create(targetId: string, withAliases: readonly WithAlias[] | undefined, newId: () => string): void {
    const wanted = withAliases ?? [];
    if (wanted.some((a) => this.byValue.has(a.value.toLowerCase()))) {
      // handlers/errors.go genericUniquenessMsg, for the database's unique constraint on the value
      throw new ControllerFault("InvalidArgument", "Request attempted to make second resource with the same field value that must be unique.");
    }
    for (const a of wanted) {
      const host = a.attributes?.authorize_session_arguments?.host_id;
      this.byValue.set(a.value.toLowerCase(), { id: newId(), value: a.value, scope_id: "global", destination_id: targetId, ...(host && { host_id: host }) });
    }
  }

  /** A Target was deleted: its aliases point nowhere now. */
  detach(targetId: string): void {
    for (const a of this.byValue.values()) {
      if (a.destination_id === targetId) {
        delete a.destination_id;
        delete a.host_id;
      }
    }
  }
}
