/** A program type-checked as `pulumi new typescript` sets it up: Pulumi's template tsconfig, the package installed from its tarball. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { packedProgram } from "../../harness/provider-host";

/** Pulumi's TypeScript template's tsconfig.json (`pulumi new typescript`), as it writes it: no esModuleInterop, no skipLibCheck. */
export const TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/**
 * Type-checks `program` as the `index.ts` of a new folder (named from `prefix`) inside the packed
 * program's install, so Node's resolution finds the installed package, under the template's
 * tsconfig plus `extra` compiler options. tsc's first diagnostics (it writes them to stdout) and how it ended.
 */
export function typeCheckAsTemplate(prefix: string, program: string, extra: Record<string, unknown> = {}) {
  const dir = mkdtempSync(path.join(packedProgram(), prefix));
  const tsconfig = { ...TEMPLATE_TSCONFIG, compilerOptions: { ...TEMPLATE_TSCONFIG.compilerOptions, ...extra } };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 4));
  writeFileSync(path.join(dir, "index.ts"), program);
  const tsc = require.resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "--noEmit", "-p", dir, "--pretty", "false"], { cwd: dir, encoding: "utf8", timeout: 240_000 });
  return { diagnostics: r.stdout.split("\n").slice(0, 10).join("\n"), status: r.status, signal: r.signal };
}
