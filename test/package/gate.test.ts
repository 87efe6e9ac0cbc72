/**
 * The gate issue 20 asks for: `npm test` (what CI runs) runs the linter over the whole tree and the
 * format check, before jest, so a missing TSDoc, a lint finding or an unformatted file fails the build.
 * They run at once with the build and the type check (scripts/pretest.js), and jest only when all passed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const root = path.join(__dirname, "..", "..");
const { scripts } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the script is plain CommonJS, run before anything is compiled
const { STEPS, runAll } = require(path.join(root, "scripts", "pretest.js")) as { STEPS: string[]; runAll(steps: string[], cwd: string): Promise<number> };

test("npm test runs the build, the type check, the lint and the format check before jest, and jest only if all passed", () => {
  expect(scripts.test!.split(" && ")).toEqual(["node scripts/pretest.js", "jest"]);
  expect([...STEPS].sort()).toEqual(["build:stale", "format:check", "lint", "typecheck"]);
  expect(scripts.check).toBe("npm run lint && npm run format:check");
  // the whole tree, and the whole project's types; the caches live under node_modules/.cache, outside git
  expect(scripts.lint).toMatch(/^eslint (--cache --cache-location node_modules\/\.cache\/eslint\/ )?\.$/);
  expect(scripts["format:check"]).toMatch(/^prettier --check (--cache )?\.$/);
  expect(scripts.typecheck).toMatch(/^tsc -p tsconfig\.json --noEmit\b/);
  expect(scripts["build:stale"]).toBe("node scripts/lifecycle.js stale");
});

test("scripts/pretest.js runs its steps at once, and fails when one fails only after every step has ended", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-pretest-"));
  try {
    const done = path.join(dir, "slow-done");
    const node = JSON.stringify(process.execPath);
    const scripts = {
      fails: `${node} -e "process.exit(3)"`,
      slow: `${node} -e "setTimeout(() => require('fs').writeFileSync('slow-done', ''), 1500)"`,
      passes: `${node} -e "0"`,
    };
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "pretest-check", private: true, scripts }));
    const write = jest.spyOn(process.stdout, "write").mockImplementation(() => true);
    let code: number;
    try {
      code = await runAll(["fails", "slow"], dir);
      expect(existsSync(done)).toBe(true); // the failing step did not end the run early
      expect(await runAll(["passes", "slow"], dir)).toBe(0);
    } finally {
      write.mockRestore();
    }
    expect(code).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
