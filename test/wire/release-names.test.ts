/**
 * The release is asked only of the tables: no source module outside `wire/` names a release
 * (`"0.21"`, `"spec"`, `--emulate 0.4`, `Boundary 0.15+`) or an API generation (`"v0.4"`,
 * `"current"`) in a string of its own. It asks `wire/releases.ts` instead (the newest release, the
 * oldest, the first where a fact holds, the row's own name), so a new release is one row of the
 * table and nothing else goes stale. The names are the table's (RELEASE_KEYS, API_GENERATIONS);
 * comments and tests may name releases; the few strings left are listed below with their reason.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { API_GENERATIONS, RELEASE_KEYS } from "../../wire/releases";
import { ROOT, tsFiles } from "../helpers/imports";

/** Where the rule holds: every non-test TypeScript directory but the tables' own (`wire/`). */
const DIRS = ["provider", "controller", "common", "harness", "bench", "examples", "scripts"];

/** The strings allowed to name a release, each with why: the file (as a pattern) and a part of the string. */
const ALLOWED: { file: RegExp; text: string; reason: string }[] = [
  { file: /^provider\/estate\/terraform\.ts$/, text: "Terraform 0.12", reason: "Terraform's version (state format 4), not Boundary's" },
  {
    file: /^provider\/client\/lists\.ts$/,
    text: "current",
    reason: "the field table's `association.current` key in a type (a property name of the table), not the generation",
  },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Whole-string names: a release key, a generation. */
const NAMES = new Set<string>([...RELEASE_KEYS, ...API_GENERATIONS]);
/** A Boundary release named inside a string (`0.21`, `v0.4`, `0.12.0`, `0.15+`): each numbered key, not part of a longer number. */
const INSIDE = new RegExp(
  `(?<![\\w.])v?(?:${RELEASE_KEYS.filter((k) => /^\d/.test(k))
    .map(escape)
    .join("|")})(?!\\d)`,
);

/** The string literals of a module naming a release, with their line (template literals piece by piece; comments are not strings). */
function releaseNames(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const t = node.text;
      if (NAMES.has(t) || INSIDE.test(t)) found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: t });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

/** A long string (a usage text) shown around the release it names. */
const excerpt = (text: string): string => {
  const at = INSIDE.exec(text)?.index ?? 0;
  return text.length <= 100 ? text : `…${text.slice(Math.max(0, at - 40), at + 40)}…`;
};

test("the scan sees a release in a string, a template's piece and a key, and none in a comment or a longer number", () => {
  const sample = [
    `const a = "0.21"; // "0.4" in a comment`,
    "/* --emulate 0.21 */ const b = `on --emulate ${a} and v0.4`;",
    `const c = { spec: 1, "spec": 2, n: "10.4", m: "0.40", p: "Boundary 0.12.0" };`,
    `type K = X["current"];`,
  ].join("\n");
  expect(releaseNames("sample.ts", sample)).toEqual([
    { line: 1, text: "0.21" },
    { line: 2, text: " and v0.4" },
    { line: 3, text: "spec" },
    { line: 3, text: "Boundary 0.12.0" },
    { line: 4, text: "current" },
  ]);
});

test("no source module outside wire/ names a release or a generation but those listed, and each listed one is still there", () => {
  const sources = DIRS.flatMap(tsFiles);
  expect(sources).toContain("bench/run.ts");
  const used = new Set<(typeof ALLOWED)[number]>();
  const named: string[] = [];
  for (const file of sources) {
    for (const hit of releaseNames(file, fs.readFileSync(path.join(ROOT, file), "utf8"))) {
      const allowed = ALLOWED.find((a) => a.file.test(file) && hit.text.includes(a.text));
      if (allowed) used.add(allowed);
      else named.push(`${file}:${hit.line}: ${JSON.stringify(excerpt(hit.text))}`);
    }
  }
  expect(named).toEqual([]);
  expect(ALLOWED.filter((a) => !used.has(a)).map((a) => a.text)).toEqual([]);
});
