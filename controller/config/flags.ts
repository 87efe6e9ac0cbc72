/**
 * The flags of `pulumi-boundary dev` and its help text, the check of flag names that names the
 * nearest known one, and the token flags' env:// and file:// forms.
 */
import * as path from "node:path";
import { nearestName } from "../../common/nearest";
import { ConfigError } from "../errors";
// the keys alone, not the resolved table: the help and the flags' checks load nothing the run only needs
import { NEWEST_KEY, OLDEST_KEY, RELEASE_KEYS } from "../../wire/release-keys";

/** The release keys `--emulate` takes, as the help shows them: the first two, then the newest. */
const EMULATE = [RELEASE_KEYS[0], RELEASE_KEYS[1], "…", NEWEST_KEY].join("|");
/** What the keys mean: the spec's controller by default, or a Boundary release. */
const EMULATE_WHICH = `${RELEASE_KEYS[0]} (the default: the spec's API with v${OLDEST_KEY}'s facts) ` + `or any minor release ${OLDEST_KEY} to ${NEWEST_KEY}`;

/** The dev command's help text. */
export const USAGE = `Usage: pulumi-boundary dev [options]

Starts a local Boundary controller: the Target API and, on a separate ops listener, /health and
/metrics. Like \`boundary dev\`, it keeps Targets in memory: they are gone when it stops.

Options:
  --api-addr HOST:PORT              API listener (default 127.0.0.1:9200; port 0 picks a free port)
  --ops-addr HOST:PORT              ops listener (default 127.0.0.1:9203)
  --token TOKEN                     admin token (default: generated, in Boundary's at_… format); as Boundary's
                                    -token, env://NAME reads it from the environment variable NAME and
                                    file://PATH from a file, so \`ps\` does not show it
  --read-only-token TOKEN           a second token that may only list and read targets (env://, file:// too)
  --graceful-shutdown-wait DURATION keep serving this long after the first SIGINT/SIGTERM, with /health at 503 (at most 24h)
  --config FILE                     Boundary configuration file (HCL, or JSON when it ends in .json); its listener
                                    blocks serve HTTPS (tls_cert_file, tls_key_file, read from the working directory
                                    when relative) or plain HTTP (tls_disable = true); a misspelt key is refused
  --fixtures FILE                   JSON seed data replacing the default scopes, host sets, libraries and workers
  --emulate ${EMULATE}         which Boundary to behave like: ${EMULATE_WHICH}
  --ignore-create-associations      ignore host_set_ids/application_credential_library_ids on create (what --emulate ${OLDEST_KEY} does on create)
  --log-level trace|debug|info|warn|err
                                    least severe log lines written (default info; debug adds one line per request)
  --log-format text|json            log format (default text)
  -h, --help                        this help
  --version                         the package's version

Signals: SIGINT/SIGTERM shut down gracefully, and so does the end of the process that started it
(npx, npm, a shell). A second SIGINT/SIGTERM sent during the wait exits at once; the starting
process ending after the first signal (as it does under \`timeout\` or a process manager) does not.
SIGHUP reads the listeners' TLS certificate and key files again and changes nothing else.
`;

/** The flags of `pulumi-boundary dev` (besides --help and --version, which the CLI answers itself). */
export const DEV_FLAGS = {
  "api-addr": { type: "string" },
  "ops-addr": { type: "string" },
  token: { type: "string" },
  "read-only-token": { type: "string" },
  "graceful-shutdown-wait": { type: "string" },
  config: { type: "string" },
  fixtures: { type: "string" },
  "ignore-create-associations": { type: "boolean" },
  emulate: { type: "string" },
  "log-format": { type: "string" },
  "log-level": { type: "string" },
} as const;

/**
 * A token flag's value, in the forms Boundary's own `-token` flag and config take (go-secure-stdlib
 * parseutil.ParsePath): `env://NAME` reads the environment variable NAME, `file://PATH` the file
 * (relative to the working directory), each trimmed of surrounding white space; anything else is
 * the token itself. A message names the variable or file, never the value.
 */
export function secretOf(flag: string, value: string, readFile: (path: string) => string, env: NodeJS.ProcessEnv = process.env): string {
  if (value.startsWith("env://")) {
    const name = value.slice("env://".length);
    const v = env[name]?.trim();
    if (!v) throw new ConfigError(`${flag} ${value}: the environment variable ${name} is ${v === undefined ? "not set" : "empty"}`);
    return v;
  }
  if (value.startsWith("file://")) {
    const file = path.resolve(value.slice("file://".length));
    try {
      return readFile(file).trim();
    } catch (err) {
      throw new ConfigError(`${flag} ${value}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return value;
}

/**
 * Refuses an unknown flag before parseArgs does, naming the nearest known one (`--emulat` for
 * `--emulate`), and a known flag written with one dash (`-emulate`, which parseArgs would read as
 * `-e -m -u …`).
 */
export function checkFlagNames(argv: string[]): void {
  const known = Object.keys(DEV_FLAGS);
  const help = "pulumi-boundary dev --help lists the options";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return;
    const m = /^(--?)([^=]+)(=.*)?$/.exec(arg);
    if (!m || arg.length <= 2) continue;
    const [, dashes = "", name = "", inline] = m; // the pattern always fills the first two groups
    if (known.includes(name)) {
      if (dashes === "-") throw new ConfigError(`${arg}: options take two dashes: --${name}${inline ?? ""} (${help})`);
      if (!inline && DEV_FLAGS[name as keyof typeof DEV_FLAGS].type === "string") i++; // its value may start with a dash
      continue;
    }
    if (dashes === "-" && name.length === 1) continue; // -h
    const near = nearestName(name, known);
    throw new ConfigError(`unknown option ${dashes}${name}${near ? `: did you mean --${near}?` : ""} (${help})`);
  }
}
