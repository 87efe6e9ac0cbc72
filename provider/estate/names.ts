/**
 * The Pulumi names of adopted Targets. A name is made of parts (a Terraform address's modules,
 * resource name and index key; or a Target's project and name), each reduced to letters, digits,
 * `_` and `-`, joined by `-`. The same estate gives the same names on every run. Where two Targets
 * would still get one name (Boundary's names are unique per project only, and distinct names can
 * reduce alike: `web app` and `web-app`), each of them gets its id appended, so no name depends on
 * the order the Targets were listed in.
 */
import type { FoundTarget } from "./discovery";

/** A part of a name reduced to `[A-Za-z0-9_-]`, runs of anything else as one `-`, no `-` at either end. */
export function namePart(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * A unique Pulumi name for each Target, by id, following the module's rule; a Target whose parts
 * reduce to nothing is named `target-<id>`.
 */
export function resourceNames(targets: readonly FoundTarget[]): Map<string, string> {
  const proposed = new Map<string, string>();
  const count = new Map<string, number>();
  for (const t of targets) {
    const name = t.nameParts.map(namePart).filter(Boolean).join("-") || "target";
    proposed.set(t.id, name);
    count.set(name, (count.get(name) ?? 0) + 1);
  }
  const names = new Map<string, string>();
  for (const t of targets) {
    const name = proposed.get(t.id)!;
    names.set(t.id, count.get(name)! > 1 || name === "target" ? `${name}-${namePart(t.id)}` : name);
  }
  return names;
}
