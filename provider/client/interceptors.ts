/**
 * The client's road as undici interceptors, composed onto each pool (`transport.ts`):
 *
 *   retry → pacing → deadline → the pool
 *
 * Every request carries the `Operation` it runs under in its dispatch options. `deadline` refuses
 * to send once the operation is cancelled or past its deadline, and aborts a request in flight (its
 * body included) on Cancel, at the deadline or after the per-request timeout, the abort's reason
 * being the typed error. `pacing` waits, through the operation, until the controller's rate limits
 * (and BOUNDARY_RATE_LIMIT) let the request go, per resource and action. `retry` sends again only
 * what `retry.ts` allows (a rate limiter's refusal, an idempotent request that failed), each wait
 * through the operation, so no wait passes its deadline; the handler above sees one answer or one
 * typed error. Nothing here decides anything itself: the decisions are `retry.ts`'s and `pacer.ts`'s.
 */
import { performance } from "node:perf_hooks";
import type * as undici from "undici";
import { InternalError } from "../../common/errors";
import { CancelledError, DeadlineError } from "./errors";
import { first, type Failures } from "./failures";
import { Operation, formatMs, type RequestEnd, type RequestName } from "./operation";
import { quotaOf, type Pacer } from "./pacer";
import { backoff, isIdempotent, mayRetryStatus, retryAfterMs, retryableAnswer } from "./retry";

type Dispatch = undici.Dispatcher.Dispatch;
type Handler = undici.Dispatcher.DispatchHandler;
type Controller = undici.Dispatcher.DispatchController;
type Headers = Parameters<NonNullable<Handler["onResponseStart"]>>[2];
type Socket = Parameters<NonNullable<Handler["onRequestUpgrade"]>>[3];

/** An interceptor, as `Dispatcher.compose` takes it. */
export type Interceptor = (dispatch: Dispatch) => Dispatch;

/** The dispatch options of one request of the client: undici's, and the operation it runs under. */
export interface OperationDispatchOptions extends undici.Dispatcher.DispatchOptions {
  operation: Operation;
  /** The request's name for messages, when the sender made it once (else each interceptor makes it from the path). */
  name?: RequestName;
}

/** The longest Retry-After the client will honour; longer ones fail instead of hanging a deploy. */
export const MAX_RETRY_AFTER_MS = 30_000;

/** The operation a request runs under; a request without one is a bug of the transport. */
function operationOf(opts: undici.Dispatcher.DispatchOptions): Operation {
  const op = (opts as OperationDispatchOptions).operation;
  if (!(op instanceof Operation)) throw new InternalError("a request of the client's dispatcher carries no operation");
  return op;
}

/** `GET /v1/targets`, for messages: the path without its query. */
function requestName(opts: undici.Dispatcher.DispatchOptions): RequestName {
  return (opts as OperationDispatchOptions).name ?? { method: opts.method, path: opts.path.split("?")[0]! };
}

/** A controller for an error reported outside any attempt in flight (a refused wait): nothing to abort. */
function settled(reason: Error): Controller {
  return { aborted: true, paused: false, reason, abort: () => {}, pause: () => {}, resume: () => {} };
}

/**
 * Passes every callback on to the handler it wraps; `wrap` replaces some with own properties. One
 * class rather than an object of six closures and a spread: every interceptor wraps every request.
 */
class Forwarding implements Handler {
  constructor(private readonly handler: Handler) {}
  onRequestStart(c: Controller, context: unknown): void {
    this.handler.onRequestStart?.(c, context);
  }
  onRequestUpgrade(c: Controller, status: number, headers: Headers, socket: Socket): void {
    this.handler.onRequestUpgrade?.(c, status, headers, socket);
  }
  onResponseStart(c: Controller, status: number, headers: Headers, message?: string): void {
    this.handler.onResponseStart?.(c, status, headers, message);
  }
  onResponseData(c: Controller, chunk: Buffer): void {
    this.handler.onResponseData?.(c, chunk);
  }
  onResponseEnd(c: Controller, trailers: Headers): void {
    this.handler.onResponseEnd?.(c, trailers);
  }
  onResponseError(c: Controller, err: Error): void {
    this.handler.onResponseError?.(c, err);
  }
}

/** `handler`, with the callbacks in `overrides` replaced (the others passed on as they are). */
function wrap(handler: Handler, overrides: Partial<Handler>): Handler {
  return Object.assign(new Forwarding(handler), overrides);
}

/**
 * Cancel, the deadline and the per-request timeout (`timeoutMs`) for each attempt: refused before
 * sending when the operation has ended; aborted in flight with the typed error as the reason. Every
 * error below it leaves as the catalogue's (`failures.transportError`). Stamps `lastSentAt`.
 */
