/**
 * `pulumi-boundary dev` configuration: flags, then Boundary's own config file (HCL or JSON) for what
 * the flags leave unset, then defaults. Every mistake is a ConfigError naming the key and value;
 * the CLI prints it and exits 2.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { EMULATIONS, type Emulation } from "./emulation";
import type { RatePolicy } from "./rate-limit";
import { defaultFixtures, parseFixtures, type Fixtures } from "./fixtures";
import { ConfigSyntaxError, checkJsonNesting, fromJson, parseHcl, type Block } from "./hcl";
import { parseDuration } from "../common/duration";
import type { LogFormat } from "./log";
import type { ControllerOptions, HostPort } from "./server";
import { tlsProblem, type ListenerTls } from "./tls";

import { BASE58 } from "./base58";
import { ConfigError } from "./errors";
import { BASE62 } from "./ids";
export { ConfigError } from "./errors";

/** The controller's options as the dev command resolved them from flags, config file and defaults. */
export interface DevConfig extends ControllerOptions {
  /** How the log is written (text or JSON lines). */
  logFormat: LogFormat;
  /** True when the admin token was generated (the CLI prints it). */
  generatedToken: boolean;
}

/** The longest grace period accepted: 24 hours (longer ones are surely a typo, and overflow timers). */
export const MAX_GRACEFUL_SHUTDOWN_WAIT_MS = 24 * 3_600_000;

