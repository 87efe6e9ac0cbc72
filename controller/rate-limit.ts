/**
 * Boundary's API rate limiter (on by default since 0.14.3), for `--emulate 0.21`: every request is
 * counted against three quotas of its resource and action (`target` and `read`, `list`,
 * `authorize-session`, …): per auth token, per client IP and in total, each a fixed window with its
 * own limit, as internal/ratelimit keys them (`resource:action:per`). A create does not use up
 * reads. Over any of them, the request is refused (429 with Retry-After); every answer carries its
 * action's policy and how much of the tightest of its quotas is left. Knows no HTTP.
 */

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

/** Boundary's defaults (internal/ratelimit/config.go at 0.14.3 and 0.21.3): list, and every other action. */
export const DEFAULT_RATE_POLICIES: readonly RatePolicy[] = [
  { action: "list", per: "auth-token", limit: 150, periodMs: 30_000 },
  { action: "list", per: "ip-address", limit: 1500, periodMs: 30_000 },
  { action: "list", per: "total", limit: 1500, periodMs: 30_000 },
  { action: "other", per: "auth-token", limit: 3000, periodMs: 30_000 },
  { action: "other", per: "ip-address", limit: 30000, periodMs: 30_000 },
  { action: "other", per: "total", limit: 30000, periodMs: 30_000 },
];

/**
 * How many actions v0.21.3 registers for each resource (`action.ActionSetForResource`: the union of
 * its id and collection actions, read in each handler's IdActions and CollectionActions; the
 * resources are `resource.Map` less unknown, "*" and controller).
 */
const V0_21_ACTIONS_PER_RESOURCE: Readonly<Record<string, number>> = {
  account: 8, alias: 6, "auth-method": 8, "auth-token": 6, billing: 1, credential: 6, "credential-library": 6,
  "credential-store": 6, group: 9, "host-catalog": 6, host: 6, "host-set": 9, "managed-group": 6, policy: 6,
  role: 15, scope: 12, session: 6, "session-recording": 6, "storage-bucket": 6, target: 13, user: 10, worker: 12,
};

/**
 * The default size of the quota store (`api_rate_limit_max_quotas`), as v0.21.3's
 * DefaultLimiterMaxQuotas computes it: per endpoint (resource and action) one quota in total and
 * 1,000 each per IP and per token, over all endpoints: 169 × 2,001 = 338,169.
 */
export const DEFAULT_MAX_QUOTAS = Object.values(V0_21_ACTIONS_PER_RESOURCE).reduce((a, b) => a + b, 0) * (1 + 1000 + 1000);

/** What the limiter decided: the headers every answer carries, and whether (and why) it refuses. */
export interface RateDecision {
  headers: Record<string, string>;
  refuse?: { status: 429 | 503; retryAfterSeconds: number };
}

const ORDER: Per[] = ["total", "ip-address", "auth-token"];

/**
 * The three policies of `action`, in header order, as Boundary's `Configs.Limits` resolves them:
 * for each `per`, Boundary's default for the action (list, or every other action), overridden by
 * each configured policy naming the action or "*", a later one over an earlier one.
 */
export function policiesFor(configured: readonly RatePolicy[], action: string): RatePolicy[] {
  const kind = action === "list" ? "list" : "other";
  return ORDER.map((per) => {
    let chosen = DEFAULT_RATE_POLICIES.find((d) => d.per === per && d.action === kind)!;
    for (const p of configured) if (p.per === per && (p.action === action || p.action === "*")) chosen = p;
    return chosen;
  });
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();
  /** Each action's policies and policy header, worked out on its first request. */
  private readonly byAction = new Map<string, { policies: RatePolicy[]; header: string }>();

  /** `configured`: the config file's policies, in its order; Boundary's defaults fill in the rest. */
  constructor(
    private readonly configured: readonly RatePolicy[] = [],
    private readonly maxQuotas = DEFAULT_MAX_QUOTAS,
    private readonly now: () => number = Date.now,
  ) {}

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
      .map((s) => ({ limit: s.p.limit, remaining: Math.max(0, s.p.limit - (s.w?.used ?? 0)), reset: Math.max(1, Math.ceil(((s.w?.start ?? now) + s.p.periodMs - now) / 1000)) }))
      .sort((a, b) => a.remaining - b.remaining)[0];
    const headers: Record<string, string> = { "ratelimit-policy": policy };
    if (tightest) headers.ratelimit = `limit=${tightest.limit}, remaining=${tightest.remaining}, reset=${tightest.reset}`;
    if (spent) return { headers, refuse: { status: 429, retryAfterSeconds: Math.max(1, Math.ceil((spent.w!.start + spent.p.periodMs - now) / 1000)) } };
    return { headers };
  }

  private policiesOf(action: string): { policies: RatePolicy[]; header: string } {
    let known = this.byAction.get(action);
    if (!known) {
      const policies = policiesFor(this.configured, action);
      const header = policies.map((p) => `${p.limit};w=${Math.round(p.periodMs / 1000)};comment="${p.per}"`).join(", ");
      this.byAction.set(action, (known = { policies, header }));
    }
    return known;
  }

  /** Forgets windows that have ended. */
  private sweep(now: number): void {
    const longest = Math.max(...[...this.configured, ...DEFAULT_RATE_POLICIES].map((p) => p.periodMs));
    for (const [key, w] of this.windows) if (now - w.start >= longest) this.windows.delete(key);
  }
}
