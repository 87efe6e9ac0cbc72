/**
 * Long work in slices, so the event loop keeps turning: the ops listener's `/health`, and every
 * other request, must be answered while a list of 100,000 Targets is filtered, sorted and written.
 *
 * A computation is written as a generator that `yield`s wherever it may pause (it stays a pure
 * function of its inputs); `inSlices` runs it to its result, returning to the event loop each time
 * a slice has run SLICE_MS, and `atOnce` runs it without pausing (for callers that are not on a
 * request path, and for tests).
 */
import { performance } from "node:perf_hooks";

/** A computation that may pause wherever it yields, and returns R. */
export type Steps<R> = Generator<void, R, void>;

/** How long a slice runs before the event loop gets a turn, in ms. */
export const SLICE_MS = 8;

/** How many items the loops below handle between two pause points (a clock read costs ~50 ns). */
const ITEMS_PER_STEP = 256;

/** Runs `steps` to its result, giving the event loop a turn after every `sliceMs` of work. */
export async function inSlices<R>(steps: Steps<R>, sliceMs = SLICE_MS): Promise<R> {
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await turn();
      sliceStart = performance.now();
    }
  }
}

/**
 * Runs `steps` to its result: at once, without a promise or a turn of the event loop, when it ends
 * within one slice (a list whose body is cached, a small page); otherwise as `inSlices` does, from
 * where it stopped, after giving the event loop its turn.
 */
export function inSlicesOrNow<R>(steps: Steps<R>, sliceMs = SLICE_MS): R | Promise<R> {
  const sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart >= sliceMs) return turn().then(() => inSlices(steps, sliceMs));
  }
}

/** Runs `steps` to its result without pausing. */
export function atOnce<R>(steps: Steps<R>): R {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Resolves after the event loop has run its pending I/O (setImmediate comes after the poll phase). */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The items `keep` accepts, in order. */
export function* filterSteps<T>(items: readonly T[], keep: (item: T) => boolean): Steps<T[]> {
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) {
    if (keep(items[i]!)) out.push(items[i]!);
    if (i % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
  }
  return out;
}

/** `map`, pausing every ITEMS_PER_STEP items. */
export function* mapSteps<T, U>(items: readonly T[], f: (item: T) => U): Steps<U[]> {
  const out = new Array<U>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = f(items[i]!);
    if (i % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
  }
  return out;
}

/**
 * A sorted copy of `items` (stable): runs of ITEMS_PER_STEP sorted by the engine, then merged
 * pairwise, pausing every ITEMS_PER_STEP items. Native `sort` of 100,000 records takes 60-90 ms
 * in one go; this takes about as long in total, in pieces.
 */
export function* sortSteps<T>(items: readonly T[], compare: (a: T, b: T) => number): Steps<T[]> {
  let from: T[] = [];
  for (let i = 0; i < items.length; i += ITEMS_PER_STEP) {
    for (const x of items.slice(i, i + ITEMS_PER_STEP).sort(compare)) from.push(x);
    yield;
  }
  let to = new Array<T>(items.length);
  for (let width = ITEMS_PER_STEP; width < items.length; width *= 2) {
    for (let lo = 0; lo < items.length; lo += 2 * width) {
      const mid = Math.min(lo + width, items.length);
      const hi = Math.min(lo + 2 * width, items.length);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        to[k++] = compare(from[j]!, from[i]!) < 0 ? from[j++]! : from[i++]!;
        if (k % ITEMS_PER_STEP === 0) yield;
      }
      while (i < mid) to[k++] = from[i++]!;
      while (j < hi) to[k++] = from[j++]!;
    }
    [from, to] = [to, from];
    yield;
  }
  return from;
}
