/**
 * Keeps a client inside the controller's rate limits instead of collecting 429s. Boundary (≥ 0.14.3)
 * keeps quotas per resource and action (internal/ratelimit: a create does not use up reads, and a
 * configured quota may name one action) and sends `RateLimit: limit=N, remaining=M, reset=S` on
 * every answer, for the tightest quota of that request's action: a request waits while the
 * requests of its action already in flight would use up what remains, until that window resets. `BOUNDARY_RATE_LIMIT` adds a
 * client-side ceiling in requests per second, as Boundary's own clients read it.
 *
 * The pacer never sleeps by itself: it asks the caller's `wait` (the operation's, see
 * `operation.ts`), which refuses at once a wait that would pass the operation's deadline, naming the
 * server's reset, and ends on Cancel. So a one-hour window fails at once instead of hanging a deploy.
 */
import { performance } from "node:perf_hooks";
import { formatMs } from "./operation";

/** Waits `ms`, or rejects (deadline, cancel); `why` says what the wait is for. */
export type Wait = (ms: number, why: () => string) => Promise<void>;

/** What the server last said about one quota. */
interface Window {
  remaining: number;
  resetAt: number;
  /** The header as the server sent it, for messages. */
  header: string;
}

/**
 * The resource and action Boundary's rate limiter counts a Target API request against
 * (`target:read`, `target:list`, `target:set-host-sources`, …): what the pacer keys its windows by.
 */
export function quotaOf(method: string, path: string): string {
  const [route] = path.split("?") as [string];
  const m = /\/v1\/targets(?:\/([^/]+))?$/.exec(route);
  if (!m) return `${method} ${route}`;
  // the id is percent-encoded (a ":" in it too): the first literal ":" starts the action
  const segment = m[1];
  if (segment === undefined) return method === "GET" ? "target:list" : "target:create";
  const colon = segment.indexOf(":");
  if (colon >= 0) return `target:${segment.slice(colon + 1)}`;
  return `target:${{ GET: "read", PATCH: "update", DELETE: "delete" }[method] ?? method}`;
}

/** One pacer per client, shared by all its requests; `kind` is a request's quota (`quotaOf`). */
export class Pacer {
  private readonly windows = new Map<string, Window>();
  private readonly inFlight = new Map<string, number>();
  private tokens: number;
  private refilledAt = performance.now();

  /** `perSecond`: the client-side ceiling, or undefined for none. */
  constructor(private readonly perSecond?: number) {
    this.tokens = perSecond ?? 0;
  }

  /** Waits (through `wait`) until a request of this kind may go, and counts it in flight. */
  async acquire(kind: string, wait: Wait): Promise<void> {
    if (this.perSecond) await this.ceiling(wait);
    for (;;) {
      const w = this.windows.get(kind);
      const now = performance.now();
      if (!w || now >= w.resetAt || w.remaining > (this.inFlight.get(kind) ?? 0)) break;
      const ms = w.resetAt - now;
      await wait(ms, () => `the controller's rate limit for ${kind} is spent until its window resets in ${formatMs(ms)} (RateLimit: ${w.header})`);
    }
    this.inFlight.set(kind, (this.inFlight.get(kind) ?? 0) + 1);
  }

  /** The request is answered (or failed): what the server said about the quota, if anything, is kept. */
  release(kind: string, rateLimit: string | string[] | undefined): void {
    this.inFlight.set(kind, Math.max(0, (this.inFlight.get(kind) ?? 1) - 1));
    const header = Array.isArray(rateLimit) ? rateLimit[0] : rateLimit;
    const parsed = parseRateLimit(header);
    if (parsed) this.windows.set(kind, { remaining: parsed.remaining, resetAt: performance.now() + parsed.reset * 1000, header: header! });
  }

  /** A token bucket of `perSecond` tokens, refilled continuously. */
  private async ceiling(wait: Wait): Promise<void> {
    const rate = this.perSecond!;
    for (;;) {
      const now = performance.now();
      this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) / 1000) * rate);
      this.refilledAt = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await wait(((1 - this.tokens) / rate) * 1000, () => `BOUNDARY_RATE_LIMIT allows ${rate} requests per second`);
    }
  }
}

/** `limit=150, remaining=12, reset=7` → its numbers; undefined when absent or malformed. */
export function parseRateLimit(header: string | undefined): { limit: number; remaining: number; reset: number } | undefined {
  if (!header) return undefined;
  const fields = Object.fromEntries(
    header.split(",").map(
      (p) =>
        p
          .trim()
          .split("=")
          .map((s) => s.trim()) as [string, string],
    ),
  );
  const [limit, remaining, reset] = [Number(fields.limit), Number(fields.remaining), Number(fields.reset)];
  return [limit, remaining, reset].every(Number.isFinite) ? { limit, remaining, reset } : undefined;
}
