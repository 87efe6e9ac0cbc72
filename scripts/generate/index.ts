/**
 * Every file `npm run generate` (scripts/generate.js) writes, rendered in memory from the two tables
 * and the plugin's package schema; test/wire/generated.test.ts holds the committed files to it.
 *
 * - provider/resource/input-docs.ts: each input's doc as TSDoc, for TargetArgs' hover;
 * - the inputs table in docs/provider.md and the `--emulate` table in docs/releases.md (the rest
 *   of each page is prose: only what lies between a table's markers is replaced);
 * - schema.json: the package schema the plugin serves (GetSchema), its keys sorted, so a change to
 *   the public contract shows as a diff in review.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { packageSchema } from "../../provider/plugin/schema";
import { INPUT_DOCS_FILE, inputDocsSource } from "./input-docs";
import { INPUTS_TABLE, inputsTable } from "./inputs-table";
import { RELEASES_TABLE, releasesTable } from "./releases-table";

/** The repository's root. */
export const ROOT = path.join(__dirname, "..", "..");

/** A generated file: its path from the root and its text. */
export interface Generated {
  /** The path from the repository's root (`docs/provider.md`). */
  file: string;
  /** What the file should hold. */
  text: string;
}

/** Reads a file by its path from the root. */
export type Read = (file: string) => string;

/** The committed files, as they are on disk. */
export const readFromRoot: Read = (file) => readFileSync(path.join(ROOT, file), "utf8");

/** Where a table sits in a page: the page, and the markers around the generated lines. */
interface Place {
  file: string;
  start: string;
  end: string;
}

/** `page` with the lines between the place's markers replaced by `lines` (the start marker's wording too: it is matched up to its name). */
function splice(page: string, place: Place, lines: string[]): string {
  const name = place.start.slice(0, place.start.indexOf(":start") + ":start".length);
  const at = page.indexOf(name);
  const end = at < 0 ? -1 : page.indexOf(place.end, at);
  // a page without its markers is a mistake to fix by hand (where the table goes is the prose's choice)
  if (end < 0) throw new Error(`${place.file} has no \`${name} … -->\` … \`${place.end}\` markers: put them where the table belongs`);
  return page.slice(0, at) + [place.start, ...lines, place.end].join("\n") + page.slice(end + place.end.length);
}

/** A copy of `value` with every object's keys sorted, so the file's order does not hang on the code's. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

/** The package's version, which the schema carries as the plugin serves it. */
const version = (read: Read) => (JSON.parse(read("package.json")) as { version: string }).version;

/** Every generated file's text; `read` gives the pages the tables sit in (and package.json's version). */
export function generatedFiles(read: Read = readFromRoot): Generated[] {
  return [
    { file: INPUT_DOCS_FILE, text: inputDocsSource() },
    { file: INPUTS_TABLE.file, text: splice(read(INPUTS_TABLE.file), INPUTS_TABLE, inputsTable()) },
    { file: RELEASES_TABLE.file, text: splice(read(RELEASES_TABLE.file), RELEASES_TABLE, releasesTable()) },
    // Prettier lays the JSON out (the script runs it): isCurrent compares the data and its key order
    { file: "schema.json", text: `${JSON.stringify(sortedKeys(packageSchema(version(read))), null, 2)}\n` },
  ];
}

/** True when `onDisk` holds what `generated` says: the same text, or for JSON the same data in the same order, however laid out. */
export function isCurrent(generated: Generated, onDisk: string): boolean {
  if (!generated.file.endsWith(".json")) return onDisk === generated.text;
  try {
    return JSON.stringify(JSON.parse(onDisk)) === JSON.stringify(JSON.parse(generated.text));
  } catch {
    return false; // not JSON at all: regenerate it
  }
}

/** The generated files whose committed text is not what the generator writes (a file missing from disk counts). */
export function staleFiles(read: Read = readFromRoot): string[] {
  const onDisk = (file: string) => {
    try {
      return read(file);
    } catch {
      return undefined;
    }
  };
  return generatedFiles(read)
    .filter((g) => {
      const text = onDisk(g.file);
      return text === undefined || !isCurrent(g, text);
    })
    .map((g) => g.file);
}
