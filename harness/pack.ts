/**
 * The package as users get it: packed as `npm publish` would, and installed into a fresh program
 * directory from that tarball. Tests and benchmarks load the provider from there, never from sources.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** Packs the package at `root` (its dist/ must be built) and installs the tarball into a new program. */
export function packAndInstall(root: string, extraDependencies: Record<string, string> = {}): { program: string; tarball: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-packed-"));
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  // as npm publish packs: prepack builds a stale dist/ and takes the lifecycle scripts out of the packed package.json
  execFileSync(npm, ["pack", "--pack-destination", dir], { cwd: root, stdio: "ignore" });
  const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
  const program = path.join(dir, "program");
  mkdirSync(program);
  writeFileSync(
    path.join(program, "package.json"),
    JSON.stringify({ name: "packed-program", private: true, dependencies: { "pulumi-boundary": `file:../${tarball}`, ...extraDependencies } }),
  );
  execFileSync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: program, stdio: "ignore" });
  return { program, tarball: path.join(dir, tarball) };
}
