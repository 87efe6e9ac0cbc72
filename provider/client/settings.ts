/**
 * Where the client connects and how it behaves: explicit options first, then the environment
 * variables every Boundary client honours, read when a client is made (never at module load, so
 * nothing is baked into a serialized provider).
 */
import { readFileSync } from "node:fs";
import { parseDuration } from "../../common/duration";
import { API_GENERATIONS, isApiGeneration, type ApiGeneration } from "../../wire/releases";
import { ClientSettingsError } from "./errors";

/** How a client is configured; each option left out falls back to its BOUNDARY_* variable, then a default. */
export interface BoundaryClientOptions {
  /** API address, e.g. `http://127.0.0.1:9200`. Default: `BOUNDARY_ADDR`, else `http://127.0.0.1:9200`. */
  addr?: string;
  /** Auth token. Default: `BOUNDARY_TOKEN`. Never logged, never in an error. */
  token?: string;
  /** Ops address for `health()`. Default: `BOUNDARY_OPS_ADDR`, else the API host on port 9203. */
  opsAddr?: string;
  /** Per-request timeout in ms. Default: `BOUNDARY_CLIENT_TIMEOUT` (Go duration), else 60 s. */
  timeoutMs?: number;
  /** Retries of 429/503 and of idempotent calls that failed to connect. Default: `BOUNDARY_MAX_RETRIES`, else 2. */
  maxRetries?: number;
  /** PEM CA bundle for https. Default: the file named by `BOUNDARY_CACERT`. */
  caCert?: string;
  /** Skip TLS verification. Default: `BOUNDARY_TLS_INSECURE` is true. */
  tlsInsecure?: boolean;
  /** A client-side ceiling in requests per second. Default: `BOUNDARY_RATE_LIMIT`, else none (the server's limits pace it). */
  rateLimit?: number;
  /** The controller's API generation, when it must not be learned. Default: `BOUNDARY_API_GENERATION`, else learned from its answers. */
  apiGeneration?: ApiGeneration;
  /** A password (`ampw_…`) or LDAP (`amldap_…`) auth method to log in with when no token is given. Default: `BOUNDARY_AUTH_METHOD_ID`. */
  authMethodId?: string;
  /** The login name to log in with. Default: `BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME`. */
  authMethodLoginName?: string;
  /** The password to log in with. Default: `BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD`. Never logged, never in an error. */
  authMethodPassword?: string;
}

/** Where one login setting came from, for messages: the provider's config (or the option) or its environment variable. */
export type LoginSettingSource<K extends string, E extends string> = `boundary:${K}` | E;

/** How the client logs in when no token is given: an auth method, a login name and a password, and where each was set. */
export interface LoginSettings {
  authMethodId: string;
  loginName: string;
  password: string;
  from: {
    authMethodId: LoginSettingSource<"authMethodId", "BOUNDARY_AUTH_METHOD_ID">;
    loginName: LoginSettingSource<"authMethodLoginName", "BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME">;
    password: LoginSettingSource<"authMethodPassword", "BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD">;
  };
}

/** v0.4's names (`host_set_ids`, `:set-host-sets`; Boundary < 0.11) or current ones (`host_source_ids`, `:set-host-sources`). */
export type { ApiGeneration } from "../../wire/releases";

/** The resolved settings a client runs with. */
export interface ClientSettings {
  origin: string;
  basePath: string;
  opsOrigin: string;
  token: string | undefined;
  /** Where the address came from, for messages: the provider's config or the `addr` option, BOUNDARY_ADDR, or neither (the default). */
  addrFrom: "boundary:addr" | "BOUNDARY_ADDR" | "default";
  /** Where the token came from, for messages: the provider's config or the `token` option, or BOUNDARY_TOKEN. */
  tokenFrom: "boundary:token" | "BOUNDARY_TOKEN" | undefined;
  timeoutMs: number;
  maxRetries: number;
  caCert: string | undefined;
  tlsInsecure: boolean;
  rateLimit: number | undefined;
  apiGeneration: ApiGeneration | undefined;
  /** The login, when no token is given and an auth method is (a token wins, as in terraform-provider-boundary). */
  login: LoginSettings | undefined;
  /** An auth method was configured too, but the token wins: for the doctor to say so. */
  loginIgnored: boolean;
}

