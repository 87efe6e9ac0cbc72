/**
 * `npm run build:stale` (what `npm test` and `npm run demo` run, after `npm ci` has built): no second build when dist/
 * is the build of the sources as they are; a build from scratch when a source changed, or was added
 * or deleted since (dist/ then holds no output of a file that is gone). And `npm run build` over a
 * build leaves the bin executable. Run on a two-file project with the package's own build script, so
 * each build is one small tsc run.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const repo = path.join(__dirname, "..", "..");
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "pb-stale-"));
  mkdirSync(path.join(dir, "scripts"));
  for (const f of ["lifecycle.js", "declarations.js"]) writeFileSync(path.join(dir, "scripts", f), readFileSync(path.join(repo, "scripts", f)));
  symlinkSync(path.join(repo, "node_modules"), path.join(dir, "node_modules"), "dir");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "stale-check", version: "1.0.0", bin: { "stale-check": "dist/cli/main.js" } }));
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { target: "ES2022", lib: ["ES5"], module: "commonjs", types: [], skipLibCheck: true, outDir: "dist", rootDir: "." } }),
  );
  writeFileSync(path.join(dir, "tsconfig.build.json"), JSON.stringify({ extends: "./tsconfig.json", include: ["cli"] }));
  mkdirSync(path.join(dir, "cli"));
  writeFileSync(path.join(dir, "cli", "main.ts"), 'export const main = "one";\n');
  writeFileSync(path.join(dir, "cli", "extra.ts"), "export const extra = 1;\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `node scripts/lifecycle.js stale` in the project: whether it built, and the stamp's time afterwards. */
function stale() {
  const r = spawnSync(process.execPath, [path.join(dir, "scripts", "lifecycle.js"), "stale"], { cwd: dir, encoding: "utf8" });
  expect([r.status, r.stderr]).toEqual([0, ""]);
  return { built: !r.stdout.includes("not built again"), stamp: statSync(path.join(dir, "dist", ".built")).mtimeMs };
}

/** Sets a file's modification time `ms` after the stamp's (filesystems keep coarse times: no race with the build's own write). */
const touchAfterStamp = (file: string, ms = 1) => {
  const t = (statSync(path.join(dir, "dist", ".built")).mtimeMs + ms) / 1000;
  utimesSync(path.join(dir, file), t, t);
};

test("builds when dist/ is missing, not again while nothing changed; again when a source changed, when one was deleted or added (however old its time), and over an older script's stamp", () => {
  expect(stale().built).toBe(true);
  expect(existsSync(path.join(dir, "dist", "cli", "main.js"))).toBe(true);
  expect(stale().built).toBe(false);

  writeFileSync(path.join(dir, "cli", "main.ts"), 'export const main = "two";\n');
  touchAfterStamp("cli/main.ts");
  expect(stale().built).toBe(true);
  expect(readFileSync(path.join(dir, "dist", "cli", "main.js"), "utf8")).toContain('"two"');
  expect(stale().built).toBe(false);

  // the same number of files, none newer than the stamp: only the list of files tells
  rmSync(path.join(dir, "cli", "extra.ts"));
  writeFileSync(path.join(dir, "cli", "added.ts"), "export const added = 2;\n");
  utimesSync(path.join(dir, "cli", "added.ts"), new Date(2020, 0, 1), new Date(2020, 0, 1));
  expect(stale().built).toBe(true);
  expect(existsSync(path.join(dir, "dist", "cli", "extra.js"))).toBe(false); // from scratch: no output of a file that is gone
  expect(existsSync(path.join(dir, "dist", "cli", "added.js"))).toBe(true);

  writeFileSync(path.join(dir, "dist", ".built"), `${new Date(Date.now() + 60_000).toISOString()}\n`);
  expect(stale().built).toBe(true);
  expect(stale().built).toBe(false);
}, 180_000);

test("a rebuild over a build leaves the bin executable: npm sets its mode only when it links it, and tsc writes it anew without", () => {
  const bin = path.join(dir, "dist", "cli", "main.js");
  for (let i = 0; i < 2; i++) {
    const r = spawnSync(process.execPath, [path.join(dir, "scripts", "lifecycle.js"), "build"], { cwd: dir, encoding: "utf8" });
    expect([r.status, r.stderr]).toEqual([0, ""]);
    accessSync(bin, constants.X_OK); // "Permission denied" from `npx stale-check` otherwise
    expect(statSync(bin).mode & 0o111).toBe(0o111);
  }
}, 120_000);
