/**
 * The replies of unpaginated lists (the spec's controller, and releases before 0.15), kept by the
 * request's own query string: a client that polls an unchanged list (Boundary Desktop, a watch on
 * the CLI, the benchmark) is answered without parsing, checking, querying or keying anything again.
 *
 * A kept reply is used only while the store has seen no change since it was made (its change
 * count, which every create, update, association change and delete advances) and only for a
 * caller with the very same actions. Everything else the reply came from is fixed for the store's
 * life: the query string's parse and checks (the release's rules), the scope's lookup (the seed),
 * the rendering (the records, the actions). The caller's authentication, grant, rate limit and
 * metrics are the chain's, and run for every request as before.
 */
import type { Store } from "./store";

/** What is kept: the reply, for whom, and the store's change count when it was made. */
interface Kept<R> {
  actions: readonly string[];
  changes: number;
  reply: R;
}

/** Per store, by query string (most recently made last). */
const kept = new WeakMap<Store, Map<string, Kept<unknown>>>();
/** Queries kept per store: as many as the kept bodies (view.ts), whose buffers the replies share. */
const KEPT_PER_STORE = 16;

/** The reply kept for this query string and caller, if the store has not changed since it was made. */
export function keptListReply<R>(store: Store, actions: readonly string[], query: string): R | undefined {
  const hit = kept.get(store)?.get(query);
  return hit !== undefined && hit.changes === store.changes && hit.actions === actions ? (hit.reply as R) : undefined;
}

/**
 * Keeps `reply` for this query string and caller, made from the store as it was at change count
 * `changes` (read before the list was made: a list made in slices may meet a change, and is then
 * not kept).
 */
export function keepListReply<R>(store: Store, actions: readonly string[], query: string, changes: number, reply: R): void {
  if (store.changes !== changes) return;
  let byQuery = kept.get(store);
  if (!byQuery) kept.set(store, (byQuery = new Map()));
  byQuery.delete(query);
  byQuery.set(query, { actions, changes, reply });
  if (byQuery.size > KEPT_PER_STORE) byQuery.delete(byQuery.keys().next().value!);
}