/** A config duration: Go syntax or a bare integer of seconds, in milliseconds, at most `max` (see common/duration.ts). */
export function configDuration(key: string, value: string | number, max = MAX_GRACEFUL_SHUTDOWN_WAIT_MS): number {
  let ms: number;
  try {
    ms = parseDuration(key, value);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  if (!Number.isFinite(ms) || ms > max) throw new ConfigError(`${key}: ${JSON.stringify(value)} is longer than the maximum of ${max / 3_600_000}h`);
  return ms;
}

/** "HOST:PORT" or "[IPv6]:PORT"; port 0 picks a free one. */
export function parseListenAddr(key: string, value: string): HostPort {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new ConfigError(`${key}: invalid address ${JSON.stringify(value)}: expected HOST:PORT, e.g. 127.0.0.1:9200`);
  return { host: m[1] ?? m[2]!, port };
}

/** A token in Boundary's format: `at_` + 10 base62 + `_s1` + base58 bytes. */
export function generateToken(): string {
  const pick = (alphabet: string, n: number) => [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join("");
  return `at_${pick(BASE62, 10)}_s1${pick(BASE58, 64)}`;
}

/** The dev command's help text. */
export const USAGE = `Usage: pulumi-boundary dev [options]
       pulumi-boundary --version

Starts a local Boundary controller: the Target API and, on a separate ops listener, /health and
/metrics. Like \`boundary dev\`, it keeps Targets in memory: they are gone when it stops.

Options:
  --api-addr HOST:PORT              API listener (default 127.0.0.1:9200; port 0 picks a free port)
  --ops-addr HOST:PORT              ops listener (default 127.0.0.1:9203)
  --token TOKEN                     admin token (default: generated, in Boundary's at_… format)
  --read-only-token TOKEN           a second token that may only list and read targets
  --graceful-shutdown-wait DURATION keep serving this long after the first SIGINT/SIGTERM, with /health at 503 (at most 24h)
  --config FILE                     Boundary configuration file (HCL, or JSON when it ends in .json); its listener
                                    blocks may serve HTTPS (tls_cert_file, tls_key_file; tls_disable = true for plain)
  --fixtures FILE                   JSON seed data replacing the default scopes, host sets, libraries and workers
  --emulate spec|0.4|…|0.21         which Boundary to behave like: spec (the default: the spec's API with v0.4's facts) or any minor release 0.4 to 0.21
  --ignore-create-associations      ignore host_set_ids/application_credential_library_ids on create (what --emulate 0.4 does on create)
  --log-format text|json            request log format (default text)
  -h, --help                        this help
  --version                         the package's version

Signals: SIGINT/SIGTERM shut down gracefully (a second one exits at once), as does the end of the
process that started it (npx, npm, a shell); SIGHUP reads the listeners' TLS certificate and key
files again and changes nothing else.
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
} as const;

/** Builds the dev controller's configuration from argv (after the `dev` word). */
export function loadDevConfig(argv: string[], readFile: (path: string) => string = (p) => readFileSync(p, "utf8")): DevConfig {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: DEV_FLAGS }));
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }

  const file = values.config ? readConfigFile(values.config, readFile) : undefined;
  const listener = (purpose: string) => file?.blocks.find((b) => b.type === "listener" && b.attrs["purpose"] === purpose);
  const fileAddr = (purpose: string): string | undefined => {
    const l = listener(purpose);
    if (!l) return undefined;
    const address = l.attrs["address"];
    if (address === undefined) return purpose === "api" ? "127.0.0.1:9200" : "127.0.0.1:9203";
    if (typeof address !== "string") throw new ConfigError(`listener "tcp" (purpose ${purpose}).address: must be a string, got ${JSON.stringify(address)}`);
    return /:\d+$/.test(address) ? address : `${address}:${purpose === "api" ? 9200 : 9203}`;
  };
  const controllerBlock = file?.blocks.find((b) => b.type === "controller");
  const fileWait = controllerBlock?.attrs["graceful_shutdown_wait_duration"];
  if (fileWait !== undefined && typeof fileWait !== "string" && typeof fileWait !== "number") {
    throw new ConfigError(`controller.graceful_shutdown_wait_duration: invalid duration ${JSON.stringify(fileWait)}`);
  }

  const api = {
    ...parseListenAddr(values["api-addr"] ? "--api-addr" : "listener (purpose api).address", values["api-addr"] ?? fileAddr("api") ?? "127.0.0.1:9200"),
    ...listenerTls(listener("api"), "api", readFile),
  };
  const ops = {
    ...parseListenAddr(values["ops-addr"] ? "--ops-addr" : "listener (purpose ops).address", values["ops-addr"] ?? fileAddr("ops") ?? "127.0.0.1:9203"),
    ...listenerTls(listener("ops"), "ops", readFile),
  };
  const waitMs =
    values["graceful-shutdown-wait"] !== undefined
      ? configDuration("--graceful-shutdown-wait", values["graceful-shutdown-wait"])
      : fileWait !== undefined
        ? configDuration("controller.graceful_shutdown_wait_duration", fileWait)
        : 0;

  const logFormat = values["log-format"] ?? "text";
  if (logFormat !== "text" && logFormat !== "json") throw new ConfigError(`--log-format: invalid value ${JSON.stringify(logFormat)}: must be text or json`);
  for (const key of ["token", "read-only-token"] as const) {
    const v = values[key];
    if (v !== undefined && (v === "" || /\s/.test(v))) throw new ConfigError(`--${key}: must be non-empty and contain no white space`);
  }
  if (values.token && values.token === values["read-only-token"]) throw new ConfigError("--read-only-token: must differ from --token");

  return {
    api,
    ops,
    token: values.token ?? generateToken(),
    generatedToken: values.token === undefined,
    readOnlyToken: values["read-only-token"],
    gracefulShutdownWaitMs: waitMs,
    fixtures: values.fixtures ? readFixtures(values.fixtures, readFile) : defaultFixtures(),
    ignoreCreateAssociations: values["ignore-create-associations"] ?? false,
    emulation: emulationOf(values.emulate, controllerBlock?.attrs["emulate"]),
    ...(controllerBlock ? rateLimitsOf(controllerBlock) : {}),
    ...(controllerBlock ? maxPageSizeOf(controllerBlock) : {}),
    logFormat,
  };
}

/**
 * The controller block's rate limits, as Boundary reads them: `api_rate_limit_disable = true`,
 * `api_rate_limit_max_quotas = N`, and `api_rate_limit { resources actions per limit period }`
 * blocks (actions "list", "*", or any other action name: each action its own quotas).
 */
function rateLimitsOf(controller: Block): { rateLimits?: RatePolicy[] | "disabled"; maxQuotas?: number } {
  const key = (k: string) => `controller.${k}`;
  const out: { rateLimits?: RatePolicy[] | "disabled"; maxQuotas?: number } = {};
  const max = controller.attrs["api_rate_limit_max_quotas"];
  if (max !== undefined) {
    if (typeof max !== "number" || !Number.isInteger(max) || max < 1)
      throw new ConfigError(`${key("api_rate_limit_max_quotas")}: ${JSON.stringify(max)} must be a whole number > 0`);
    out.maxQuotas = max;
  }
  if (controller.attrs["api_rate_limit_disable"] === true) return { ...out, rateLimits: "disabled" };
  const policies: RatePolicy[] = [];
  for (const b of controller.blocks.filter((x) => x.type === "api_rate_limit")) {
    const { actions, per, limit, period } = b.attrs;
    const where = key("api_rate_limit");
    if (per !== "total" && per !== "ip-address" && per !== "auth-token")
      throw new ConfigError(`${where}.per: ${JSON.stringify(per)} must be total, ip-address or auth-token`);
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0)
      throw new ConfigError(`${where}.limit: ${JSON.stringify(limit)} must be a whole number`);
    if (typeof period !== "string" && typeof period !== "number")
      throw new ConfigError(`${where}.period: ${JSON.stringify(period)} must be a duration such as "30s"`);
    if (!Array.isArray(actions) || actions.some((a) => typeof a !== "string"))
      throw new ConfigError(`${where}.actions: ${JSON.stringify(actions)} must be a list of action names`);
    const periodMs = configDuration(`${where}.period`, period);
    for (const action of new Set(actions as string[])) policies.push({ action, per, limit, periodMs });
  }
  return policies.length > 0 ? { ...out, rateLimits: policies } : out;
}

/** Boundary's `tls_min_version` / `tls_max_version` values, as Node names them. */
const TLS_VERSIONS: Record<string, ListenerTls["minVersion"]> = { tls12: "TLSv1.2", tls13: "TLSv1.3" };

/**
 * A listener block's TLS, as Boundary's listeners take it: `tls_cert_file` and `tls_key_file`
 * (PEM) serve HTTPS, `tls_disable = true` plain HTTP, `tls_min_version`/`tls_max_version` tls12 or
 * tls13. Both files are read now: one missing, unreadable or not a matching certificate and key
 * is a ConfigError naming the key and the file. (A block with neither a certificate nor
 * tls_disable serves plain HTTP here, where Boundary refuses it: dev configs rarely say.)
 */
function listenerTls(block: Block | undefined, purpose: string, readFile: (path: string) => string): { tls?: ListenerTls } {
  if (!block) return {};
  const where = (k: string) => `listener "tcp" (purpose ${purpose}).${k}`;
  const { tls_disable: disable, tls_cert_file: certFile, tls_key_file: keyFile, tls_min_version: min, tls_max_version: max } = block.attrs;
  if (disable !== undefined && typeof disable !== "boolean") throw new ConfigError(`${where("tls_disable")}: ${JSON.stringify(disable)} must be true or false`);
  if (disable === true || (certFile === undefined && keyFile === undefined)) return {};
  if (typeof certFile !== "string" || certFile === "")
    throw new ConfigError(`${where("tls_cert_file")}: required with tls_key_file, unless tls_disable = true`);
  if (typeof keyFile !== "string" || keyFile === "") throw new ConfigError(`${where("tls_key_file")}: required with tls_cert_file, unless tls_disable = true`);
  for (const [k, v] of [
    ["tls_min_version", min],
    ["tls_max_version", max],
  ] as const) {
    if (v !== undefined && (typeof v !== "string" || !TLS_VERSIONS[v])) throw new ConfigError(`${where(k)}: ${JSON.stringify(v)} must be tls12 or tls13`);
  }
  const read = (key: string, file: string) => {
    try {
      return readFile(file);
    } catch (err) {
      throw new ConfigError(`${where(key)}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };
  const tls: ListenerTls = { certFile, keyFile, cert: read("tls_cert_file", certFile), key: read("tls_key_file", keyFile) };
  if (typeof min === "string") tls.minVersion = TLS_VERSIONS[min];
  if (typeof max === "string") tls.maxVersion = TLS_VERSIONS[max];
  const problem = tlsProblem(tls);
  if (problem) throw new ConfigError(`${where("tls_cert_file")} ${certFile} and tls_key_file ${keyFile}: ${problem}`);
  return { tls };
}

