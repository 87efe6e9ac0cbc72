/**
 * The table of the Target's inputs in docs/provider.md, rendered from the field table: each input's name, its
 * type (from its kind; `required` where a program must set it), the release that added it, and its
 * doc, the same text the package schema and TargetArgs' TSDoc carry.
 */
import { fieldSince } from "../../wire/releases";
import { kindOf } from "../../wire/field-kinds";
import { INPUT_FIELDS, programMustSet, spec, type InputField } from "../../wire/target-fields";

/** Where the table sits in docs/provider.md: `npm run generate` replaces what lies between the markers. */
export const INPUTS_TABLE = {
  file: "docs/provider.md",
  start: "<!-- inputs-table:start (generated from wire/target-fields.ts by `npm run generate`) -->",
  end: "<!-- inputs-table:end -->",
} as const;

/** An input's type as the table words it. */
function typeOf(f: InputField): string {
  const s = spec(f);
  const type = kindOf(s.kind).docType({ values: s.values });
  return programMustSet(f) ? `${type}, required` : type;
}

/** The table's lines (without the markers). */
export function inputsTable(): string[] {
  return [
    "| input | type | notes |",
    "|---|---|---|",
    ...INPUT_FIELDS.map((f) => {
      const since = fieldSince(f);
      const notes = `${since ? `**Boundary ${since}+**; ` : ""}${spec(f).doc}`.replace(/\|/g, "\\|");
      return `| \`${f}\` | ${typeOf(f)} | ${notes} |`;
    }),
  ];
}
