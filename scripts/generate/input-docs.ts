/**
 * The source of `provider/resource/input-docs.ts`, rendered from the field table: one property per
 * input, carrying the field's doc as TSDoc, optional where a program may leave it out. TargetArgs
 * maps over it, so editors show each field's doc on hover.
 */
import { fieldSince } from "../../wire/releases";
import { INPUT_FIELDS, programMustSet, spec } from "../../wire/target-fields";

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** Where the file is, from the repository's root. */
export const INPUT_DOCS_FILE = "provider/resource/input-docs.ts";

/** The file's text. */
export function inputDocsSource(): string {
  const fields = INPUT_FIELDS.flatMap((f) => {
    const since = fieldSince(f);
    const doc = `${since ? `Boundary ${since} and later. ` : ""}${spec(f).doc}`;
    return ["  /**", ...wrap(doc, 100).map((l) => `   * ${l}`), "   */", `  ${f}${programMustSet(f) ? "" : "?"}: unknown;`];
  });
  return [
    "/**",
    " * GENERATED from the field table (wire/target-fields.ts) by scripts/generate/input-docs.ts; do not edit:",
    " * run `npm run generate` (test/wire/generated.test.ts fails while this file is stale).",
    " *",
    " * Each input's doc, as TSDoc on a property of its own: TargetArgs maps over this interface, so an",
    " * editor shows the field's doc on hover (a type computed from the table alone carries none).",
    " */",
    "",
    "/** The Target's inputs, each with its doc; the values' types are TargetArgs'. */",
    "export interface TargetInputDocs {",
    ...fields,
    "}",
    "",
  ].join("\n");
}
