/**
 * Lists derived from a list (its order for a paginated pass, the items a filter keeps), kept
 * while the list they came from is the very same array. The store hands out one array per
 * project, and per set of projects, until a Target in them changes (see store/indexes.ts), and
 * records are frozen and replaced on every change: so a list of 100,000 read page after page
 * sorts and filters once, not once per page, and any change yields a new array and a fresh
 * derivation. A derivation is a pure function of the list and its key, so keeping it changes no
 * answer.
 */
import type { Steps } from "./slices";

/** Per source list, its derived lists by key (most recently made last). */
const kept = new WeakMap<object, Map<string, unknown>>();
/** How many derived lists one source keeps (a list order, a few refreshes, a few filters). */
const KEPT_PER_SOURCE = 8;

/**
 * What `derive` makes of `source`, made once per `key` while `source` lives. `key` must name
 * everything `derive` reads besides `source` itself (the pass, the filter, the caller's actions).
 * The result is shared by every caller with the same key: read it only.
 */
export function* derivedSteps<R>(source: object, key: string, derive: () => Steps<R>): Steps<R> {
  const hit = kept.get(source);
  if (hit?.has(key)) return hit.get(key) as R;
  const value = yield* derive();
  // another request may have derived the same meanwhile (steps pause): both are the same list
  let byKey = kept.get(source);
  if (!byKey) kept.set(source, (byKey = new Map()));
  byKey.set(key, value);
  if (byKey.size > KEPT_PER_SOURCE) byKey.delete(byKey.keys().next().value!);
  return value;
}
