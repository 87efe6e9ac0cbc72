/**
 * Target aliases (Boundary 0.16+): global names such as `db.prod.example` that point to a Target.
 * Made with the Target (`with_aliases` on create) or declared in the fixtures; a path segment
 * without `_` is an alias value, resolved to its Target before the handler runs
 * (internal/alias/interceptor.go), and an alias whose value or Target is unknown is 404. Deleting a
 * Target leaves its aliases pointing nowhere (the database sets their destination to null).
 */
import type { RequestField, WithAlias } from "../../wire/target";
import { ControllerFault, notFound } from "../errors";
import { UNIQUENESS } from "../dialect";

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

/**
 * The first constraint of the alias value domains (migrations 85/02, 96/01) a value breaks, in the
 * order PostgreSQL checks them (the base domain `wt_alias` first, each domain's by name), or undefined.
 */
function aliasConstraint(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed !== value) return "wt_alias_no_suround_spaces";
  if (trimmed.length === 0) return "wt_alias_too_short";
  if (/^[0-9]+$/.test(value.slice(value.lastIndexOf(".") + 1))) return "wt_target_alias_tld_not_only_numeric";
  if (value.length >= 254) return "wt_target_alias_too_long";
  return aliasValueProblem(value) ? "wt_target_alias_value_shape" : undefined;
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

  /** The field errors of a create's `with_aliases` (TS validateCreateRequest: an entry may carry only a value, a scope id and attributes). */
  check(withAliases: readonly WithAlias[] | undefined): RequestField[] {
    const extra = (withAliases ?? []).some((a) => Object.keys(a).some((k) => !["value", "scope_id", "attributes"].includes(k)));
    return extra ? [{ name: "with_aliases", description: "Included aliases can only specify a value, a scope id, and attributes." }] : [];
  }

  /**
   * Whether the caller may create each alias in its scope (TS aliasCreateAuthResult, after the
   * Target's own create is authorized): no scope is iam's 500, a scope that does not exist 404,
   * one where aliases cannot be made (any but `global`) 403.
   */
  authorize(withAliases: readonly WithAlias[] | undefined, scopeExists: (id: string) => boolean): void {
    for (const a of withAliases ?? []) {
      if (!a.scope_id) throw new ControllerFault("Internal", "iam.(Repository).LookupScope: missing public id: parameter violation: error #100");
      if (!scopeExists(a.scope_id)) throw notFound();
      if (a.scope_id !== "global") throw new ControllerFault("PermissionDenied", "Forbidden.");
    }
  }

  /**
   * Makes the aliases of a new Target, in the create's transaction (internal/target/repository.go
   * CreateTarget): a value the alias domain's constraints refuse is the repository's 500 "unable to
   * create target alias"; a value taken (or given twice) is Boundary's uniqueness 400. Nothing is made then.
   */
  create(targetId: string, withAliases: readonly WithAlias[] | undefined, newId: () => string): void {
    const wanted = withAliases ?? [];
    const at = "target.(Repository).CreateTarget";
    for (const a of wanted) {
      const constraint = aliasConstraint(a.value);
      if (constraint) {
        throw new ControllerFault(
          "Internal",
          `targets.(Service).createInRepo: unable to create target: ${at}: failed for ${targetId} target id: db.DoTx: ${at}: unable to create target alias: ` +
            `db.Create: ${constraint} constraint failed: check constraint violated: integrity violation: error #1000`,
        );
      }
    }
    const values = wanted.map((a) => a.value.toLowerCase());
    if (values.some((v, i) => this.byValue.has(v) || values.indexOf(v) !== i)) throw new ControllerFault("InvalidArgument", UNIQUENESS);
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
