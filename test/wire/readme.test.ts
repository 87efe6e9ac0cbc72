/**
 * The generated tables: docs/controller.md's mode table is the release table's, the README's inputs
 * table the field table's. A row missing from either, or a stale line, fails here.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as inputs from "../helpers/readme-inputs";
import { END, START, releaseTable } from "../helpers/readme-releases";

test("docs/controller.md's --emulate table is rendered from the release table", () => {
  const readme = readFileSync(path.join(__dirname, "..", "..", "docs", "controller.md"), "utf8");
  const at = readme.indexOf(START);
  expect(at).toBeGreaterThanOrEqual(0);
  const shown = readme.slice(at, readme.indexOf(END, at) + END.length);
  // on a mismatch, the expected text is the table to paste
  expect(shown).toBe(releaseTable());
});

test("README's Target inputs table is rendered from the field table (its docs are the package schema's and TargetArgs')", () => {
  const readme = readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");
  const at = readme.indexOf(inputs.START);
  expect(at).toBeGreaterThanOrEqual(0);
  const shown = readme.slice(at, readme.indexOf(inputs.END, at) + inputs.END.length);
  // on a mismatch, the expected text is the table to paste
  expect(shown).toBe(inputs.inputsTable());
});
