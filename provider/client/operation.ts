/**
 * One provider operation (a create, read, update or delete as the engine asks for it): its deadline
 * and its cancellation. The client's transport runs every request and every wait under the
 * operation it was made for (rate-limit pacing, Retry-After, backoff, the lookups after a lost
 * answer), so a deadline or a Cancel ends all of them at once, and a wait that would pass the
 * deadline fails at once, saying what it would have waited for. Times are on the monotonic clock
 * (`performance.now()`), so a jump of the wall clock never stretches or cuts a wait.
 */
import { performance } from "node:perf_hooks";
import { MAX_TIMER_MS, sleep } from "../../common/sleep";
import { CancelledError, DeadlineError } from "./errors";

/** An operation's budget when the engine gives none (no `customTimeouts`): Terraform's default. */
export const DEFAULT_OPERATION_TIMEOUT_MS = 20 * 60_000;

/** How an operation is bounded. */
export interface OperationOptions {
  /** The whole operation's budget in ms (its `customTimeouts`); default DEFAULT_OPERATION_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Where the budget came from, for messages (`customTimeouts create 3s`); default: the provider's default. */
  source?: string;
  /** Aborted when the engine cancels (`Cancel`). */
  signal?: AbortSignal;
}

/** What ended a request before its answer: the engine's Cancel, the operation's deadline, or the per-request timeout. */
export type RequestEnd = "cancel" | "deadline" | "timeout";

/** The request a wait or a failure is about, for messages: `GET /v1/targets`. */
export interface RequestName {
  method: string;
  path: string;
}

/** The deadline and the cancellation of one operation; see the module comment. */
export class Operation {
  /** When the budget ends, on the monotonic clock. */
  readonly deadline: number;
  /** Where the budget came from, for messages. */
  readonly source: string;
  /** Aborted on Cancel; undefined when nothing can cancel the operation. */
  readonly signal: AbortSignal | undefined;
  /** When the last request left (the transport stamps it): a lost answer's window opens there. */
  lastSentAt: number | undefined;

  /** An operation with `options`' budget from now, or ending at `deadline` (monotonic clock) when given. */
  constructor(options: OperationOptions = {}, deadline?: number) {
    const budget = options.timeoutMs !== undefined && options.timeoutMs > 0 ? options.timeoutMs : DEFAULT_OPERATION_TIMEOUT_MS;
    this.deadline = deadline ?? performance.now() + budget;
    this.source = options.source ?? `the provider's default of ${formatMs(DEFAULT_OPERATION_TIMEOUT_MS)} (set customTimeouts to change it)`;
    this.signal = options.signal;
  }

  /** Milliseconds left before the deadline (0 once it has passed). */
  remaining(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  /** True once the engine has cancelled the operation. */
  get cancelled(): boolean {
    return this.signal?.aborted === true;
  }

  /** "the operation's deadline (customTimeouts create 3s)", for messages. */
  describeDeadline(): string {
    return `this operation's deadline (${this.source})`;
  }

  /** Throws at once when the operation was cancelled or its deadline has passed: nothing more may be sent. */
  ensureActive(req: RequestName): void {
    if (this.cancelled)
      throw new CancelledError(req.method, req.path, "cancelled before it was sent (the engine cancelled the operation)", { maybeApplied: false });
    if (this.remaining() === 0) throw new DeadlineError(req.method, req.path, `not sent: ${this.describeDeadline()} has passed`, { maybeApplied: false });
  }

  /**
   * Waits `ms` before `req` may be sent. A wait that would pass the deadline fails at once with a
   * DeadlineError naming `why` (the server's reset, its Retry-After); Cancel ends the wait with a
   * CancelledError. Nothing was sent in either case. With `wake` (a request waiting for others to
   * be answered), the wait ends when `wake` aborts and fails only when the deadline comes first.
   */
  wait(ms: number, req: RequestName, why: () => string, wake?: AbortSignal): Promise<void> {
    this.ensureActive(req);
    if (ms <= 0 || wake?.aborted) return Promise.resolve();
    const late = () => new DeadlineError(req.method, req.path, `not sent: ${why()}, which is after ${this.describeDeadline()}`, { maybeApplied: false });
    const cancelled = () =>
      new CancelledError(req.method, req.path, "cancelled while waiting to be sent (the engine cancelled the operation)", { maybeApplied: false });
    if (!wake) {
      if (ms > this.remaining()) return Promise.reject(late());
      return sleep(ms, this.signal).catch(() => {
        throw cancelled();
      });
    }
    // something may end this wait early: it fails only once the deadline comes first
    const left = this.remaining();
    const signal = this.signal ? AbortSignal.any([this.signal, wake]) : wake;
    return sleep(Math.min(ms, left), signal).then(
      () => {
        if (ms > left) throw late();
      },
      () => {
        if (!wake.aborted) throw cancelled();
      },
    );
  }

  /**
   * One request's end by Cancel, at the deadline, or after `timeoutMs` (the client's per-request
   * timeout), whichever comes first: `onAbort` is called once, saying which, and `why()` says it
   * after. Call `done()` when the request has ended, to clear its timer. A callback rather than an
   * AbortSignal: every request of every step makes one, and only the transport listens.
   */
  requestSignal(timeoutMs: number, onAbort: (why: RequestEnd) => void): { why(): RequestEnd | undefined; done(): void } {
    let reason: RequestEnd | undefined;
    let ended = false;
    const abort = (r: RequestEnd) => {
      if (reason !== undefined || ended) return;
      reason = r;
      onAbort(r);
    };
    const left = this.remaining();
    const byDeadline = left <= timeoutMs;
    const timer = setTimeout(() => abort(byDeadline ? "deadline" : "timeout"), Math.min(byDeadline ? left : timeoutMs, MAX_TIMER_MS));
    const onCancel = () => abort("cancel");
    if (this.cancelled) abort("cancel");
    else this.signal?.addEventListener("abort", onCancel, { once: true });
    return {
      why: () => reason,
      done: () => {
        ended = true;
        clearTimeout(timer);
        this.signal?.removeEventListener("abort", onCancel);
      },
    };
  }

  /**
   * The same operation ending `reserveMs` earlier (at most a quarter of what is left), for a step whose
   * failure must leave time to find out what happened: a create's POST keeps time for the lookup.
   */
  reserving(reserveMs: number): Operation {
    const op = new Operation({ source: this.source, signal: this.signal }, this.deadline - Math.min(reserveMs, this.remaining() / 4));
    op.lastSentAt = this.lastSentAt;
    return op;
  }

  /**
   * The budget for finding out what a step did when its answer proved nothing (a lookup that
   * changes nothing): what is left of this operation (a step run `reserving` left some), or
   * `graceMs` once the engine cancelled it, at most `capMs`; never itself cancelled, so the outcome
   * can still be recorded.
   */
  afterwards(graceMs: number, capMs = Infinity): Operation {
    const left = this.cancelled ? graceMs : this.remaining();
    return new Operation({ source: this.source, timeoutMs: Math.max(1, Math.min(left, capMs)) });
  }
}

/** `1500` → "1.5 s", `3_600_000` → "60 min", `4e9` → "46 days": for messages. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${Math.round(ms / 3_600_000)} h`;
  return `${Math.round(ms / 86_400_000)} days`;
}
