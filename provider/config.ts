/**
 * The provider's configuration, in one place: the stack config keys (`boundary:addr`,
 * `boundary:token`, the login's `boundary:authMethod…`), which are secret, their environment fallbacks, and how a route's lookup becomes
 * client options. The dynamic route looks keys up in the engine's config, the plugin in Configure's
 * arguments, the functions in the program's stack config; the client falls back to the environment.
 */
import { ENV, type BoundaryClientOptions } from "./client";
import { ClientSettingsError } from "./client/errors";
import { LDAP_SINCE } from "./client/login";
import { looseName, nearestName } from "../common/nearest";
import { API_GENERATIONS } from "../wire/releases";

/** The package name: the namespace of the stack config keys. */
export const PACKAGE = "boundary";

/** One config key: its environment fallback, whether it is secret, and its documentation. */
export interface ConfigSpec {
  env: string;
  secret: boolean;
  doc: string;
}

/** Each config key of the provider. */
export const PROVIDER_CONFIG = {
  addr: { env: ENV.addr, secret: false, doc: "Boundary API address, e.g. http://127.0.0.1:9200." },
  token: { env: ENV.token, secret: true, doc: "Boundary auth token (`at_…`)." },
  apiGeneration: {
    env: ENV.apiGeneration,
    secret: false,
    doc: `The controller's API generation, ${API_GENERATIONS.map((g) => JSON.stringify(g)).join(" or ")}; learned from its answers when unset.`,
  },
  authMethodId: {
    env: ENV.authMethodId,
    secret: false,
    doc:
      `A password (\`ampw_…\`) or LDAP (\`amldap_…\`, Boundary ${LDAP_SINCE}+) ` +
      "auth method to log in with when no token is set; a token wins when both are.",
  },
  authMethodLoginName: { env: ENV.authMethodLoginName, secret: false, doc: "The login name to log in with (with `authMethodId`)." },
  authMethodPassword: { env: ENV.authMethodPassword, secret: true, doc: "The password to log in with (with `authMethodId`); kept in memory only." },
} as const satisfies Record<string, ConfigSpec>;
/** A key of the provider's configuration (`boundary:<key>`), as PROVIDER_CONFIG lists them. */
export type ConfigKey = keyof typeof PROVIDER_CONFIG;

/** The provider's config keys, in the table's order. */
export const CONFIG_KEYS = Object.keys(PROVIDER_CONFIG) as ConfigKey[];

/**
 * A config value as a route hands it over, or undefined for unset. `pulumi do` sends every key it
 * has a schema default for (`defaultInfo`) as null in Configure's arguments and as the JSON text
 * `"null"` in its variables: both mean unset, and so does "" (no address, token or generation is
 * spelt "null").
 */
function setValue(value: string | undefined): string | undefined {
  return value === undefined || value === "" || value === "null" ? undefined : value;
}

/** Client options from a lookup of the config keys; an unset, empty or null key is left to the environment, then the default. */
export function providerOptions(lookup: (key: ConfigKey) => string | undefined): BoundaryClientOptions {
  const generation = setValue(lookup("apiGeneration"));
  return {
    addr: setValue(lookup("addr")),
    token: setValue(lookup("token")),
    apiGeneration: generation as BoundaryClientOptions["apiGeneration"],
    authMethodId: setValue(lookup("authMethodId")),
    authMethodLoginName: setValue(lookup("authMethodLoginName")),
    authMethodPassword: setValue(lookup("authMethodPassword")),
  };
}

/** Provider inputs the engine itself may add to a provider resource's inputs: never the user's config keys. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL", "pluginChecksums", "parameterization"]);

/**
 * Why a stack config key of the package (`boundary:<key>`, given here without the namespace) is not
 * one of the provider's, with the nearest known key when one is close (`boundary:address` → did you
 * mean `boundary:addr`?): a misspelt key would otherwise be ignored and the default address used.
 * Undefined for a known key, and for what the engine adds itself (`version`, `__…`).
 */
export function configKeyProblem(key: string): string | undefined {
  if ((CONFIG_KEYS as readonly string[]).includes(key) || ENGINE_KEYS.has(key) || key.startsWith("__")) return undefined;
  const plain = looseName(key);
  const near =
    nearestName(key, CONFIG_KEYS, looseName) ??
    CONFIG_KEYS.find((k) => plain.length >= 3 && (plain.includes(k.toLowerCase()) || k.toLowerCase().includes(plain)));
  const known = CONFIG_KEYS.map((k) => `${PACKAGE}:${k}`).join(", ");
  return `${PACKAGE}:${key} is not a config key of the ${PACKAGE} provider${near ? `: did you mean ${PACKAGE}:${near}?` : ""} (its keys: ${known})`;
}

/** Throws ClientSettingsError naming every unknown key among `keys` (without the `boundary:` namespace) and the nearest known one. */
export function refuseUnknownConfigKeys(keys: Iterable<string>): void {
  const problems = [...keys].map(configKeyProblem).filter((p): p is string => p !== undefined);
  if (problems.length > 0) throw new ClientSettingsError(problems.join("; "));
}
