/**
 * `pulumi-boundary doctor`: checks, with the provider's own settings, what a first `pulumi up`
 * against a Boundary needs, one line per check (see `checks.ts`), and exits non-zero on the first
 * blocking problem. It never writes. Exit codes: 0 nothing blocking, 1 a blocking problem, 2 a command
 * line that cannot be run.
 */
import { PROVIDER_CONFIG } from "../config";
import { UsageError, parseFlags } from "../estate/flags";
import type { BoundaryClientOptions } from "../client";
import { runChecks, type Finding } from "./checks";
import { stackOptions, type RunPulumi } from "./stack";

const FLAGS = {
  scope: { type: "string" },
  stack: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const env = (k: keyof typeof PROVIDER_CONFIG) => PROVIDER_CONFIG[k].env;

/** The command's help. */
export const DOCTOR_USAGE = `Usage: pulumi-boundary doctor [--scope <project id>] [--stack <name>]

Checks the first connection to a Boundary controller with the provider's settings, one line each,
and stops at the first blocking problem (exit 1). It never writes, but a login (no token given)
makes an auth token on the controller, as \`boundary authenticate\` does: the doctor does not revoke
it, and it stays valid until it expires (the controller's auth_token_time_to_live, 7 days by default).

  1. the settings (the address, and a token or a login)
  2. the address answers and is Boundary's API (TLS, no /v1 suffix, a proxy's path)
  3. the token, or the login with the auth method, works
  4. which release the provider learns, and how
  5. with --scope: that the credentials may list, create, read, update and delete Targets there,
     as Boundary reports them (the scope's authorized_collection_actions, a Target's authorized_actions)
  6. the rate limits the controller advertises
  and what it could not check.

Settings, as the provider reads them when the stack config does not set them:
  ${env("addr")}, and ${env("token")} or a login: ${env("authMethodId")},
  ${env("authMethodLoginName")} and ${env("authMethodPassword")}
  (also BOUNDARY_CACERT, BOUNDARY_TLS_INSECURE, BOUNDARY_CLIENT_TIMEOUT, ${env("apiGeneration")}).
  With --stack, a stack's own config first (boundary:addr, boundary:token, boundary:authMethod…),
  read with \`pulumi config --json --show-secrets\` in the project's folder; secrets are never printed.

  --scope <id>   the project whose Targets the stack manages
  --stack <name> read the provider's settings from this stack's config
  -h, --help     this help
`;

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
    process.stdout.write(DOCTOR_USAGE);
    return 0;
  }
  if (flags.scope !== undefined && !/^(global|[op]_[0-9A-Za-z]{10})$/.test(flags.scope)) {
    process.stderr.write(`pulumi-boundary doctor: --scope ${JSON.stringify(flags.scope)}: give a project id (p_ and 10 letters or digits)\n`);
    return 2;
  }
  let options: BoundaryClientOptions = {};
  try {
    if (flags.stack !== undefined) options = stackOptions(flags.stack, run);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`pulumi-boundary doctor: ${err.message}\n`);
    return 2;
  }
  const ok = await runChecks(options, environment, flags.scope, (f) => process.stdout.write(`${MARK[f.status]}  ${f.check}: ${f.text}\n`));
  return ok ? 0 : 1;
}
