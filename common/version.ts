/** This package's version, as its package.json says: `--version` of every command prints it. */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { InternalError } from "./errors";

/** The version of this package (its package.json, found from this file up: the checkout or the installed package). */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pulumi-boundary" && pkg.version) return pkg.version;
    }
    if (path.dirname(dir) === dir) throw new InternalError("package.json of pulumi-boundary not found");
  }
}

/** Writes `pulumi-boundary <version>` to standard output; the exit code 0. */
export function printVersion(): number {
  process.stdout.write(`pulumi-boundary ${packageVersion()}\n`);
  return 0;
}
