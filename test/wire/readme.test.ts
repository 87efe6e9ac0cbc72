/**
 * The docs' generated tables: the `--emulate` table in docs/releases.md is the release table's, the
 * inputs table in docs/provider.md the field table's. A row missing from either, or a stale line,
 * fails here; so does a README that stops linking them.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as inputs from "../helpers/readme-inputs";
import { END, START, releaseTable } from "../helpers/readme-releases";

const read = (file: string) => readFileSync(path.join(__dirname, "..", "..", file), "utf8");

/** The text between `start` and `end` (both included) in `text`. */
function between(text: string, start: string, end: string): string {
  const at = text.indexOf(start);
  expect(at).toBeGreaterThanOrEqual(0);
  return text.slice(at, text.indexOf(end, at) + end.length);
}

test("docs/releases.md's --emulate table is rendered from the release table", () => {
  // on a mismatch, the expected text is the table to paste
  expect(between(read("docs/releases.md"), START, END)).toBe(releaseTable());
});

test("docs/provider.md's Target inputs table is rendered from the field table (its docs are the package schema's and TargetArgs')", () => {
  // on a mismatch, the expected text is the table to paste
  expect(between(read("docs/provider.md"), inputs.START, inputs.END)).toBe(inputs.inputsTable());
});

test("the README links both tables' pages and stays a page people finish", () => {
  const readme = read("README.md");
  expect(readme).toContain("(docs/releases.md)");
  expect(readme).toContain("(docs/provider.md)");
  expect(readme.split("\n").length).toBeLessThanOrEqual(250);
});
