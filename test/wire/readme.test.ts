/**
 * The README stays short and links the pages that hold the generated tables (the inputs table in
 * docs/provider.md, the `--emulate` table in docs/releases.md); test/wire/generated.test.ts holds the
 * tables themselves to the field and release tables.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

const read = (file: string) => readFileSync(path.join(__dirname, "..", "..", file), "utf8");

test("the README links both tables' pages and stays a page people finish", () => {
  const readme = read("README.md");
  expect(readme).toContain("(docs/releases.md)");
  expect(readme).toContain("(docs/provider.md)");
  expect(readme.split("\n").length).toBeLessThanOrEqual(250);
});
