/**
 * Keeps a client inside the controller's rate limits instead of collecting 429s. Boundary (≥ 0.14.3)
 * keeps quotas per resource and action (internal/ratelimit: a create does not use up reads, and a
 * configured quota may name one action) and sends `RateLimit: limit=N, remaining=M, reset=S` on
 * every answer, for the tightest quota of that request's action. What those headers say, read
 * against answers out of order and controllers behind a balancer, is `quota.ts`'s; here a request
 * waits, in the order requests asked, while the requests of its action already in flight would use
 * up what the controllers allow, and goes as soon as an answer leaves room (not at the window's
 * reset). `BOUNDARY_RATE_LIMIT` adds a client-side ceiling in requests per second, as Boundary's
 * own clients read it.
 *
 * The pacer never sleeps by itself: it asks the caller's `wait` (the operation's, see
 * `operation.ts`), which refuses at once a wait that would pass the operation's deadline, naming the
 * server's reset, and ends on Cancel. So a one-hour window fails at once instead of hanging a deploy.
 */
import { performance } from "node:perf_hooks";
import { formatMs } from "./operation";
import { Quota, type RateLimitHeader } from "./quota";

/**
 * Waits `ms`, or rejects (deadline, cancel); `why` says what the wait is for. With `wake`, the wait
 * ends early once `wake` aborts, and fails at the deadline instead of at once (something may wake it).
 */
export type Wait = (ms: number, why: () => string, wake?: AbortSignal) => Promise<void>;

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

/** One request waiting for its turn: granted by `pump`, woken through `wake`. */
interface Waiter {
  granted: boolean;
  wake: AbortController;
}

/** One quota's record, its requests in flight and its queue, first come first served. */
interface Lane {
  quota: Quota;
  inFlight: number;
  queue: Waiter[];
}

/** One pacer per client, shared by all its requests; `kind` is a request's quota (`quotaOf`). */
export class Pacer {
  private readonly lanes = new Map<string, Lane>();
  private tokens: number;
  private refilledAt = performance.now();

  /** `perSecond`: the client-side ceiling, or undefined for none. */
  constructor(private readonly perSecond?: number) {
    this.tokens = perSecond ?? 0;
  }

  /**
   * Waits (through `wait`) until a request of this kind may go, and counts it in flight; resolves
   * to the time it was let go, to hand back to `release`. Requests of one kind go in the order they
   * asked; one waiting is let go as soon as an answer makes room, not at the window's reset.
   */
  async acquire(kind: string, wait: Wait): Promise<number> {
    if (this.perSecond) await this.ceiling(wait);
    const lane = this.lane(kind);
    if (!lane.queue.length && lane.quota.allowance(performance.now(), lane.inFlight) > 0) {
      lane.inFlight++;
      return performance.now();
    }
    const me: Waiter = { granted: false, wake: new AbortController() };
    lane.queue.push(me);
    try {
      for (;;) {
        this.pump(lane);
        if (me.granted) return performance.now();
        const now = performance.now();
        const resetAt = lane.quota.nextReset(now);
        const ms = resetAt === undefined ? Infinity : Math.max(1, resetAt - now);
        const why = () => this.spent(kind, lane, ms);
        // with requests in flight an answer may make room first; without, only the reset can
        if (lane.inFlight > 0 || resetAt === undefined) await wait(ms, why, me.wake.signal);
        else await wait(ms, why);
      }
    } catch (err) {
      if (me.granted) this.release(kind, undefined, performance.now(), false);
      else lane.queue.splice(lane.queue.indexOf(me), 1);
      throw err;
    }
  }

  /**
   * `acquire` when it needs no wait: without a client-side ceiling, nobody queued for this kind and
   * room in its quota, the request is counted in flight and the time it was let go is returned;
   * else undefined (nothing counted: `acquire` decides). No promise: nearly every request goes so.
   */
  tryAcquire(kind: string): number | undefined {
    if (this.perSecond) return undefined;
    const lane = this.lane(kind);
    const now = performance.now();
    if (lane.queue.length || lane.quota.allowance(now, lane.inFlight) <= 0) return undefined;
    lane.inFlight++;
    return now;
  }

  /**
   * The request let go at `sentAt` is answered (`answered`, with its `RateLimit` header if any) or
   * failed: what the controller said is kept, and the requests waiting are let go as far as it allows.
   */
  release(kind: string, rateLimit: string | string[] | undefined, sentAt: number, answered = true): void {
    const lane = this.lane(kind);
    lane.inFlight = Math.max(0, lane.inFlight - 1);
    const header = Array.isArray(rateLimit) ? rateLimit[0] : rateLimit;
    if (answered) lane.quota.observe(performance.now(), sentAt, header, parseRateLimit(header));
    this.pump(lane);
  }

  /** True once counts from more than one controller were seen for `kind` (a balancer in front). */
  balanced(kind: string): boolean {
    return this.lanes.get(kind)?.quota.balanced ?? false;
  }

  private lane(kind: string): Lane {
    let lane = this.lanes.get(kind);
    if (!lane) this.lanes.set(kind, (lane = { quota: new Quota(), inFlight: 0, queue: [] }));
    return lane;
  }

  /** Lets the waiting requests go, first come first served, as far as the quota allows. */
  private pump(lane: Lane): void {
    while (lane.queue.length && lane.quota.allowance(performance.now(), lane.inFlight) > 0) {
      const next = lane.queue.shift()!;
      next.granted = true;
      lane.inFlight++;
      next.wake.abort();
    }
  }

  /** What a request waits for, for messages. */
  private spent(kind: string, lane: Lane, ms: number): string {
    const header = lane.quota.header();
    const where = lane.quota.balanced ? " (counts from more than one controller: a balancer in front)" : "";
    if (!Number.isFinite(ms))
      return `the controller's rate limit for ${kind} leaves no room until one of the ${lane.inFlight} requests in flight is answered${where}`;
    return `the controller's rate limit for ${kind} is spent until its window resets in ${formatMs(ms)}${header ? ` (RateLimit: ${header})` : ""}${where}`;
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
export function parseRateLimit(header: string | undefined): RateLimitHeader | undefined {
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
