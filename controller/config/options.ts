/**
 * How to start a controller: its listeners, token, grace period, seed data and release. The CLI
 * builds these from flags and a configuration file (dev-config.ts); tests and benches pass them
 * to `startController` directly.
 */
import type { Emulation } from "../emulation";
import type { Logger } from "../log";
import type { RatePolicy } from "../rate-limit";
import type { Fixtures, Store } from "../store";
import type { ListenerTls } from "./tls";

/** A listener address; port 0 picks a free port. */
export interface HostPort {
  host: string;
  port: number;
}

/** A listener: its address, and TLS when it serves HTTPS (see tls.ts). */
export interface ListenerOptions extends HostPort {
  tls?: ListenerTls;
}

/** How to start a controller. */
export interface ControllerOptions {
  api: ListenerOptions;
  ops: ListenerOptions;
  token: string;
  readOnlyToken?: string;
  /** How long a token an account's login issues lives (Boundary's `auth_token_time_to_live`; default 7 days). */
  authTokenTtlMs?: number;
  /** 0 disables the grace period: shutdown starts at once. */
  gracefulShutdownWaitMs: number;
  fixtures: Fixtures;
  ignoreCreateAssociations?: boolean;
  /** Which Boundary to behave like (see emulation.ts); default the spec. */
  emulation?: Emulation;
  logger?: Logger;
  /** Serve an existing store (a restart that keeps its data, as a real controller's database does). */
  store?: Store;
  /** The most live sessions held (default DEFAULT_MAX_SESSIONS); beyond, authorize-session answers 503. */
  maxSessions?: number;
  /** Rate limits of an emulated current release: policies overriding Boundary's defaults, or "disabled" (`api_rate_limit_disable`). */
  rateLimits?: readonly RatePolicy[] | "disabled";
  /** The most quota windows held (`api_rate_limit_max_quotas`). */
  maxQuotas?: number;
  /** The default and largest page of a paginated list (`max_page_size`; Boundary's default 1,000). */
  maxPageSize?: number;
}
