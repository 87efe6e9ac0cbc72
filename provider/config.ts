/**
 * The provider's configuration, in one place: the stack config keys (`boundary:addr`,
 * `boundary:token`), which is secret, their environment fallbacks, and how a route's lookup becomes
 * client options. The dynamic route looks keys up in the engine's config, the plugin in Configure's
 * arguments, the functions in the program's stack config; the client falls back to the environment.
 */
import { ENV, type BoundaryClientOptions } from "./client";

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
    doc: 'The controller\'s API generation, "v0.4" or "current"; learned from its answers when unset.',
  },
} as const satisfies Record<string, ConfigSpec>;
/** A key of the provider's configuration (`boundary:<key>`), as PROVIDER_CONFIG lists them. */
export type ConfigKey = keyof typeof PROVIDER_CONFIG;

/** Client options from a lookup of the config keys; an unset or empty key is left to the environment. */
export function providerOptions(lookup: (key: ConfigKey) => string | undefined): BoundaryClientOptions {
  const generation = lookup("apiGeneration") || undefined;
  return { addr: lookup("addr") || undefined, token: lookup("token") || undefined, apiGeneration: generation as BoundaryClientOptions["apiGeneration"] };
}