/** The environment variables every Boundary client honours, by the setting they provide. */
export const ENV = {
  addr: "BOUNDARY_ADDR",
  token: "BOUNDARY_TOKEN",
  opsAddr: "BOUNDARY_OPS_ADDR",
  timeout: "BOUNDARY_CLIENT_TIMEOUT",
  maxRetries: "BOUNDARY_MAX_RETRIES",
  caCert: "BOUNDARY_CACERT",
  tlsInsecure: "BOUNDARY_TLS_INSECURE",
  rateLimit: "BOUNDARY_RATE_LIMIT",
  apiGeneration: "BOUNDARY_API_GENERATION",
  authMethodId: "BOUNDARY_AUTH_METHOD_ID",
  authMethodLoginName: "BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME",
  authMethodPassword: "BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD",
} as const;

/** The auth method prefixes a login with a name and a password takes: password, and LDAP (Boundary 0.13+). */
export const LOGIN_PREFIXES = ["ampw_", "amldap_"] as const;

/**
 * The login settings, each from its option or else its environment variable, checked before any call:
 * all three or none, and an auth method a name and a password log in to (OIDC needs a browser).
 */
function resolveLogin(options: BoundaryClientOptions, env: NodeJS.ProcessEnv): LoginSettings | undefined {
  const pick = <K extends "authMethodId" | "authMethodLoginName" | "authMethodPassword">(key: K) => {
    const value = options[key] || env[ENV[key]] || undefined;
    return { value, from: (options[key] ? `boundary:${key}` : ENV[key]) as `boundary:${K}` | (typeof ENV)[K] };
  };
  const id = pick("authMethodId");
  const name = pick("authMethodLoginName");
  const password = pick("authMethodPassword");
  const given = [id, name, password].filter((s) => s.value !== undefined);
  if (given.length === 0) return undefined;
  const missing = [
    ["boundary:authMethodId", ENV.authMethodId, id],
    ["boundary:authMethodLoginName", ENV.authMethodLoginName, name],
    ["boundary:authMethodPassword", ENV.authMethodPassword, password],
  ].filter(([, , s]) => (s as { value?: string }).value === undefined);
  if (missing.length > 0) {
    const set = given.map((s) => s.from).join(", ");
    const need = missing.map(([key, variable]) => `${key} (or ${variable})`).join(" and ");
    throw new ClientSettingsError(`${set} is set, so the provider logs in, but ${need} is not: set it, or give a token (boundary:token) instead`);
  }
  const am = id.value!;
  if (am.startsWith("amoidc_"))
    throw new ClientSettingsError(
      `${id.from}: ${JSON.stringify(am)} is an OIDC auth method, which logs in through a browser: ` +
        "give a password (ampw_…) or LDAP (amldap_…) auth method, or a token (boundary:token)",
    );
  if (!LOGIN_PREFIXES.some((p) => am.startsWith(p)) || !/^[a-z]+_[0-9A-Za-z]{10}$/.test(am))
    throw new ClientSettingsError(
      `${id.from}: ${JSON.stringify(am)} is not an auth method id: a password auth method is ampw_ and 10 letters or digits, an LDAP one amldap_…`,
    );
  return {
    authMethodId: am,
    loginName: name.value!,
    password: password.value!,
    from: { authMethodId: id.from, loginName: name.from, password: password.from },
  };
}

