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
 *   another controller's), kept beside the first until the first ends. So does a count that rises
 *   within that second: two controllers' windows (or a window and the next, when an answer came
 *   late) may end less than a second apart, and taking them for one would free both at the
 *   earlier end, while the later one still refuses. A count is taken for a second controller's
 *   only when it arrived while its window was surely still open (the answers' resets bound its
 *   end from below too); arriving later, it may be the same controller's next window, as with a
 *   period of a second or two, where every answer says reset=1 or 2. Taken for two controllers,
 *   one controller's windows would each be held to their latest estimate: half its pace or less.
 * When every known window has ended, a fresh one allows the quota's limit; before any header, one
 * request at a time goes, to learn the quota; an answer without the header says there is none.
 */

/** Two estimates of a window's end closer than this are the same window (the header's whole seconds). */
export const SAME_WINDOW_MS = 1000;

/** One window of one controller's count, as far as the answers tell. */
interface Window {
  /** The lowest count seen in it. */
  remaining: number;
  /** The earliest estimate of its end: its end while one controller answers. */
  resetAt: number;
  /** The latest estimate of its end: its end once counts from more than one controller were seen, as which one's window ended first cannot be told. */
  latestAt: number;
  /** The counts it was answered with: one controller answers each count once a window, so a count seen twice is another controller's. */
  counts: Set<number>;
  /** When the answer carrying the lowest count arrived: a later request reporting more is another controller's. */
  lowestAt: number;
  /**
   * Before this the window had surely not ended (its answers' `sentAt + (reset - 1) s`, the reset
   * rounded up): an answer arriving by then was counted in it, so one that contradicts its counts is
   * another controller's. Arriving later, it may be the same controller's next window.
   */
  openUntil: number;
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
    return Math.max(...this.windows.filter((w) => w.remaining === lowest).map((w) => this.endOf(w)));
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
    const openUntil = sentAt + (parsed.reset - 1) * 1000;
    // the window it counts in ends no earlier than this (the controller answered after `sentAt`, in
    // whole seconds rounded up): ended before the last window we knew ended, it is that window, spent
    if (openUntil < this.endedAt) return;
    // the windows it may count in: those ending within a second of its estimate whose count it does not contradict
    let matches = 0;
    let only: Window | undefined;
    for (let i = 0; i < this.windows.length; i++) {
      const w = this.windows[i]!;
      if (Math.abs(w.resetAt - resetAt) >= SAME_WINDOW_MS) continue;
      // counted while the window was surely open: a count it contradicts is another controller's
      const within = now <= w.openUntil;
      // a count above a window's lowest, asked after that lowest came back, is another count: another
      // controller's, or the controller's next window while this one is still thought open (with a
      // period of a second or two, every answer says reset=1 or 2: most windows' ends look alike)
      if (parsed.remaining > w.remaining && sentAt > w.lowestAt) {
        if (within) this.balanced = true;
        continue;
      }
      matches++;
      only = w;
      // an answer that may be the next window's says nothing of how long this one lasts
      if (within) w.openUntil = Math.max(w.openUntil, openUntil);
      // (0 aside: one controller answers every refusal with it)
      if (within && parsed.remaining > 0 && w.counts.has(parsed.remaining)) this.balanced = true;
      w.counts.add(parsed.remaining);
      w.latestAt = Math.max(w.latestAt, resetAt);
      // which of several it counts in cannot be told: each is held to it (fewer sent, never more)
      if (parsed.remaining < w.remaining) Object.assign(w, { remaining: parsed.remaining, lowestAt: now, header: raw });
    }
    if (matches === 0) {
      const counts = new Set([parsed.remaining]);
      this.windows.push({ remaining: parsed.remaining, resetAt, latestAt: resetAt, counts, lowestAt: now, openUntil, header: raw });
      return;
    }
    // every estimate is at or after its own window's true end (whole seconds rounded up, read on
    // arrival): the earliest is the closest, but only an answer of that very window may move it, as
    // another window's end (another controller's) may come before this one's
    if (matches === 1) only!.resetAt = Math.min(only!.resetAt, resetAt);
  }

  /** Forgets the windows that have ended by `now`. */
  private expire(now: number): void {
    if (!this.windows.some((w) => this.endOf(w) <= now)) return;
    for (const w of this.windows) if (this.endOf(w) <= now) this.endedAt = Math.max(this.endedAt, this.endOf(w));
    this.windows = this.windows.filter((w) => this.endOf(w) > now);
  }

  /**
   * When a window is over: its earliest estimate while one controller answers; once another's counts
   * were seen, its latest, as an answer taken for this window's may have been about another
   * controller's window ending up to a second later (whole seconds), and freeing it early sends into it.
   */
  private endOf(w: Window): number {
    return this.balanced ? w.latestAt : w.resetAt;
  }
}
