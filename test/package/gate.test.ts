/**
 * The gate issue 20 asks for: `npm test` (what CI runs) runs the linter over the whole tree and the
 * format check, before jest, so a missing TSDoc, a lint finding or an unformatted file fails the build.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

const { scripts } = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { scripts: Record<string, string> };

test("npm test runs the lint and the format check before jest", () => {
  expect(scripts.test!.split(" && ")).toEqual(["npm run build", "npm run typecheck", "npm run check", "jest"]);
  expect(scripts.check).toBe("npm run lint && npm run format:check");
  expect(scripts.lint).toBe("eslint .");
  expect(scripts["format:check"]).toBe("prettier --check .");
});
