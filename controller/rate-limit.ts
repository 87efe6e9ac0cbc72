/**
 * Boundary's API rate limiter (on by default since 0.14.3), for `--emulate 0.21`: every request is
 * counted against three quotas of its kind of action (list, or any other): per auth token, per
 * client IP and in total, each a fixed window. Over any of them, the request is refused (429 with
 * Retry-After); every answer says how much of the tightest quota is left. Knows no HTTP.
 */

/** Which quota a policy sets. */
export type Per = "total" | "ip-address" | "auth-token";
/** The kinds of action Boundary's defaults tell apart (a target list has its own, smaller quota). */
export type ActionKind = "list" | "other";

/** One quota: `limit` requests per `periodMs`, for one kind of action, counted per `per`. */
export interface RatePolicy {
  action: ActionKind | "*";
  per: Per;
  limit: number;
  periodMs: number;
}

/** Boundary's defaults (internal/ratelimit/config.go at 0.14.3 and 0.21.3). */
export const DEFAULT_RATE_POLICIES: readonly RatePolicy[] = [
  { action: "list", per: "auth-token", limit: 150, periodMs: 30_000 },
  { action: "list", per: "ip-address", limit: 1500, periodMs: 30_000 },
  { action: "list", per: "total", limit: 1500, periodMs: 30_000 },
  { action: "other", per: "auth-token", limit: 3000, periodMs: 30_000 },
  { action: "other", per: "ip-address", limit: 30000, periodMs: 30_000 },
  { action: "other", per: "total", limit: 30000, periodMs: 30_000 },
];

/** The most quota windows held at once (Boundary's api_rate_limit_max_quotas); beyond, 503. */
export const DEFAULT_MAX_QUOTAS = 100_000;

/** What the limiter decided: the headers every answer carries, and whether (and why) it refuses. */
export interface RateDecision {
  headers: Record<string, string>;
  refuse?: { status: 429 | 503; retryAfterSeconds: number };
}

const ORDER: Per[] = ["total", "ip-address", "auth-token"];

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly policies: readonly RatePolicy[] = DEFAULT_RATE_POLICIES,
    private readonly maxQuotas = DEFAULT_MAX_QUOTAS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a request of `kind` from `ip` with `token` (its public id, or "" when there is none). */
  take(kind: ActionKind, ip: string, token: string): RateDecision {
    const now = this.now();
    const policies = ORDER.map((per) => this.policies.find((p) => p.per === per && p.action === kind) ?? this.policies.find((p) => p.per === per && p.action === "*")).filter(
      (p): p is RatePolicy => p !== undefined,
    );
    const policy = policies.map((p) => `${p.limit};w=${Math.round(p.periodMs / 1000)};comment="${p.per}"`).join(", ");
    const states = policies.map((p) => {
      const key = `${kind}\n${p.per}\n${p.per === "total" ? "" : p.per === "ip-address" ? ip : token}`;
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

  /** Forgets windows that have ended. */
  private sweep(now: number): void {
    const longest = Math.max(...this.policies.map((p) => p.periodMs));
    for (const [key, w] of this.windows) if (now - w.start >= longest) this.windows.delete(key);
  }
}
