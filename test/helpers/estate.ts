/** Running `pulumi-boundary import` as the tests of the migration do: a scratch folder, the one line it prints, a Terraform state. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { OfflineEngine } from "../../examples/offline/engine";
import { packedProgram } from "../../harness/provider-host";
import { CLI, runCli } from "./cli";
import { ADMIN_TOKEN } from "./controller";

/** A new scratch folder for one run of the command. */
export const work = () => mkdtempSync(path.join(tmpdir(), "pb-import-"));

/** Runs `pulumi-boundary import …` in `cwd` with `env` on top of this process's (BOUNDARY_* cleared); `cli` another build of the bin. */
export const runImport = (args: string[], env: Record<string, string> = {}, cwd = work(), cli = CLI) => runCli(["import", ...args], env, { cwd, cli });

/** The one line the command printed, after checking it is one line, the exit code and an empty stdout. */
export function message(r: { code: number | null; stdout: string; stderr: string }, code = 1): string {
  expect([r.code, r.stdout]).toEqual([code, ""]);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return r.stderr.trim();
}

/** A Terraform state (format 4) holding `resources`, as `terraform state pull` writes it. */
export const stateText = (resources: unknown[]) =>
  `${JSON.stringify({ version: 4, terraform_version: "1.0.11", serial: 3, lineage: "l", outputs: {}, resources }, null, 2)}\n`;

/** The engine the imported program in `dir` is previewed and applied by: the packed plugin, logged in to `addr` as the admin. */
export const importEngine = (dir: string, addr: string) =>
  new OfflineEngine({
    programDir: dir,
    project: "import-test",
    stack: "dev",
    config: { "boundary:addr": addr, "boundary:token": ADMIN_TOKEN },
    pluginDir: path.join(packedProgram(), "node_modules", "pulumi-boundary"),
  });
