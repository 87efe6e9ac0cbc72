/**
 * `pulumi-boundary dev` configuration but its seed data: flags, then Boundary's own config file
 * (HCL or JSON) for what the flags leave unset, then defaults. Every mistake is a ConfigError naming
 * the key and value; the CLI prints it and exits 2. Light on purpose (no zod, no server): the
 * command checks all of this before it loads what only the run needs; dev-config.ts adds the
 * seed data.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Emulation } from "../emulation";
import type { RatePolicy } from "../rate-limit";
import { ConfigSyntaxError, checkJsonNesting, fromJson, parseHcl, type Block } from "./hcl";
import { parseDuration } from "../../common/duration";
import { LOG_LEVELS, type LogFormat, type LogLevel } from "../log";
import type { ControllerOptions, HostPort } from "./options";
import { checkConfigKeys } from "./keys";
import { DEV_FLAGS, checkFlagNames, secretOf } from "./flags";
import { DEFAULT_ADDR, listenerAddress, listenerBlocks, listenerTls } from "./listeners";
import { RELEASE_KEYS } from "../../wire/release-keys";

import { BASE58 } from "../sessions/base58";
import { ConfigError } from "../errors";
import { BASE62 } from "../ids";

/** The releases `--emulate` takes: the table's keys (emulation.ts's EMULATIONS, without loading the resolved table). */
const EMULATIONS: readonly Emulation[] = RELEASE_KEYS;

