/**
 * `pulumi-boundary import`: writes Pulumi's bulk-import file for Targets that exist outside
 * Pulumi, found in a live scope or in a Terraform state, and with `--program ts` a TypeScript
 * program that adopts them. It only reads: nothing on the controller is created, changed or
 * deleted. Exit codes: 0 written, 1 bad input (one message naming it and what to do), 2 a command
 * line that cannot be run.
 */
import { writeFileSync } from "node:fs";
import { BoundaryClientError } from "../client";
import { PACKAGE, PROVIDER_CONFIG } from "../config";
import { ImportInputError, type Discovery } from "./discovery";
import { UsageError, parseFlags } from "./flags";
import { importFileText, summary, typescriptProgram } from "./output";
import { readLive } from "./live";
import { discoverScope } from "./scope";
import { readTerraformState } from "./terraform";
import { OLDEST } from "../../wire/releases";

const FLAGS = {
  scope: { type: "string" },
  recursive: { type: "boolean" },
  filter: { type: "string" },
  "from-terraform": { type: "string" },
  live: { type: "boolean" },
  format: { type: "string" },
  out: { type: "string" },
  program: { type: "string" },
  "program-out": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const config = (k: keyof typeof PROVIDER_CONFIG) => `${PACKAGE}:${k}`;

/** The command's help. */
export const IMPORT_USAGE = `Usage: pulumi-boundary import (--scope <id> [--recursive] [--filter <expr>] | --from-terraform <file> [--live]) [options]

Writes Pulumi's bulk-import file for Boundary Targets made outside Pulumi; then
\`pulumi import --file targets.json\` adopts them (plugin route) and writes the program.
It only reads: nothing on the controller is created, changed or deleted.

From a live scope (every release from ${OLDEST.release} to the newest; pages and rate limits as the provider):
  --scope <id>            a project (p_…); global or an org (o_…) with --recursive
  --recursive             every project below the scope (Targets live in projects)
  --filter <expr>         Boundary's filter, e.g. '"/item/name" matches "^web"'
  Address and token as the provider's: ${PROVIDER_CONFIG.addr.env} and ${PROVIDER_CONFIG.token.env} (also BOUNDARY_CACERT,
  BOUNDARY_TLS_INSECURE, BOUNDARY_CLIENT_TIMEOUT, BOUNDARY_RATE_LIMIT). A stack's settings are its
  config keys ${config("addr")} and ${config("token")}:
    export ${PROVIDER_CONFIG.addr.env}=$(pulumi config get ${config("addr")}) ${PROVIDER_CONFIG.token.env}=$(pulumi config get ${config("token")})
  Or, without a token, it logs in as the provider does: ${PROVIDER_CONFIG.authMethodId.env},
  ${PROVIDER_CONFIG.authMethodLoginName.env} and ${PROVIDER_CONFIG.authMethodPassword.env}.

From Terraform (terraform-provider-boundary):
  --from-terraform <file> a state file, format version 4 (\`terraform state pull > terraform.tfstate\`):
                          every boundary_target instance, count and for_each keys included,
                          in the state of every terraform-provider-boundary release
  --live                  also read each Target from the controller (address and token as for --scope)
                          and write its values: each attribute where the state differs is named on
                          stderr, and a Target the controller no longer has is named and left out
  An attribute this provider has no input for is reported on stderr by name, and left as it is.
  The state's other boundary_* resources (host catalogs, credential stores, aliases, …) stay in
  Terraform: the summary counts them by type.

Output:
  --format json           the bulk-import file (the default and only format)
  --out <file>            write it to <file> (default: standard output)
  --program ts            also write a TypeScript program declaring each Target with its inputs and
                          the \`import\` option, on the plugin route: \`pulumi package add <path to
                          pulumi-boundary>\` generates its package, pulumi-boundary-sdk (the dynamic
                          route's resources cannot be imported). \`pulumi up\` adopts them; the next
                          preview shows no changes. With --scope, each Target is read once more.
  --program-out <file>    where the program goes (default: targets.ts)
  -h, --help              this help

Names: a Terraform instance is named after its address (module.net.boundary_target.web["eu"] →
net-web-eu); a Target of a scope listing by its name, prefixed with its project's name (or id)
when the listing can span projects (--recursive, or an org or global scope), since Boundary's names
are unique per project only. Two Targets that would still share a name both get their id appended.
The output is sorted by name: the same estate gives the same file.
A summary goes to stderr: how many Targets, from which projects, what was skipped and why.
`;

/** Runs `pulumi-boundary import` with `argv` (after `import`); resolves to the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let flags;
  try {
    flags = parseFlags(argv, FLAGS);
    if (flags.help) {
      process.stdout.write(IMPORT_USAGE);
      return 0;
    }
    if ((flags.scope === undefined) === (flags["from-terraform"] === undefined)) throw new UsageError("give either --scope <id> or --from-terraform <file>");
    if (flags.format !== undefined && flags.format !== "json") throw new UsageError(`--format ${JSON.stringify(flags.format)}: the only format is json`);
    if (flags.program !== undefined && flags.program !== "ts")
      throw new UsageError(`--program ${JSON.stringify(flags.program)}: the only program language is ts`);
    if (flags["from-terraform"] !== undefined && (flags.recursive || flags.filter !== undefined)) {
      throw new UsageError("--recursive and --filter go with --scope, not with --from-terraform");
    }
    if (flags.live && flags["from-terraform"] === undefined) {
      throw new UsageError("--live goes with --from-terraform (--scope reads the controller already)");
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`pulumi-boundary import: ${err.message}\n`);
    return 2;
  }
  try {
    let found: Discovery =
      flags.scope !== undefined
        ? await discoverScope({ scopeId: flags.scope, recursive: !!flags.recursive, filter: flags.filter, read: flags.program === "ts" }, {}, env)
        : readTerraformState(flags["from-terraform"]!);
    if (flags.live) found = await readLive(found, {}, env);
    const command = ["pulumi-boundary import", ...argv].join(" ");
    const programOut = flags["program-out"] ?? "targets.ts";
    if (flags.program === "ts") write("--program-out", programOut, typescriptProgram(found, command));
    if (flags.out !== undefined) write("--out", flags.out, importFileText(found));
    else process.stdout.write(importFileText(found));
    process.stderr.write(summary(found));
    const next =
      flags.program === "ts"
        ? `next: \`pulumi package add <path to pulumi-boundary>\`, then \`pulumi up\` with ${programOut} as the program (or its declarations in yours)`
        : `next: pulumi import --file ${flags.out ?? "<that file>"}`;
    process.stderr.write(`wrote ${flags.out ?? "the bulk-import file to standard output"}${flags.program === "ts" ? ` and ${programOut}` : ""}; ${next}\n`);
    return 0;
  } catch (err) {
    // the client's errors (nothing listening, http:// to TLS, an untrusted certificate, …) name the
    // address and what to do; one line, whatever the text it quotes (OpenSSL's ends in a new line)
    if (!(err instanceof ImportInputError) && !(err instanceof BoundaryClientError)) throw err;
    process.stderr.write(`pulumi-boundary import: ${oneLine(err.message)}\n`);
    return 1;
  }
}

/** Writes `text` to `file`; a failure names the flag and the file. */
function write(flag: string, file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new ImportInputError(
      `${flag} ${file}: cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): give a path in a folder you can write to`,
    );
  }
}

/**
 * Node's advice for an untrusted certificate (`…; if the root CA is installed locally, try running
 * Node.js with --use-system-ca`): a user runs this command, not Node, and the message already names
 * BOUNDARY_CACERT and BOUNDARY_TLS_INSECURE.
 */
const NODE_CA_ADVICE = /;?\s*if the root CA is installed locally, try running Node\.js with --use-system-ca\.?/gi;

/** A message on one line, whatever the text it quotes (OpenSSL's ends in a new line), without Node's own advice. */
export function oneLine(message: string): string {
  return message
    .replace(NODE_CA_ADVICE, "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
}
