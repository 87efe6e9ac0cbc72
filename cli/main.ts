#!/usr/bin/env node
/**
 * `pulumi-boundary`: the package's command line. It only dispatches: each command lives in the
 * room it belongs to (`dev` with the controller, `import` with the provider) and is loaded when
 * asked, so `dev` never loads Pulumi and `import` never loads the controller. Every failure is one
 * line on standard error, never a stack trace.
 */
// first: on a Node.js older than the package needs, one line naming both versions, not undici's
// "Cannot read properties of undefined" from deep inside the import command
import "../provider/node-version";
import { nearestName } from "../common/nearest";
import { PulumiBoundaryError } from "../common/errors";
import { printVersion } from "../common/version";

/** What a command module exports: its run, given the arguments after its name; an exit code, or -1 while it keeps running. */
interface Command {
  main(args: string[]): Promise<number>;
}

/** The commands, each with its one-line summary and its module (loaded only when it runs). */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  dev: { summary: "start a local Boundary controller (the Target API, /health and /metrics)", load: () => import("../controller/dev-command") },
  import: { summary: "write Pulumi's bulk-import file for Targets from a scope or a Terraform state", load: () => import("../provider/estate/command") },
  doctor: { summary: "check the first connection to a Boundary with the provider's settings (never writes)", load: () => import("../provider/doctor/command") },
};

/** The top-level help: the commands and where each one's own help is. */
export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: pulumi-boundary <command> [options]

Commands:
${rows.join("\n")}

  pulumi-boundary <command> --help   a command's options
  pulumi-boundary --version          the package's version
`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--version" || command === "-v") return printVersion();
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process[command === undefined ? "stderr" : "stdout"].write(usage());
    return command === undefined ? 2 : 0;
  }
  const known = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!known) {
    const near = nearestName(command, Object.keys(COMMANDS));
    const hint = near ? `did you mean \`pulumi-boundary ${near}\`?` : `the commands are ${Object.keys(COMMANDS).join(", ")}`;
    process.stderr.write(`pulumi-boundary: unknown command ${JSON.stringify(command)}: ${hint} (pulumi-boundary --help lists them)\n`);
    return 2;
  }
  return (await known.load()).main(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    // A catalogued error is the user's to read; anything else is a bug of this package, reported
    // in one line too, with the stack only on request.
    const message = err instanceof Error ? err.message : String(err);
    const bug = err instanceof PulumiBoundaryError ? "" : " (this is a bug of pulumi-boundary: please report it; PULUMI_BOUNDARY_DEBUG=1 prints its stack)";
    process.stderr.write(`pulumi-boundary: ${message}${bug}\n`);
    if (process.env.PULUMI_BOUNDARY_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    process.exitCode = 1;
  },
);