export function deadline(timeoutMs: number, failures: Failures): Interceptor {
  return (dispatch) => (opts, handler) => {
    const op = operationOf(opts);
    const req = requestName(opts);
    try {
      op.ensureActive(req);
    } catch (err) {
      handler.onResponseError?.(settled(err as Error), err as Error);
      return true;
    }
    let controller: Controller | undefined;
    // the typed error, its cause the AbortError an aborted request has
    const reason = (why: RequestEnd) => failures.transportError(op, req, new DOMException("This operation was aborted", "AbortError"), why);
    const signal = op.requestSignal(timeoutMs, (why) => {
      if (controller) controller.abort(reason(why));
    });
    const done = () => signal.done();
    op.lastSentAt = performance.now();
    return dispatch(
      opts,
      wrap(handler, {
        onRequestStart: (c, context) => {
          controller = c;
          handler.onRequestStart?.(c, context);
          const why = signal.why();
          if (why !== undefined) c.abort(reason(why));
        },
        onResponseEnd: (c, trailers) => {
          done();
          handler.onResponseEnd?.(c, trailers);
        },
        onResponseError: (c, err) => {
          done();
          handler.onResponseError?.(c, failures.transportError(op, req, err, signal.why()));
        },
      }),
    );
  };
}

/**
 * Waits, through the operation, until `pacer` lets a request of this resource and action go, and
 * tells it what the controller's `RateLimit` header said once the answer starts (or that none came).
 */
export function pacing(pacer: Pacer): Interceptor {
  return (dispatch) => (opts, handler) => {
    const op = operationOf(opts);
    const req = requestName(opts);
    const kind = quotaOf(opts.method, opts.path);
    const go = (sentAt: number) => {
      let released = false;
      const release = (header: string | string[] | undefined, answered: boolean) => {
        if (!released) pacer.release(kind, header, sentAt, answered);
        released = true;
      };
      dispatch(
        opts,
        wrap(handler, {
          onResponseStart: (c, status, headers, message) => {
            release(headers["ratelimit"], true);
            handler.onResponseStart?.(c, status, headers, message);
          },
          onResponseError: (c, err) => {
            release(undefined, false);
            handler.onResponseError?.(c, err);
          },
        }),
      );
    };
    // the quota leaves room and nobody waits (nearly every request): sent now, without a promise's turn
    const now = pacer.tryAcquire(kind);
    if (now !== undefined) go(now);
    else pacer.acquire(kind, (ms, why, wake) => op.wait(ms, req, why, wake)).then(go, (err: Error) => handler.onResponseError?.(settled(err), err));
    return true;
  };
}

/**
 * Sends again, at most `maxRetries` times, what `retry.ts` allows: an answer a rate limiter refused
 * (429; a 503 when idempotent or refused unprocessed; an idempotent request a stopping controller
 * cancelled, 500 `context canceled`), after its Retry-After (at most
 * MAX_RETRY_AFTER_MS) or a backoff; an idempotent request that failed, after a backoff; never one
 * cancelled or past its deadline. Each answer is held until whole (the client reads every answer
 * whole anyway), so one whose body fails is a failed request, sent again when allowed.
 */
export function retry(maxRetries: number): Interceptor {
  return (dispatch) => (opts, handler) => {
    const op = operationOf(opts);
    const req = requestName(opts);
    const { method } = opts;
    const attempt = (n: number): void => {
      let held: { c: Controller; status: number; headers: Record<string, string | string[] | undefined>; message?: string; chunks: Buffer[] } | undefined;
      const failed = (err: Error) => handler.onResponseError?.(settled(err), err);
      dispatch(
        opts,
        wrap(handler, {
          // every answer is held until it is whole: one whose body fails may still be sent again
          onResponseStart: (c, status, headers, message) => {
            held = { c, status, headers, message, chunks: [] };
          },
          onResponseData: (_c, chunk) => {
            held?.chunks.push(chunk);
          },
          onResponseEnd: (c, trailers) => {
            if (!held) return handler.onResponseEnd?.(c, trailers);
            const { status, headers, chunks } = held;
            const retryAfter = first(headers["retry-after"]);
            // only a 429, a 503 or a stopping controller's 500 may be sent again: only then is the body read to judge it
            if (n < maxRetries && mayRetryStatus(status) && retryableAnswer(method, status, retryAfter, Buffer.concat(chunks).toString())) {
              const ms = retryAfterMs(retryAfter) ?? backoff(n);
              if (ms <= MAX_RETRY_AFTER_MS) {
                const stopping = status === 500 ? " (context canceled: a controller that is stopping)" : "";
                const asks = retryAfter
                  ? ` and asks to wait ${formatMs(ms)} (Retry-After: ${retryAfter})`
                  : `${stopping}, to be asked again in ${formatMs(ms)}`;
                const why = () => `the controller answered ${status}${asks}`;
                op.wait(ms, req, why).then(() => attempt(n + 1), failed);
                return;
              }
            }
            // not sent again: the answer goes up whole, as it came
            handler.onResponseStart?.(held.c, status, headers, held.message);
            for (const chunk of chunks) handler.onResponseData?.(held.c, chunk);
            handler.onResponseEnd?.(c, trailers);
          },
          onResponseError: (c, err) => {
            held = undefined;
            if (isIdempotent(method) && n < maxRetries && !(err instanceof CancelledError) && !(err instanceof DeadlineError)) {
              op.wait(backoff(n), req, () => `sending ${method} again after ${err.message}`).then(
                () => attempt(n + 1),
                () => handler.onResponseError?.(c, err),
              );
              return;
            }
            handler.onResponseError?.(c, err);
          },
        }),
      );
    };
    attempt(0);
    return true;
  };
}
