/**
 * `pulumi-boundary import`: writes Pulumi's bulk-import file for Targets that exist outside
 * Pulumi, found in a live scope or in a Terraform state, and with `--program ts` a TypeScript
 * program that adopts them. It only reads: nothing on the controller is created, changed or
 * deleted. Exit codes: 0 written, 1 bad input (one message naming it and what to do), 2 a command
 * line that cannot be run. The flags are checked before anything else loads; the help, the
 * provider's client (only a live scope or --live needs it) and the state's reader load where they
 * are used.
 */
import { writeFileSync } from "node:fs";
import { ImportInputError, type Discovery } from "./discovery";
import { UsageError, parseFlags } from "./flags";

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

/** Runs `pulumi-boundary import` with `argv` (after `import`); resolves to the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let flags;
  try {
    flags = parseFlags(argv, FLAGS);
    if (flags.help) {
      process.stdout.write((await import("./usage")).IMPORT_USAGE);
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
        ? await (
            await import("./scope")
          ).discoverScope({ scopeId: flags.scope, recursive: !!flags.recursive, filter: flags.filter, read: flags.program === "ts" }, {}, env)
        : (await import("./terraform")).readTerraformState(flags["from-terraform"]!);
    if (flags.live) found = await (await import("./live")).readLive(found, {}, env);
    const { importFileText, summary, typescriptProgram } = await import("./output");
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
    if (!(err instanceof ImportInputError) && !(err instanceof (await import("../client/errors")).BoundaryClientError)) throw err;
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
