/**
 * Keeps a client inside the controller's rate limits instead of collecting 429s. Boundary (≥ 0.14.3)
 * sends `RateLimit: limit=N, remaining=M, reset=S` on every answer, for the quota of that kind of
 * request (lists have their own, smaller quota): a request waits while the requests already in
 * flight would use up what remains, until the window resets. `BOUNDARY_RATE_LIMIT` adds a
 * client-side ceiling in requests per second, as Boundary's own clients read it.
 */

/** What the server last said about one quota. */
interface Window {
  remaining: number;
  resetAt: number;
}

/** One pacer per client, shared by all its requests. */
export class Pacer {
  private readonly windows = new Map<string, Window>();
  private readonly inFlight = new Map<string, number>();
  private tokens: number;
  private refilledAt = Date.now();

  /** `perSecond`: the client-side ceiling, or undefined for none. */
  constructor(private readonly perSecond?: number) {
    this.tokens = perSecond ?? 0;
  }

  /** Waits until a request of this kind may go, and counts it in flight. */
  async acquire(kind: string): Promise<void> {
    if (this.perSecond) await this.ceiling();
    for (;;) {
      const w = this.windows.get(kind);
      const now = Date.now();
      if (!w || now >= w.resetAt || w.remaining > (this.inFlight.get(kind) ?? 0)) break;
      await sleep(w.resetAt - now);
    }
    this.inFlight.set(kind, (this.inFlight.get(kind) ?? 0) + 1);
  }

  /** The request is answered (or failed): what the server said about the quota, if anything, is kept. */
  release(kind: string, rateLimit: string | string[] | undefined): void {
    this.inFlight.set(kind, Math.max(0, (this.inFlight.get(kind) ?? 1) - 1));
    const parsed = parseRateLimit(Array.isArray(rateLimit) ? rateLimit[0] : rateLimit);
    if (parsed) this.windows.set(kind, { remaining: parsed.remaining, resetAt: Date.now() + parsed.reset * 1000 });
  }

  /** A token bucket of `perSecond` tokens, refilled continuously. */
  private async ceiling(): Promise<void> {
    const rate = this.perSecond!;
    for (;;) {
      const now = Date.now();
      this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) / 1000) * rate);
      this.refilledAt = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(((1 - this.tokens) / rate) * 1000);
    }
  }
}

/** `limit=150, remaining=12, reset=7` → its numbers; undefined when absent or malformed. */
export function parseRateLimit(header: string | undefined): { limit: number; remaining: number; reset: number } | undefined {
  if (!header) return undefined;
  const fields = Object.fromEntries(header.split(",").map((p) => p.trim().split("=").map((s) => s.trim()) as [string, string]));
  const [limit, remaining, reset] = [Number(fields.limit), Number(fields.remaining), Number(fields.reset)];
  return [limit, remaining, reset].every(Number.isFinite) ? { limit, remaining, reset } : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}
