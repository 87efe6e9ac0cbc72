/**
 * The package's declaration files without zod (run by the build, after tsc). A user's program must
 * type-check under Pulumi's TypeScript template (`strict`, `module` commonjs, `moduleResolution`
 * node, no `esModuleInterop`, no `skipLibCheck`), and zod 4's own declarations do not: their
 * `locales/index.d.cts` default-imports modules declared `export =`, 63 errors TS1259 there (zod's
 * maintainers answer: set esModuleInterop). Every path into zod's types reaches that file, so the
 * package's declarations must not reach zod at all.
 *
 * Every type written with zod in a declaration file is replaced by the type the checker computes
 * for it, written out: `type Target = z.infer<typeof Target>` becomes the Target's object type.
 * What cannot be written without zod (a schema's own type, a helper generic over schemas) becomes
 * `unknown`: the schemas are how the package checks its inputs and answers, not its API. The
 * sources keep deriving every type from the schemas (one source of truth); only the published text
 * changes. Plain JavaScript, as the build runs it before anything else is compiled.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

/**
 * True when a piece of declaration text names zod: its namespace `z`, its types, or a schema read
 * from a table by its `zod` key (`(typeof FIELD_KINDS)[K]["zod"]`), which the rewrite of that
 * table has made `unknown`.
 */
const namesZod = (text) => /\bz\.|\$Zod|\bZod[A-Z]\w*\b|\["zod"\]/.test(text);

/** The .d.ts files under `dir`. */
function declarationFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...declarationFiles(p));
    else if (entry.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/**
 * Rewrites the declaration files under `dist` that import zod; `ts` is the TypeScript compiler.
 * Returns the files rewritten. Throws if any declaration file still names zod afterwards.
 */
function withoutZod(dist, ts) {
  const all = declarationFiles(dist);
  const touched = all.filter((f) => /from "zod"/.test(fs.readFileSync(f, "utf8")));
  if (touched.length === 0) return [];
  const program = ts.createProgram(touched, {
    strict: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias;
  const texts = new Map();
  for (const file of touched) {
    const source = program.getSourceFile(file);
    const text = source.getFullText();
    /** [start, end, replacement] of each type node rewritten, outermost only. */
    const edits = [];
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text === "zod") {
        edits.push([node.getStart(source), node.getEnd(), ""]);
        return;
      }
      // an object type keeps its keys (`keyof typeof FIELD_KINDS` must still name the kinds): only
      // its members' types that name zod are rewritten
      if (ts.isTypeNode(node) && !ts.isTypeLiteralNode(node) && namesZod(node.getText(source))) {
        edits.push([node.getStart(source), node.getEnd(), written(node)]);
        return;
      }
      // type nodes sit anywhere: annotations, return types, members, constraints (`S extends z.ZodType`)
      ts.forEachChild(node, visit);
    };
    /** The node's type written out without zod, or `unknown` when it cannot be. */
    const written = (node) => {
      // a generic's parameters stand for schemas the caller picks: nothing to compute
      if (insideGeneric(node)) return "unknown";
      const type = checker.getTypeFromTypeNode(node);
      // zod not found from dist/ would make every such type `any`: never publish that
      if (type.flags & ts.TypeFlags.Any) throw new Error(`${node.getSourceFile().fileName}: ${node.getText()} resolves to any (is zod installed?)`);
      const out = checker.typeToString(type, node, flags);
      return namesZod(out) || /\bimport\(/.test(out) ? "unknown" : out;
    };
    ts.forEachChild(source, visit);
    let result = text;
    for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0])) result = result.slice(0, start) + replacement + result.slice(end);
    texts.set(file, result);
  }
  for (const [file, result] of texts) fs.writeFileSync(file, result);
  const still = all.filter(
    (f) => namesZod(fs.readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")) || /from "zod"/.test(fs.readFileSync(f, "utf8")),
  );
  if (still.length > 0) throw new Error(`declarations still name zod: ${still.map((f) => path.relative(dist, f)).join(", ")}`);
  return touched;
}

/** True when `node` lies inside a declaration with type parameters (a generic alias, interface or function). */
function insideGeneric(node) {
  for (let n = node.parent; n; n = n.parent) if (n.typeParameters && n.typeParameters.length > 0) return true;
  return false;
}

module.exports = { withoutZod };