function parseUrl(key: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientSettingsError(`${key}: ${JSON.stringify(value)} is not a URL such as http://127.0.0.1:9200`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ClientSettingsError(`${key}: ${JSON.stringify(value)} must use http or https`);
  return url;
}

/** A token an Authorization header can carry: visible ASCII and beyond, no control character and no white space. */
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const HEADER_VALUE = /^[^\x00-\x20\x7f]+$/;

/** The ops listener's default: the API's host on port 9203 (`boundary dev`'s). URL keeps an IPv6 host's brackets. */
function opsBeside(api: URL): URL {
  const ops = new URL(api.origin);
  ops.port = "9203";
  return ops;
}

/**
 * Resolves options against the environment: an explicit option wins, then its BOUNDARY_* variable,
 * then the default. Throws ClientSettingsError naming the option or variable that is malformed.
 */
export function resolveSettings(options: BoundaryClientOptions = {}, env: NodeJS.ProcessEnv = process.env): ClientSettings {
  const addrKey = options.addr ? "addr" : "BOUNDARY_ADDR";
  // an empty BOUNDARY_ADDR is unset, as an empty BOUNDARY_TOKEN is
  const api = parseUrl(addrKey, options.addr ?? (env[ENV.addr] || undefined) ?? "http://127.0.0.1:9200");
  if (/\/v1\/*$/.test(api.pathname)) {
    // the client adds /v1/ to every path: this address would ask …/v1/v1/targets, which no Boundary serves
    const fixed = api.origin + api.pathname.replace(/\/v1\/*$/, "");
    throw new ClientSettingsError(
      `${addrKey === "addr" ? "addr (boundary:addr)" : addrKey}: ${JSON.stringify(api.href)} ends in /v1, which the provider adds to every path itself ` +
        `(it would ask ${fixed}/v1/v1/targets): give the API listener's address without it, ${JSON.stringify(fixed)}`,
    );
  }
  const opsValue = options.opsAddr ?? env[ENV.opsAddr];
  const ops = opsValue ? parseUrl(options.opsAddr ? "opsAddr" : "BOUNDARY_OPS_ADDR", opsValue) : opsBeside(api);

  let timeoutMs = options.timeoutMs;
  const timeout = env[ENV.timeout];
  if (timeoutMs === undefined && timeout) {
    try {
      timeoutMs = parseDuration(ENV.timeout, timeout);
    } catch (err) {
      throw new ClientSettingsError((err as Error).message);
    }
  }
  let maxRetries = options.maxRetries;
  if (maxRetries === undefined && env[ENV.maxRetries] !== undefined && env[ENV.maxRetries] !== "") {
    maxRetries = Number(env[ENV.maxRetries]);
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new ClientSettingsError(`BOUNDARY_MAX_RETRIES: ${JSON.stringify(env[ENV.maxRetries])} must be a whole number >= 0`);
    }
  }
  let caCert = options.caCert;
  const caFile = env[ENV.caCert];
  if (caCert === undefined && caFile) {
    try {
      caCert = readFileSync(caFile, "utf8");
    } catch (err) {
      throw new ClientSettingsError(`${ENV.caCert}: cannot read ${caFile}: ${(err as NodeJS.ErrnoException).code}`);
    }
  }
  let rateLimit = options.rateLimit;
  const rateEnv = env[ENV.rateLimit];
  if (rateLimit === undefined && rateEnv !== undefined && rateEnv !== "") {
    rateLimit = Number(rateEnv);
    if (!Number.isFinite(rateLimit) || rateLimit <= 0)
      throw new ClientSettingsError(`${ENV.rateLimit}: ${JSON.stringify(rateEnv)} must be a number of requests per second > 0`);
  }
  const generation = options.apiGeneration ?? (env[ENV.apiGeneration] || undefined);
  if (generation !== undefined && !isApiGeneration(generation)) {
    const generations = API_GENERATIONS.map((g) => JSON.stringify(g)).join(" or ");
    throw new ClientSettingsError(`${options.apiGeneration ? "apiGeneration" : ENV.apiGeneration}: ${JSON.stringify(generation)} must be ${generations}`);
  }
  const token = options.token ?? (env[ENV.token] || undefined);
  const tokenFrom = options.token ? "boundary:token" : env[ENV.token] ? "BOUNDARY_TOKEN" : undefined;
  if (token !== undefined && !HEADER_VALUE.test(token)) {
    // undici would refuse the header at the first call with its own words; the value is never shown
    throw new ClientSettingsError(
      `${tokenFrom === "boundary:token" ? "token (boundary:token)" : "BOUNDARY_TOKEN"}: the token holds a control character or white space ` +
        `(a line ending from a file saved on Windows, a pasted tab?): give the token alone, at_… as Boundary printed it`,
    );
  }
  const login = resolveLogin(options, env);
  return {
    origin: api.origin,
    basePath: api.pathname.replace(/\/+$/, ""),
    opsOrigin: ops.origin,
    token,
    addrFrom: options.addr ? "boundary:addr" : env[ENV.addr] ? "BOUNDARY_ADDR" : "default",
    tokenFrom,
    timeoutMs: timeoutMs && timeoutMs > 0 ? timeoutMs : 60_000,
    maxRetries: maxRetries ?? 2,
    caCert,
    tlsInsecure: options.tlsInsecure ?? /^(1|true|yes)$/i.test(env[ENV.tlsInsecure] ?? ""),
    rateLimit,
    apiGeneration: generation,
    // a token wins over a login, as in terraform-provider-boundary
    login: token === undefined ? login : undefined,
    loginIgnored: token !== undefined && login !== undefined,
  };
}