/** The controller block's `max_page_size`: the default and largest page of a list (Boundary 0.15+). */
function maxPageSizeOf(controller: Block): { maxPageSize?: number } {
  const max = controller.attrs["max_page_size"];
  if (max === undefined) return {};
  if (typeof max !== "number" || !Number.isInteger(max) || max < 1)
    throw new ConfigError(`controller.max_page_size: ${JSON.stringify(max)} must be a whole number > 0`);
  return { maxPageSize: max };
}

/** `--emulate`, else the config file's `controller { emulate = "…" }`, else the spec. */
function emulationOf(flag: string | undefined, fromFile: unknown): Emulation {
  const [key, value] = flag !== undefined ? ["--emulate", flag] : ["controller.emulate", fromFile];
  if (value === undefined) return "spec";
  if (typeof value === "string" && (EMULATIONS as readonly string[]).includes(value)) return value as Emulation;
  throw new ConfigError(`${key}: ${JSON.stringify(value)} is not one of ${EMULATIONS.join(", ")}`);
}

function readConfigFile(path: string, readFile: (path: string) => string): Block {
  let text: string;
  try {
    text = readFile(path);
  } catch (err) {
    throw new ConfigError(`--config: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    if (!path.endsWith(".json")) return parseHcl(text);
    checkJsonNesting(text);
    return fromJson(JSON.parse(text));
  } catch (err) {
    if (err instanceof ConfigSyntaxError || err instanceof SyntaxError) throw new ConfigError(`--config ${path}: ${err.message}`);
    throw err;
  }
}

function readFixtures(path: string, readFile: (path: string) => string): Fixtures {
  let text: string;
  try {
    text = readFile(path);
  } catch (err) {
    throw new ConfigError(`--fixtures: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    checkJsonNesting(text);
    return parseFixtures(JSON.parse(text));
  } catch (err) {
    throw new ConfigError(`--fixtures ${path}: ${(err as Error).message}`);
  }
}
