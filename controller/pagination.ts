/**
 * Paginated lists as current Boundary (≥ 0.15) answers them, as pure functions of the list's
 * records: pages of `page_size` (at most MAX_PAGE_SIZE, larger asks are clamped), newest first;
 * `response_type` "delta" while more pages follow, with a `list_token` to ask for the next, and
 * "complete" on the last, whose token starts a refresh: the Targets updated since the first page
 * was asked for, newest change first, and the ids deleted since (`removed_ids`). A token belongs to
 * one query; a malformed, foreign or expired one is a 400 of kind "invalid list token".
 */
import { OURS, type Dialect } from "./dialect";
import { derivedSteps } from "./derived";
import { ControllerFault } from "./errors";
import type { TargetRecord } from "./record";
import { atOnce, filterSteps, sortSteps, type Steps } from "./slices";

/** Boundary's default and maximum page size, unless its config's `max_page_size` says otherwise. */
export const MAX_PAGE_SIZE = 1000;
/** A list token older than this is refused (Boundary: 30 days). */
const TOKEN_LIFETIME_MS = 30 * 24 * 3_600_000;

interface Token {
  /** The query it belongs to (scope, recursive, filter). */
  q: string;
  /** "list": the first pass, by creation; "refresh": changes since `since`, by update. */
  pass: "list" | "refresh";
  /** When the pass started (ms): a refresh reports what changed after the pass before it started. */
  since: number;
  /** When this pass started (ms), for the token that starts the next refresh. */
  started: number;
  /** The last item returned: [time, id]. */
  after?: [string, string];
  issued: number;
}

/** One page's fields, besides its items. */
export interface Page {
  items: TargetRecord[];
  fields: Record<string, unknown>;
}

/** What a list request asks: its query (scope, recursive, filter), token and page size. */
export interface PageQuery {
  query: string;
  token?: string | null;
  pageSize?: string | null;
  maxPageSize?: number;
  /** A token used in another scope is refused as a change of grants (0.19.3+: the grants hash is the request scope's). */
  scopedTokens?: boolean;
  /** Whose words a token that does not decode gets: Boundary's (its handler's 500) or ours (a 400, the default). */
  dialect?: Dialect;
}

/**
 * The page a list request asks for. `deletedSince` gives the ids removed since a time, for
 * refreshes. `records` is never changed after: one array holds the same records for good (the
 * store's do), so its order is kept with it.
 */
export function page(records: readonly TargetRecord[], q: PageQuery, now: number, deletedSince: (since: number) => string[]): Page {
  return atOnce(pageSteps(records, q, now, deletedSince));
}

/**
 * `page`, as steps that may pause (see slices.ts): a list of 100,000 takes ~100 ms to sort, once
 * per list while it is unchanged (see derived.ts); each page after is a binary search and a slice.
 */
export function* pageSteps(records: readonly TargetRecord[], q: PageQuery, now: number, deletedSince: (since: number) => string[]): Steps<Page> {
  const size = pageSize(q.pageSize, q.maxPageSize ?? MAX_PAGE_SIZE);
  const token = q.token ? decode(q.token, q.query, now, q.scopedTokens === true, q.dialect ?? OURS) : undefined;
  const pass = token?.pass ?? "list";
  const key = (t: TargetRecord) => (pass === "list" ? t.created_time : t.updated_time);
  // the pass's order is made once per list and kept while the list is unchanged: a page is then a search and a slice
  const candidates = yield* derivedSteps(records, pass === "list" ? "list" : `refresh ${token!.since}`, function* () {
    const changed = pass === "refresh" ? yield* filterSteps(records, (t) => Date.parse(t.updated_time) > token!.since) : records;
    return yield* sortSteps(changed, newestFirst(key));
  });
  const after = token?.after;
  const from = after ? firstAfter(candidates, (t) => order(key(t), t.id, after[0], after[1]) > 0) : 0;
  const items = candidates.slice(from, from + size);
  const more = from + size < candidates.length;
  const started = token?.started ?? now;
  const fields: Record<string, unknown> = {
    response_type: more ? "delta" : "complete",
    sort_by: pass === "list" ? "created_time" : "updated_time",
    sort_dir: "desc",
  };
  if (pass === "refresh" && !token?.after) {
    const removed = deletedSince(token!.since);
    if (removed.length > 0) fields.removed_ids = removed;
  }
  if (items.length > 0) {
    const last = items[items.length - 1]!;
    const next: Token = more
      ? { q: q.query, pass, since: token?.since ?? started, started, after: [key(last), last.id], issued: now }
      : { q: q.query, pass: "refresh", since: started, started: now, issued: now };
    fields.list_token = encode(next);
    fields.est_item_count = candidates.length;
  }
  return { items, fields };
}

/** The first index whose item `isAfter` says is past the cursor (items are in order), or the length. */
function firstAfter(items: readonly TargetRecord[], isAfter: (t: TargetRecord) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isAfter(items[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function pageSize(value: string | null | undefined, max: number): number {
  if (value === null || value === undefined || value === "") return max;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new ControllerFault("InvalidArgument", "Error in provided request.", [{ name: "page_size", description: "This must be a whole number." }]);
  return n === 0 ? max : Math.min(n, max);
}

/** Newest first by time, then by id: a total order, so a cursor is exact. */
function order(timeA: string, idA: string, timeB: string, idB: string): number {
  return timeA !== timeB ? (timeA < timeB ? 1 : -1) : idA < idB ? 1 : idA > idB ? -1 : 0;
}

function newestFirst(key: (t: TargetRecord) => string) {
  return (a: TargetRecord, b: TargetRecord): number => order(key(a), a.id, key(b), b.id);
}

function encode(t: Token): string {
  return Buffer.from(JSON.stringify(t)).toString("base64url");
}

function decode(text: string, query: string, now: number, scoped: boolean, dialect: Dialect): Token {
  let t: Token | undefined;
  try {
    t = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    t = undefined;
  }
  if (typeof t !== "object" || t === null || (t.pass !== "list" && t.pass !== "refresh") || typeof t.since !== "number" || typeof t.issued !== "number")
    throw dialect.undecodableListToken();
  const scopeOf = (q: unknown) => (typeof q === "string" && q.startsWith("[") ? (JSON.parse(q) as unknown[])[0] : undefined);
  if (t.q !== query && scoped && scopeOf(t.q) !== scopeOf(query)) throw invalid("grants have changed since list token was issued");
  // before 0.19.3 Boundary's token holds no scope: one from another scope lists this one from its cursor (real v0.15.5: 200)
  const unscoped = (q: unknown) => (typeof q === "string" && q.startsWith("[") ? JSON.stringify((JSON.parse(q) as unknown[]).slice(1)) : q);
  if (t.q !== query && !scoped && dialect.repositoryAnswers && unscoped(t.q) === unscoped(query)) return t;
  if (t.q !== query) throw invalid("list token was issued for a different request");
  if (now - t.issued > TOKEN_LIFETIME_MS) throw invalid("list token was expired");
  return t;
}

function invalid(message: string): ControllerFault {
  return new ControllerFault("invalid list token", message);
}
