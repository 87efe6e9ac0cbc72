/**
 * The generated files (provider/resource/input-docs.ts, the inputs table in docs/provider.md, the
 * `--emulate` table in docs/releases.md, schema.json) are what `npm run generate` writes from the
 * tables and the plugin's package schema: the generator runs here in memory, and a committed file it
 * would change fails, named, with the command that refreshes it.
 */
import { LIST_FIELDS } from "../../wire/target-fields";
import { generatedFiles, readFromRoot, staleFiles, type Read } from "../../scripts/generate/index";
import { RELEASES_TABLE, releasesTable } from "../../scripts/generate/releases-table";

test("every generated file is what `npm run generate` writes", () => {
  expect(staleFiles().map((file) => `${file} is stale: run \`npm run generate\` and commit it`)).toEqual([]);
});

/** A reader that gives `file` changed by `change` and every other file as committed. */
const changing =
  (file: string, change: (text: string) => string): Read =>
  (f) =>
    f === file ? change(readFromRoot(f)) : readFromRoot(f);

/** A small change that makes each kind of file stale: a table's last line gone, a blank line added, the schema's keys reordered. */
function staleOf(file: string): (text: string) => string {
  if (file.endsWith(".md")) return (text) => text.replace(/\n[^\n]*\n(<!-- [a-z-]+:end -->)/, "\n$1");
  if (file.endsWith(".json")) return (text) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(text) as object).reverse()), null, 2);
  return (text) => `${text}\n`;
}

test("a file the generator would change is named, whichever it is; JSON laid out otherwise is still current", () => {
  const files = generatedFiles().map((g) => g.file);
  expect(files).toEqual(["provider/resource/input-docs.ts", "docs/provider.md", "docs/releases.md", "schema.json"]);
  for (const file of files) expect(staleFiles(changing(file, staleOf(file)))).toEqual([file]);
  expect(staleFiles(changing("schema.json", (text) => JSON.stringify(JSON.parse(text))))).toEqual([]);
  expect(staleFiles((f) => (f === "schema.json" ? "{" : readFromRoot(f)))).toEqual(["schema.json"]);
});

test("a page that lost a table's markers is named, not rewritten", () => {
  const unmarked = changing(RELEASES_TABLE.file, (text) => text.replace(RELEASES_TABLE.end, ""));
  expect(() => generatedFiles(unmarked)).toThrow(`${RELEASES_TABLE.file} has no \`<!-- release-table:start … -->\` … \`${RELEASES_TABLE.end}\` markers`);
});

test("the --emulate table has a column of actions per id list of the field table, a dash where a release lacks the list", () => {
  const [header, , spec] = releasesTable();
  expect(header!.split(" | ").slice(2, -1)).toEqual(LIST_FIELDS.map((f) => `\`${f}\` actions`));
  expect(LIST_FIELDS).toContain("injectedApplicationCredentialSourceIds");
  expect(spec).toMatch(/^\| `spec` \(default\) \| [^|]+ \| `host-sets` \| `credential-libraries` \| — \| /);
});
