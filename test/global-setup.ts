/**
 * Once per test run: pack the package as `npm publish` would and install the tarball into a temp
 * Pulumi program, so the provider-host tests load exactly what users install. The program's
 * directory is handed to the tests in PB_PACKED_PROGRAM, the tarball in PB_PACKED_TARBALL.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

export default function globalSetup(): void {
  const root = path.join(__dirname, "..");
  const dir = mkdtempSync(path.join(tmpdir(), "pb-packed-"));
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  // dist/ is fresh: `npm test` builds before jest runs
  execFileSync(npm, ["pack", "--ignore-scripts", "--pack-destination", dir], { cwd: root, stdio: "ignore" });
  const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
  const program = path.join(dir, "program");
  require("node:fs").mkdirSync(program);
  writeFileSync(
    path.join(program, "package.json"),
    JSON.stringify({ name: "packed-program", private: true, dependencies: { "pulumi-boundary": `file:../${tarball}` } }),
  );
  execFileSync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: program, stdio: "ignore" });
  process.env.PB_PACKED_PROGRAM = program;
  process.env.PB_PACKED_TARBALL = path.join(dir, tarball);
}
