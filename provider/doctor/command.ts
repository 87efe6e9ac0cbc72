/**
 * `pulumi-boundary doctor`: checks, with the provider's own settings, what a first `pulumi up`
 * against a Boundary needs, one line per check (see `checks.ts`), and exits non-zero on the first
 * blocking problem. It never writes. Exit codes: 0 nothing blocking, 1 a blocking problem, 2 a command
 * line that cannot be run. The flags are checked before the provider's client loads (the help, the
 * stack's reader and the checks load where they are used).
 */
import { UsageError, parseFlags } from "../estate/flags";
import type { BoundaryClientOptions } from "../client";
import type { Finding } from "./checks";
import type { RunPulumi } from "./stack";

const FLAGS = {
  scope: { type: "string" },
  stack: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const MARK: Record<Finding["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" };

/** Runs `pulumi-boundary doctor` with `argv` (after `doctor`); resolves to the exit code. */
export async function main(argv: readonly string[], environment: NodeJS.ProcessEnv = process.env, run?: RunPulumi): Promise<number> {
  let flags;
  try {
    flags = parseFlags(argv, FLAGS);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`pulumi-boundary doctor: ${err.message}\n`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write((await import("./usage")).DOCTOR_USAGE);
    return 0;
  }
  if (flags.scope !== undefined && !/^(global|[op]_[0-9A-Za-z]{10})$/.test(flags.scope)) {
    process.stderr.write(`pulumi-boundary doctor: --scope ${JSON.stringify(flags.scope)}: give a project id (p_ and 10 letters or digits)\n`);
    return 2;
  }
  let options: BoundaryClientOptions = {};
  try {
    if (flags.stack !== undefined) options = (await import("./stack")).stackOptions(flags.stack, run);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`pulumi-boundary doctor: ${err.message}\n`);
    return 2;
  }
  const { runChecks } = await import("./checks");
  const ok = await runChecks(options, environment, flags.scope, (f) => process.stdout.write(`${MARK[f.status]}  ${f.check}: ${f.text}\n`));
  return ok ? 0 : 1;
}
