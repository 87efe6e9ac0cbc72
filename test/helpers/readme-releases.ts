/**
 * The table of `--emulate` values in docs/releases.md, rendered from the release table: one line per row,
 * with the actions each list goes by and what changed in that release (and inside its minor).
 */
import { RELEASES, type Release } from "../../wire/releases";

/** Where the table sits in docs/releases.md. */
export const START = "<!-- release-table:start (generated from wire/release-rows.ts; test/wire/readme.test.ts checks it) -->";
/** Where the table ends in docs/releases.md. */
export const END = "<!-- release-table:end -->";

const nouns = (r: Release, field: "hostSetIds" | "applicationCredentialLibraryIds") => (r.lists[field]?.routes ?? []).map((x) => `\`${x.noun}\``).join(", ");

/** The table, as docs/releases.md holds it between START and END. */
export function releaseTable(): string {
  const lines = [
    "| `--emulate` | answers as | host list actions | credential list actions | what changed |",
    "|---|---|---|---|---|",
    ...RELEASES.map((r) => {
      const key = r.release === "spec" ? "`spec` (default)" : `\`${r.release}\``;
      const as = r.release === "spec" ? "the spec (v0.4 and our answers)" : `Boundary v${r.patch}`;
      const changes = r.withinMinor ? `${r.changes}; *within the minor:* ${r.withinMinor}` : r.changes;
      return `| ${key} | ${as} | ${nouns(r, "hostSetIds")} | ${nouns(r, "applicationCredentialLibraryIds")} | ${changes.replace(/\|/g, "\\|")} |`;
    }),
  ];
  return [START, ...lines, END].join("\n");
}
