/**
 * A stack's own provider settings, for `pulumi-boundary doctor --stack <name>`: what
 * `pulumi config --json --show-secrets --stack <name>` prints in the project's folder, its
 * `boundary:` keys read as the provider reads them (the password and token decrypted in memory,
 * never printed). Keys the stack leaves unset fall back to the environment, as in the provider.
 */
import { execFileSync } from "node:child_process";
import type { BoundaryClientOptions } from "../client";
import { PACKAGE, providerOptions } from "../config";
import { UsageError } from "../estate/errors";

/** How the CLI is run: a seam for the one test that cannot install Pulumi's CLI. */
export type RunPulumi = (args: readonly string[]) => string;

const runPulumi: RunPulumi = (args) => execFileSync("pulumi", [...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 16 << 20 });

/** The provider's options from the stack's config; a UsageError naming the stack when Pulumi's CLI cannot give it. */
export function stackOptions(stack: string, run: RunPulumi = runPulumi): BoundaryClientOptions {
  let text: string;
  try {
    text = run(["config", "--json", "--show-secrets", "--stack", stack]);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT")
      throw new UsageError(`--stack ${stack}: Pulumi's CLI (pulumi) is not on the PATH: install it, or export the settings (BOUNDARY_ADDR, …) instead`);
    const said =
      String(e.stderr ?? "")
        .trim()
        .split("\n")[0] || e.message;
    throw new UsageError(`--stack ${stack}: \`pulumi config --stack ${stack}\` failed (${said}): run it in the project's folder, with a stack that exists`);
  }
  let config: Record<string, { value?: unknown }>;
  try {
    config = JSON.parse(text) as Record<string, { value?: unknown }>;
  } catch {
    throw new UsageError(`--stack ${stack}: \`pulumi config --json\` printed no JSON`);
  }
  return providerOptions((key) => {
    const value = config[`${PACKAGE}:${key}`]?.value;
    return typeof value === "string" ? value : undefined;
  });
}
