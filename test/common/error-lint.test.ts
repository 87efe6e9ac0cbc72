/**
 * "Errors only from the catalogues" is held by lint (eslint.config.mjs), not by a text search: the
 * source throws nothing but errors (`@typescript-eslint/only-throw-error`, which needs the types),
 * and builds no built-in error outside the catalogues (`no-restricted-syntax`). This test lints
 * what each rule must refuse, where it was once written (a `new TypeError` in the client's
 * interceptors, a thrown object that was no Error in the controller's routing), through the
 * project's own configuration, so a rule switched off or scoped wrongly fails here.
 * And the provider's catalogue is a leaf: each module imports its side's catalogue, only the index the whole.
 */
import { execFileSync } from "node:child_process";
import { ROOT, importsOf, tsFiles } from "../helpers/imports";

/** What lint says of `text` as if it were the file `file`: one `rule: line` per message of the error rules. */
function lintAs(snippets: Record<string, string>): Record<string, string[]> {
  const script = `
    import { ESLint } from "eslint";
    const snippets = JSON.parse(process.argv[1]);
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = {};
    for (const [file, text] of Object.entries(snippets)) {
      const [r] = await eslint.lintText(text, { filePath: file });
      out[file] = r.messages.filter((m) => m.ruleId !== "jsdoc/require-jsdoc").map((m) => m.ruleId + ": " + m.line);
    }
    process.stdout.write(JSON.stringify(out));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(snippets)], { cwd: ROOT, encoding: "utf8" });
  return JSON.parse(out) as Record<string, string[]>;
}

test("lint refuses a built-in error outside the catalogues, a thrown non-Error, and `as unknown as`; a catalogue may build its classes", () => {
  const found = lintAs({
    "provider/client/interceptors.ts": [
      'export const a = (): never => { throw new TypeError("no operation"); };',
      'export const b = (): Error => Error("plain");',
      "export const c = (x: number) => x as unknown as string;",
    ].join("\n"),
    "controller/http/no-route.ts": [
      "class Answer { status = 404; }",
      "export const d = (): never => { throw new Answer(); };",
      'export const e = (): never => { throw "no route"; };',
    ].join("\n"),
    "common/errors.ts": ["export const f = new RangeError('a catalogue builds errors');", "export const g = (x: number) => x as unknown as string;"].join("\n"),
    "provider/resource/update.ts": 'import { InternalError } from "../../common/errors";\nexport const h = (): never => { throw new InternalError("x"); };',
  });
  expect(found).toEqual({
    "provider/client/interceptors.ts": ["no-restricted-syntax: 1", "no-restricted-syntax: 2", "no-restricted-syntax: 3"],
    "controller/http/no-route.ts": ["@typescript-eslint/only-throw-error: 2", "@typescript-eslint/only-throw-error: 3"],
    "common/errors.ts": ["no-restricted-syntax: 2"],
    "provider/resource/update.ts": [],
  });
}, 180_000);

test("the provider's catalogue is a leaf of the tree: only the package's index imports it, every other module its side's catalogue", () => {
  const importers = tsFiles("provider").filter((f) => importsOf(f).includes("provider/errors.ts"));
  expect(importers).toEqual(["provider/index.ts"]);
});
