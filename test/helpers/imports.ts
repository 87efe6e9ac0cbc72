/** The source files and what each imports, as the shape tests read them (house, error-lint, errors, release-names). */
import * as fs from "node:fs";
import * as path from "node:path";

/** The repository's root. */
export const ROOT = path.join(__dirname, "..", "..");

/**
 * The relative modules a file (a path from the root, with `/`) imports or re-exports (type-only ones
 * too: they tie the files as much), imports for its effect alone (`import "…"`), and loads at run
 * time (`import("…")`, `require("…")`), resolved to files.
 */
export function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const specs = [
    ...[...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms)].map((m) => m[1]!),
    ...[...text.matchAll(/^\s*import\s+"(\.{1,2}\/[^"]+)"/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\b(?:import|require)\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g)].map((m) => m[1]!),
  ];
  return specs.flatMap((spec) => {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    return [`${base}.ts`, `${base}/index.ts`].filter((f) => fs.existsSync(path.join(ROOT, f))).slice(0, 1);
  });
}

/**
 * The `.ts` files under `dir` (a path from the root), as paths from the root with `/`, declaration
 * files left out. A node_modules folder is never entered: once the demo has run, examples/basic has
 * one holding a link back to the repository, and a recursive `readdirSync` follows it through the
 * whole node_modules tree (1.3 million entries, about a minute of the suite).
 */
export function tsFiles(dir: string): string[] {
  if (!fs.existsSync(path.join(ROOT, dir))) return [];
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = path.posix.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : tsFiles(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [p] : [];
  });
}
