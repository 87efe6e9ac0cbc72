/**
 * What the controllers said about one quota (one resource and action), as a pure record of the
 * `RateLimit` headers seen: how many more requests may go now. Times are the caller's (the
 * monotonic clock in the pacer, any numbers in tests).
 *
 * Three things make the last header a poor guide, each seen against real clusters:
 * - answers to concurrent requests arrive out of order, so a late answer may carry an early count
 *   (`remaining=17` after `remaining=3`): within one window the lowest count seen is the truth;
 * - behind a load balancer each controller keeps its own count (Boundary's quotas are per
 *   controller), so answers alternate between counts; a count that rises before its window resets
 *   is another controller's, and the next request may reach either: the lowest count of every
 *   window still open bounds what may be sent;
 * - a window's reset is sent in whole seconds, rounded up, so estimates of one window's end differ
 *   by up to a second; a reset later than that starts another window (the controller's next, or
 *   another controller's), kept beside the first until the first ends.
 * When every known window has ended, a fresh one allows the quota's limit; before any header, one
 * request at a time goes, to learn the quota; an answer without the header says there is none.
 */

/** Two estimates of a window's end closer than this are the same window (the header's whole seconds). */
export const SAME_WINDOW_MS = 1000;

/** One window of one controller's count, as far as the answers tell. */
interface Window {
  /** The lowest count seen in it. */
  remaining: number;
  /** The earliest estimate of its end. */
  resetAt: number;
  /** When the answer carrying the lowest count arrived: a later request reporting more is another controller's. */
  lowestAt: number;
  /** The header that carried the lowest count, for messages. */
  header: string;
}

/** A parsed `RateLimit` header. */
export interface RateLimitHeader {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

/** The record of one quota; see the module comment. */
export class Quota {
  private windows: Window[] = [];
  /** The smallest limit seen; undefined before any header. */
  private limit: number | undefined;
  /** True once an answer came without a header while none had come with one: no limiter. */
  private unlimited = false;
  /** When the last known window ended: an answer to a request sent before it, about that window, is stale. */
  private endedAt = -Infinity;
  /** True once counts from more than one controller were seen (a count rose within its window). */
  balanced = false;

  /** How many more requests may be sent at `now` beyond `inFlight` unanswered ones (Infinity: no limit known to apply). */
  allowance(now: number, inFlight: number): number {
    this.expire(now);
    if (this.unlimited) return Infinity;
    if (this.limit === undefined) return 1 - inFlight;
    // a fresh window allows its limit; one request at least, so a limit of 0 is the controller's to refuse, not a wait without end
    const remaining = this.windows.length ? Math.min(...this.windows.map((w) => w.remaining)) : Math.max(1, this.limit);
    return remaining - inFlight;
  }

  /** When the allowance can next grow without an answer (the earliest end of a window holding it down), or undefined. */
  nextReset(now: number): number | undefined {
    this.expire(now);
    if (!this.windows.length) return undefined;
    const lowest = Math.min(...this.windows.map((w) => w.remaining));
    return Math.max(...this.windows.filter((w) => w.remaining === lowest).map((w) => w.resetAt));
  }

  /** The header of the window holding the allowance down, for messages. */
  header(): string | undefined {
    if (!this.windows.length) return undefined;
    return this.windows.reduce((a, b) => (b.remaining < a.remaining ? b : a)).header;
  }

  /**
   * An answer arrived at `now` to a request sent at `sentAt`, with this `RateLimit` header (`raw`
   * as sent, `parsed` its numbers, both undefined when the answer had none).
   */
  observe(now: number, sentAt: number, raw: string | undefined, parsed: RateLimitHeader | undefined): void {
    this.expire(now);
    if (!parsed || raw === undefined) {
      if (this.limit === undefined) this.unlimited = true;
      return;
    }
    this.unlimited = false;
    this.limit = Math.min(this.limit ?? Infinity, parsed.limit);
    const resetAt = now + parsed.reset * 1000;
    // the window it counts in ends no earlier than this (the controller answered after `sentAt`, in
    // whole seconds rounded up): ended before the last window we knew ended, it is that window, spent
    if (sentAt + (parsed.reset - 1) * 1000 < this.endedAt) return;
    const same = this.windows.find((w) => Math.abs(w.resetAt - resetAt) < SAME_WINDOW_MS);
    if (!same) {
      this.windows.push({ remaining: parsed.remaining, resetAt, lowestAt: now, header: raw });
      return;
    }
    if (parsed.remaining < same.remaining) Object.assign(same, { remaining: parsed.remaining, lowestAt: now, header: raw });
    else if (parsed.remaining > same.remaining && sentAt > same.lowestAt) this.balanced = true;
    // every estimate is at or after the window's true end (whole seconds rounded up, read on arrival): the earliest is the closest
    same.resetAt = Math.min(same.resetAt, resetAt);
  }

  /** Forgets the windows that have ended by `now`. */
  private expire(now: number): void {
    if (!this.windows.some((w) => w.resetAt <= now)) return;
    for (const w of this.windows) if (w.resetAt <= now) this.endedAt = Math.max(this.endedAt, w.resetAt);
    this.windows = this.windows.filter((w) => w.resetAt > now);
  }
}
