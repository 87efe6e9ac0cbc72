/** What a source file imports, as the shape tests read it (test/common/house.test.ts, error-lint.test.ts). */
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
