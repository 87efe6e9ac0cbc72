/**
 * The table of `--emulate` values in docs/releases.md, rendered from the release table: one line per row,
 * with the actions each id list goes by (a column per list of the field table) and what changed in that
 * release (and inside its minor).
 */
import { OLDEST, RELEASES, isSpec, type Release } from "../../wire/releases";
import { LIST_FIELDS, type ListField } from "../../wire/target-fields";

/** Where the table sits in docs/releases.md: `npm run generate` replaces what lies between the markers. */
export const RELEASES_TABLE = {
  file: "docs/releases.md",
  start: "<!-- release-table:start (generated from wire/release-rows.ts by `npm run generate`) -->",
  end: "<!-- release-table:end -->",
} as const;

/** The action nouns the release routes for the list, or nothing where the release lacks the list. */
const nouns = (r: Release, field: ListField) => r.lists[field]?.routes.map((x) => `\`${x.noun}\``).join(", ") ?? "—";

/** The table's lines (without the markers). */
export function releasesTable(): string[] {
  const header = ["`--emulate`", "answers as", ...LIST_FIELDS.map((f) => `\`${f}\` actions`), "what changed"];
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...RELEASES.map((r) => {
      const key = isSpec(r) ? `\`${r.release}\` (default)` : `\`${r.release}\``;
      const as = isSpec(r) ? `the spec (v${OLDEST.release} and our answers)` : `Boundary v${r.patch}`;
      const changes = r.withinMinor ? `${r.changes}; *within the minor:* ${r.withinMinor}` : r.changes;
      return `| ${[key, as, ...LIST_FIELDS.map((f) => nouns(r, f)), changes.replace(/\|/g, "\\|")].join(" | ")} |`;
    }),
  ];
}
