/**
 * What the transport may send again, as pure decisions. A request is sent again only when its
 * first sending provably changed nothing (a rate limiter refused it) or when sending it twice is
 * harmless (GET and DELETE). A POST or PATCH whose outcome is unknown is never sent again: a
 * create sent twice could make two Targets, and what happened is found out by the caller instead.
 */

/** Methods whose second sending changes nothing the first did not. */
export function isIdempotent(method: string): boolean {
  return method === "GET" || method === "DELETE";
}

/**
 * Did this answer refuse the request before anything was applied? A 429 (a rate limiter: the
 * request was not processed), or Boundary's rate limiter when its quota store is full: a 503 with
 * an empty body and a numeric `Retry-After` (`internal/ratelimit/handler.go`). A 503 page from a
 * proxy or gateway says nothing about whether the controller applied the request.
 */
export function refusedUnprocessed(status: number, retryAfter: string | undefined, body: string): boolean {
  if (status === 429) return true;
  return status === 503 && body.trim() === "" && retryAfter !== undefined && /^\s*\d+\s*$/.test(retryAfter);
}

/**
 * A controller that is stopping cancels the requests it is still serving: Boundary answers them
 * `500` with its error body ending `context canceled` (the database transaction was rolled back).
 * Only an idempotent request is sent again on it: another controller, or this one restarted, answers.
 */
export function cancelledByStoppingController(status: number, body: string): boolean {
  if (status !== 500) return false;
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === "string" && /\bcontext canceled\s*$/.test(message);
  } catch {
    return false;
  }
}

/** The statuses `retryableAnswer` may say yes to: only their bodies need reading. */
export function mayRetryStatus(status: number): boolean {
  return status === 429 || status === 503 || status === 500;
}

/** Whether an error status is worth sending again, and may be sent again. */
export function retryableAnswer(method: string, status: number, retryAfter: string | undefined, body: string): boolean {
  if (status === 429) return true;
  if (status === 500) return isIdempotent(method) && cancelledByStoppingController(status, body);
  if (status !== 503) return false;
  return isIdempotent(method) || refusedUnprocessed(status, retryAfter, body);
}

/** Retry-After in ms: delta-seconds or an HTTP date (read against `now`, ms since the epoch). */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Jittered exponential backoff: ~200 ms, ~400 ms, ~800 ms … */
export function backoff(attempt: number): number {
  return Math.round(200 * 2 ** attempt * (0.5 + Math.random()));
}
