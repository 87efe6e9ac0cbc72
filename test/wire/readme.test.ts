/** The README's mode table is the release table's: a row of the table missing from it, or a stale line, fails here. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { END, START, releaseTable } from "../helpers/readme-releases";

test("README's --emulate table is rendered from the release table", () => {
  const readme = readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");
  const at = readme.indexOf(START);
  expect(at).toBeGreaterThanOrEqual(0);
  const shown = readme.slice(at, readme.indexOf(END, at) + END.length);
  // on a mismatch, the expected text is the table to paste
  expect(shown).toBe(releaseTable());
});
