/**
 * The gate issue 20 asks for: `npm test` (what CI runs) runs the linter over the whole tree, the
 * format check and the type check, so a missing TSDoc, a lint finding or an unformatted file fails
 * the build. The build comes first when stale; the checks run beside jest (scripts/test.js: jest
 * waits on child processes, the checks fill the idle core), and the run fails if any part failed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { until } from "../helpers/wait";

const root = path.join(__dirname, "..", "..");
const { scripts } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the script is plain CommonJS, run before anything is compiled
const { CHECKS, FIRST, runBeside } = require(path.join(root, "scripts", "test.js")) as {
  CHECKS: string[];
  FIRST: string;
  runBeside(checks: string[], main: () => Promise<number>, cwd: string): Promise<number>;
};

test("npm test runs the build when stale, then the type check, the lint and the format check beside jest", () => {
  expect(scripts.test).toBe("node scripts/test.js");
  expect(FIRST).toBe("build:stale");
  expect([...CHECKS].sort()).toEqual(["format:check", "lint", "typecheck"]);
  expect(scripts.check).toBe("npm run lint && npm run format:check");
  // the whole tree, and the whole project's types; the caches live under node_modules/.cache, outside git
  expect(scripts.lint).toMatch(/^eslint (--cache --cache-location node_modules\/\.cache\/eslint\/ )?\.$/);
  expect(scripts["format:check"]).toMatch(/^prettier --check (--cache )?\.$/);
  expect(scripts.typecheck).toMatch(/^tsc -p tsconfig\.json --noEmit\b/);
  expect(scripts["build:stale"]).toBe("node scripts/lifecycle.js stale");
});

test("scripts/test.js runs the checks and jest at once, and fails when any part fails only after every part has ended", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-test-script-"));
  try {
    const done = path.join(dir, "slow-done");
    const node = JSON.stringify(process.execPath);
    const scripts = {
      fails: `${node} -e "console.log('a finding in some/file.ts'); process.exit(3)"`,
      slow: `${node} -e "setTimeout(() => require('fs').writeFileSync('slow-done', ''), 1500)"`,
      passes: `${node} -e "0"`,
    };
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "test-script-check", private: true, scripts }));
    /** The long part: resolves `code` once the slow check has ended, so it ran beside the checks; notes whether it saw the check still running. */
    let sawChecksRunning = false;
    const main = (code: number) => async () => {
      sawChecksRunning = !existsSync(done);
      await until(() => existsSync(done), "the slow check", 100_000);
      return code;
    };
    let printed = "";
    const write = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => ((printed += String(chunk)), true));
    const codes: number[] = [];
    try {
      codes.push(await runBeside(["fails", "slow"], main(0), dir));
      expect(sawChecksRunning).toBe(true);
      expect(printed).toMatch(/> fails: FAILED \(exit 3\)[\s\S]*> slow: ok[\s\S]*> fails FAILED:\na finding in some\/file\.ts\n$/);
      rmSync(done);
      codes.push(await runBeside(["passes", "slow"], main(1), dir));
      rmSync(done);
      codes.push(await runBeside(["passes", "slow"], main(0), dir));
    } finally {
      write.mockRestore();
    }
    expect(codes).toEqual([1, 1, 0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);
