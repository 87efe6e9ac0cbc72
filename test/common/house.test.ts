/**
 * Rules of the code's shape that review alone would let slip: no TypeScript file over 400 lines
 * but the field table itself, no circle of imports among the sources (a module that, through its
 * imports, imports itself), and the rooms' floors: the command line above the controller and the
 * provider, which never import each other.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT, importsOf, tsFiles } from "../helpers/imports";

/** Every directory of TypeScript: the sources, and the tests (held to the same length). */
const SOURCES = ["cli", "common", "wire", "provider", "policy", "controller", "harness", "bench", "examples", "scripts"];
const LONGEST = 400;
/** The one file allowed to be longer: the field table, one entry per field, each read as a whole. */
const LONG_ALLOWED = new Set(["wire/target-fields.ts"]);

const lines = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8").split("\n").length - 1;

test(`no TypeScript file is over ${LONGEST} lines but the field table`, () => {
  const long = [...SOURCES, "test"].flatMap(tsFiles).filter((f) => !LONG_ALLOWED.has(f) && lines(f) > LONGEST);
  expect(long.map((f) => `${f}: ${lines(f)} lines`)).toEqual([]);
  for (const f of LONG_ALLOWED) expect(fs.existsSync(path.join(ROOT, f))).toBe(true);
});

/** One circle of imports among `files`, as the files in order with the first repeated at the end; none when there is none. */
function findCircle(files: string[], edgesOf: (file: string) => string[] = importsOf): string[] | undefined {
  const edges = new Map(files.map((f) => [f, edgesOf(f)]));
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (f: string): string[] | undefined => {
    if (state.get(f) === "done") return undefined;
    if (state.get(f) === "open") return [...stack.slice(stack.indexOf(f)), f];
    state.set(f, "open");
    stack.push(f);
    for (const g of edges.get(f) ?? []) {
      const circle = visit(g);
      if (circle) return circle;
    }
    stack.pop();
    state.set(f, "done");
    return undefined;
  };
  for (const f of files) {
    const circle = visit(f);
    if (circle) return circle;
  }
  return undefined;
}

test("no circle of imports among the sources", () => {
  expect(findCircle(SOURCES.flatMap(tsFiles))).toBeUndefined();
  // the reader sees imports (type-only and re-exports too), and the finder finds a circle where there is one
  expect(importsOf("controller/index.ts")).toEqual(expect.arrayContaining(["controller/server.ts", "controller/config/options.ts"]));
  const graph: Record<string, string[]> = { a: ["b"], b: ["c", "d"], c: [], d: ["b"] };
  expect(findCircle(Object.keys(graph), (f) => graph[f]!)).toEqual(["b", "d", "b"]);
});

/** The top folder of a source file: its room. */
const room = (file: string) => file.split("/")[0]!;

test("controller/ and provider/ are siblings: neither imports the other, at load or at run time; only cli/ stands above both", () => {
  const crossing = SOURCES.filter((d) => d === "controller" || d === "provider")
    .flatMap(tsFiles)
    .flatMap((f) => importsOf(f).map((to) => ({ f, to })))
    .filter(({ f, to }) => room(to) !== room(f) && (room(to) === "controller" || room(to) === "provider"));
  expect(crossing.map(({ f, to }) => `${f} -> ${to}`)).toEqual([]);
  // the reader sees the command line's run-time imports: it is how cli/ reaches both rooms
  expect(importsOf("cli/main.ts")).toEqual(expect.arrayContaining(["controller/dev-command.ts", "provider/estate/command.ts"]));
  // and the imports made for their effect alone (`import "../provider/node-version"`)
  expect(importsOf("cli/main.ts")).toContain("provider/node-version.ts");
});
