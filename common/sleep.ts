/**
 * The one way this package waits a while. Every wait can be cancelled: `signal` ends it early, and
 * a caller with a deadline (the provider's `Operation.wait`) refuses a wait that would pass it
 * before it starts. Node's timers cannot wait longer than 2^31 − 1 ms (a longer one fires after
 * 1 ms, with a warning): such a wait is cut to that.
 */
import { setTimeout as delay } from "node:timers/promises";

/** The longest wait a Node timer can hold. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves after `ms` (negative counts as 0, at most MAX_TIMER_MS); rejects with an `AbortError`
 * whose `cause` is the signal's reason once `signal` aborts, at once when it already has.
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(Math.min(Math.max(0, ms), MAX_TIMER_MS), undefined, signal ? { signal } : undefined);
}
