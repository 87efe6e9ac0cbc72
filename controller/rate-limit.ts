/**
 * Boundary's API rate limiter (on by default since 0.14.3), for the releases that have it: every
 * request is counted against three quotas of its resource and action (`target` and `read`, `list`,
 * `authorize-session`, …): per auth token, per client IP and in total, each a fixed window with its
 * own limit, as internal/ratelimit keys them (`resource:action:per`). A create does not use up
 * reads. Over any of them, the request is refused (429 with Retry-After); every answer carries its
 * action's policy and how much of the tightest of its quotas is left. The defaults and the quota
 * store's default size are the release table's. Knows no HTTP.
 */
import { defaultMaxQuotas, type RateLimiterDefaults, type ReleaseFacts } from "../wire/releases";
import { InternalError } from "../common/errors";

/** Which quota a policy sets. */
export type Per = "total" | "ip-address" | "auth-token";

/**
 * One quota: `limit` requests per `periodMs` of `action` (a Boundary action name, or "*" for every
 * action; Boundary's defaults say "other" for every action but list), counted per `per`.
 */
export interface RatePolicy {
  action: string;
  per: Per;
  limit: number;
  periodMs: number;
}

/** The release's default policies (the release table's): list, and every other action ("other"), each per `per`. */
export function defaultPolicies(d: RateLimiterDefaults): RatePolicy[] {
  const periodMs = d.periodSeconds * 1000;
  return (["list", "other"] as const).flatMap((action) => [
    { action, per: "auth-token" as const, limit: d[action].authToken, periodMs },
    { action, per: "ip-address" as const, limit: d[action].ipAddress, periodMs },
    { action, per: "total" as const, limit: d[action].total, periodMs },
  ]);
}

/** What the limiter decided: the headers every answer carries, and whether (and why) it refuses. */
export interface RateDecision {
  headers: Record<string, string>;
  refuse?: { status: 429 | 503; retryAfterSeconds: number };
}

const ORDER: Per[] = ["total", "ip-address", "auth-token"];

/**
 * The three policies of `action`, in header order, as Boundary's `Configs.Limits` resolves them:
 * for each `per`, the release's default for the action (list, or every other action), overridden
 * by each configured policy naming the action or "*", a later one over an earlier one.
 */
export function policiesFor(defaults: readonly RatePolicy[], configured: readonly RatePolicy[], action: string): RatePolicy[] {
  const kind = action === "list" ? "list" : "other";
  return ORDER.map((per) => {
    let chosen = defaults.find((d) => d.per === per && d.action === kind)!;
    for (const p of configured) if (p.per === per && (p.action === action || p.action === "*")) chosen = p;
    return chosen;
  });
}

/** A release's rate limiter: its defaults from the release table, the config file's policies over them. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();
  /** Each action's policies and policy header, worked out on its first request. */
  private readonly byAction = new Map<string, { policies: RatePolicy[]; header: string }>();
  private readonly defaults: readonly RatePolicy[];
  private readonly maxQuotas: number;

  /**
   * `release`: a release with the limiter (its defaults and default store size); `configured`:
   * the config file's policies, in its order, over the defaults; `maxQuotas`: the store's size, the
   * release's default when not given.
   */
  constructor(
    release: ReleaseFacts,
    private readonly configured: readonly RatePolicy[] = [],
    maxQuotas?: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!release.rateLimiter) throw new InternalError(`Boundary ${release.release} has no rate limiter`);
    this.defaults = defaultPolicies(release.rateLimiter);
    this.maxQuotas = maxQuotas ?? defaultMaxQuotas(release)!;
  }

  /** Counts a request for `action` on `resource` from `ip` with `token` (its public id, or "" when there is none). */
  take(resource: string, action: string, ip: string, token: string): RateDecision {
    const now = this.now();
    const { policies, header: policy } = this.policiesOf(action);
    const states = policies.map((p) => {
      const key = `${resource}:${action}:${p.per}\n${p.per === "total" ? "" : p.per === "ip-address" ? ip : token}`;
      let w = this.windows.get(key);
      if (w && now - w.start >= p.periodMs) w = undefined;
      return { p, key, w };
    });
    const fresh = states.filter((s) => !s.w && !this.windows.has(s.key)).length;
    if (this.windows.size + fresh > this.maxQuotas) this.sweep(now);
    if (this.windows.size + fresh > this.maxQuotas) return { headers: { "ratelimit-policy": policy }, refuse: { status: 503, retryAfterSeconds: 1 } };
    const spent = states.find((s) => s.w && s.w.used >= s.p.limit);
    if (!spent) {
      for (const s of states) {
        if (!s.w) this.windows.set(s.key, (s.w = { start: now, used: 0 }));
        s.w.used++;
      }
    }
    // the header describes the quota with the least left
    const tightest = states
      .map((s) => ({
        limit: s.p.limit,
        remaining: Math.max(0, s.p.limit - (s.w?.used ?? 0)),
        reset: Math.max(1, Math.ceil(((s.w?.start ?? now) + s.p.periodMs - now) / 1000)),
      }))
      .sort((a, b) => a.remaining - b.remaining)[0];
    const headers: Record<string, string> = { "ratelimit-policy": policy };
    if (tightest) headers.ratelimit = `limit=${tightest.limit}, remaining=${tightest.remaining}, reset=${tightest.reset}`;
    if (spent) return { headers, refuse: { status: 429, retryAfterSeconds: Math.max(1, Math.ceil((spent.w!.start + spent.p.periodMs - now) / 1000)) } };
    return { headers };
  }

  private policiesOf(action: string): { policies: RatePolicy[]; header: string } {
    let known = this.byAction.get(action);
    if (!known) {
      const policies = policiesFor(this.defaults, this.configured, action);
      const header = policies.map((p) => `${p.limit};w=${Math.round(p.periodMs / 1000)};comment="${p.per}"`).join(", ");
      this.byAction.set(action, (known = { policies, header }));
    }
    return known;
  }

  /** Forgets windows that have ended. */
  private sweep(now: number): void {
    const longest = Math.max(...[...this.configured, ...this.defaults].map((p) => p.periodMs));
    for (const [key, w] of this.windows) if (now - w.start >= longest) this.windows.delete(key);
  }
}