/** The dev controller's options as resolved from flags, config file and defaults, but the seed data (see dev-config.ts). */
export interface DevSettings extends Omit<ControllerOptions, "fixtures"> {
  /** How the log is written (text or JSON lines). */
  logFormat: LogFormat;
  /** The least severe level written (`--log-level`; default info: no line per request, as Boundary). */
  logLevel: LogLevel;
  /** What the config file holds that is not used (unknown keys nothing known is near, Boundary's keys this controller ignores). */
  warnings: string[];
  /** True when the admin token was generated (the CLI prints it). */
  generatedToken: boolean;
  /** `--fixtures`: the seed data's file, read by dev-config.ts (absent: the default seed data). */
  fixturesFile?: string;
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

/** The dev controller's settings from argv (after the `dev` word): every flag and the config file checked; the seed data's file named, not read. */
export function readDevSettings(argv: string[], readFile: (path: string) => string = readText): DevSettings {
  checkFlagNames(argv);
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: DEV_FLAGS }));
  } catch (err) {
    throw new ConfigError(`${(err as Error).message} (pulumi-boundary dev --help lists the options)`);
  }

  const warnings: string[] = [];
  const file = values.config ? readConfigFile(values.config, readFile, warnings) : undefined;
  const listeners = file ? listenerBlocks(file, values.config!, warnings) : {};
  const listener = (purpose: "api" | "ops", flag: string | undefined) => {
    const l = listeners[purpose];
    const addr = parseListenAddr(
      flag ? `--${purpose}-addr` : `listener (purpose ${purpose}).address`,
      flag ?? (l ? listenerAddress(l) : DEFAULT_ADDR[purpose]),
    );
    return { ...addr, ...(l ? listenerTls(l, `${addr.host.includes(":") ? `[${addr.host}]` : addr.host}:${addr.port}`, readFile) : {}) };
  };
  const controllerBlock = file?.blocks.find((b) => b.type === "controller");
  const fileWait = controllerBlock?.attrs["graceful_shutdown_wait_duration"];
  if (fileWait !== undefined && typeof fileWait !== "string" && typeof fileWait !== "number") {
    throw new ConfigError(`controller.graceful_shutdown_wait_duration: invalid duration ${JSON.stringify(fileWait)}`);
  }

  const api = listener("api", values["api-addr"]);
  const ops = listener("ops", values["ops-addr"]);
  const waitMs =
    values["graceful-shutdown-wait"] !== undefined
      ? configDuration("--graceful-shutdown-wait", values["graceful-shutdown-wait"])
      : fileWait !== undefined
        ? configDuration("controller.graceful_shutdown_wait_duration", fileWait)
        : 0;

  const logFormat = values["log-format"] ?? "text";
  if (logFormat !== "text" && logFormat !== "json") throw new ConfigError(`--log-format: invalid value ${JSON.stringify(logFormat)}: must be text or json`);
  const logLevel = values["log-level"] ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    throw new ConfigError(`--log-level: invalid value ${JSON.stringify(logLevel)}: must be one of ${LOG_LEVELS.join(", ")}`);
  const [token, readOnlyToken] = (["token", "read-only-token"] as const).map((key) => {
    const v = values[key] === undefined ? undefined : secretOf(`--${key}`, values[key], readFile);
    if (v !== undefined && (v === "" || /\s/.test(v))) throw new ConfigError(`--${key}: must be non-empty and contain no white space`);
    return v;
  });
  if (token && token === readOnlyToken) throw new ConfigError("--read-only-token: must differ from --token");

  return {
    api,
    ops,
    token: token ?? generateToken(),
    generatedToken: token === undefined,
    readOnlyToken,
    gracefulShutdownWaitMs: waitMs,
    fixturesFile: values.fixtures || undefined, // as before: an empty --fixtures is the default seed data
    ignoreCreateAssociations: values["ignore-create-associations"] ?? false,
    emulation: emulationOf(values.emulate, controllerBlock?.attrs["emulate"]),
    ...(controllerBlock ? rateLimitsOf(controllerBlock) : {}),
    ...(controllerBlock ? maxPageSizeOf(controllerBlock) : {}),
    ...(controllerBlock ? tokenLifeOf(controllerBlock) : {}),
    logFormat,
    logLevel: logLevel as LogLevel,
    warnings,
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

/** The controller block's `max_page_size`: the default and largest page of a list (Boundary 0.15+). */
function maxPageSizeOf(controller: Block): { maxPageSize?: number } {
  const max = controller.attrs["max_page_size"];
  if (max === undefined) return {};
  if (typeof max !== "number" || !Number.isInteger(max) || max < 1)
    throw new ConfigError(`controller.max_page_size: ${JSON.stringify(max)} must be a whole number > 0`);
  return { maxPageSize: max };
}

/** The controller block's `auth_token_time_to_live`: how long a token a login issues lives (Boundary's default 7 days, at most a year here). */
function tokenLifeOf(controller: Block): { authTokenTtlMs?: number } {
  const ttl = controller.attrs["auth_token_time_to_live"];
  if (ttl === undefined) return {};
  if (typeof ttl !== "string" && typeof ttl !== "number")
    throw new ConfigError(`controller.auth_token_time_to_live: ${JSON.stringify(ttl)} must be a duration such as "24h"`);
  return { authTokenTtlMs: configDuration("controller.auth_token_time_to_live", ttl, 365 * 24 * 3_600_000) };
}

/** `--emulate`, else the config file's `controller { emulate = "…" }`, else the spec. */
function emulationOf(flag: string | undefined, fromFile: unknown): Emulation {
  const [key, value] = flag !== undefined ? ["--emulate", flag] : ["controller.emulate", fromFile];
  if (value === undefined) return EMULATIONS[0]!; // the table's first row: the spec
  if (typeof value === "string" && (EMULATIONS as readonly string[]).includes(value)) return value as Emulation;
  throw new ConfigError(`${key}: ${JSON.stringify(value)} is not one of ${EMULATIONS.join(", ")}`);
}

/**
 * Reads and parses the config file, and checks its keys (keys.ts): the first refused key
 * is a ConfigError naming the file and line; warnings are added to `warnings`.
 */
function readConfigFile(path: string, readFile: (path: string) => string, warnings: string[]): Block {
  let text: string;
  try {
    text = readFile(path);
  } catch (err) {
    throw new ConfigError(`--config: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let root: Block;
  try {
    if (!path.endsWith(".json")) root = parseHcl(text);
    else {
      checkJsonNesting(text);
      root = fromJson(JSON.parse(text), text);
    }
  } catch (err) {
    if (err instanceof ConfigSyntaxError || err instanceof SyntaxError) throw new ConfigError(`--config ${path}: ${err.message}`);
    throw err;
  }
  const { errors, warnings: found } = checkConfigKeys(root);
  const at = (line: number) => `--config ${path}: ${line ? `line ${line}: ` : ""}`;
  if (errors[0]) throw new ConfigError(`${at(errors[0].line)}${errors[0].message}`);
  for (const w of found) warnings.push(`${at(w.line)}warning: ${w.message}`);
  return root;
}

/** Reads a file named on the command line or in the config file, as text. */
export function readText(path: string): string {
  return readFileSync(path, "utf8");
}
