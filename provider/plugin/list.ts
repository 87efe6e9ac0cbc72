/**
 * `List` for `boundary:index:Target` (`pulumi do boundary:index:Target list`): the Targets a query
 * (`listInputs`: `scopeId`, `recursive`, `filter`) finds, in pages, each call resuming from the
 * continuation token the previous one returned. The CLI never sets `page_size` and lowers `limit`
 * on each follow-up (`--count N`: N minus what it has so far), so the token keeps what is left of
 * the first call's limit, and a call honours the smaller of the two.
 *
 * Two ways to page, chosen by the controller's first answer:
 * - Boundary 0.15+ pages its lists itself: each call asks for one page of exactly the size it will
 *   return (`page_size`), and the token carries Boundary's own `list_token`, so no call holds more
 *   than a page, whatever the estate. Boundary's pass is newest-created first with a cursor, so a
 *   Target that exists throughout is listed once; one created after the first page was read is not
 *   in that pass, and is picked up by one refresh pass (Boundary's refresh token: what changed
 *   since), keeping only the Targets created after the newest one the first page saw.
 * - Earlier releases answer the whole list at once: each call reads it, orders it by id and returns
 *   the ids after the one the token names. A Target that exists throughout is listed once; one
 *   created between pages is listed only if its id orders after the cursor.
 */
import { z } from "zod";
import { filterProblem } from "../../common/rules";
import type { Target } from "../../wire/target";
import { InternalError } from "../../common/errors";
import { findTargets, type BoundaryClient, type TargetPage } from "../client";
import { BoundaryApiError } from "../client/errors";
import { ListRefusal } from "./errors";
import { ListQuerySchema, type GetTargetsArgs } from "../functions";
import { UNKNOWN } from "../resource/inputs";

/** The only type this provider lists. */
export const LISTED_TYPE = "boundary:index:Target";
/** A page when the request sets no `page_size`: Boundary's own default (and largest) page. */
export const DEFAULT_PAGE_SIZE = 1000;

/** One List request, decoded: the type token, the query (secrets unwrapped), limit, page size and continuation token. */
export interface ListRequest {
  type: string;
  query: Record<string, unknown>;
  limit: number;
  pageSize: number;
  continuationToken: string;
}

/** One message of the stream: a Target found, the token of the next call ("" when there is none), or "the query is not known yet". */
export type ListItem = { result: { id: string; name: string } } | { continuation: string } | { computed: true };

export { ListRefusal } from "./errors";

/** What a continuation token holds (base64url JSON). */
const Cursor = z.strictObject({
  /** The query it was issued for: a token is good only for the same query. */
  q: z.string(),
  /** What is left of the first call's limit; absent when there is none. */
  remaining: z.number().int().positive().optional(),
  /** Boundary's pages (`list_token`), or the whole answer ordered by id (`after`: the last id returned). */
  mode: z.enum(["pages", "whole"]),
  pass: z.enum(["list", "refresh"]).optional(),
  listToken: z.string().optional(),
  /** The newest Target (created time, id) of the first page: the refresh keeps only Targets created after it. */
  newest: z.tuple([z.string(), z.string()]).optional(),
  after: z.string().optional(),
});
type Cursor = z.infer<typeof Cursor>;

/** What the next call resumes from (without the query and the budget, which every token carries). */
type Next = Omit<Cursor, "q" | "remaining">;

/** The results of one call and where the next resumes, if anywhere. */
interface Page {
  results: { id: string; name: string }[];
  next: Next | undefined;
}

/**
 * Answers one List call: a single `computed` when the query holds values not known yet; else the
 * Targets of one page, then the continuation (empty at the end). Throws ListRefusal for a request
 * it cannot take (wrong type, negative limit or page size, a query or filter Boundary would refuse,
 * a token that is not one of this query's), before any call.
 */
export async function* listTargets(client: BoundaryClient, req: ListRequest): AsyncGenerator<ListItem> {
  if (req.type !== LISTED_TYPE)
    throw new ListRefusal("InvalidArgument", `token: ${JSON.stringify(req.type)} cannot be listed: this provider lists ${LISTED_TYPE}`);
  if (req.limit < 0) throw new ListRefusal("InvalidArgument", `limit: ${req.limit} must be 0 (no limit) or more`);
  if (req.pageSize < 0) throw new ListRefusal("InvalidArgument", `page_size: ${req.pageSize} must be 0 (the provider's page) or more`);
  if (JSON.stringify(req.query).includes(UNKNOWN)) {
    yield { computed: true };
    return;
  }
  const query = parseQuery(req.query);
  const q = JSON.stringify([query.scopeId, query.recursive === true, query.filter ?? ""]);
  const cursor = req.continuationToken ? decodeCursor(req.continuationToken, q) : undefined;
  const budget = Math.min(cursor?.remaining ?? Infinity, req.limit > 0 ? req.limit : Infinity);
  const size = Math.min(req.pageSize > 0 ? req.pageSize : DEFAULT_PAGE_SIZE, budget);
  const page = cursor?.mode === "whole" ? await wholePage(client, query, size, cursor.after) : await boundaryPage(client, query, size, cursor);
  for (const result of page.results) yield { result };
  const left = budget - page.results.length;
  yield { continuation: page.next && left > 0 ? encodeCursor({ q, ...(Number.isFinite(left) && { remaining: left }), ...page.next }) : "" };
}

/** The query as the schema's `listInputs` declares it, with its filter checked as Boundary's parser would. */
function parseQuery(query: Record<string, unknown>): GetTargetsArgs {
  const parsed = ListQuerySchema.strict().safeParse(query);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) =>
      i.code === "unrecognized_keys" ? `${i.keys.join(", ")}: not a list input` : `${i.path.join(".")}: ${i.message}`,
    );
    throw new ListRefusal("InvalidArgument", `query: ${issues.join("; ")} (the list inputs are scopeId, recursive and filter)`);
  }
  const problem = parsed.data.filter === undefined ? undefined : filterProblem(parsed.data.filter);
  if (problem) throw new ListRefusal("InvalidArgument", `filter: ${problem}`);
  return parsed.data;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

function decodeCursor(token: string, q: string): Cursor {
  let parsed: Cursor | undefined;
  try {
    const r = Cursor.safeParse(JSON.parse(Buffer.from(token, "base64url").toString("utf8")));
    parsed = r.success ? r.data : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed) throw new ListRefusal("InvalidArgument", "continuation_token: not a token this provider issued; start the list again without one");
  if (parsed.q !== q)
    throw new ListRefusal("InvalidArgument", "continuation_token: issued for another query (scopeId, recursive, filter); start the list again");
  return parsed;
}

/**
 * One page of Boundary's own pagination (0.15+), or, from an earlier release (an answer with no
 * `response_type`: the whole list), the first page of that answer ordered by id.
 */
async function boundaryPage(client: BoundaryClient, query: GetTargetsArgs, size: number, cursor: Cursor | undefined): Promise<Page> {
  const pass = cursor?.pass ?? "list";
  let answer: TargetPage | undefined;
  try {
    // one page of the client's page iterator: the next call resumes from its list token
    for await (const page of client.targetPages({ ...query, listToken: cursor?.listToken, pageSize: size })) {
      answer = page;
      break;
    }
  } catch (err) {
    if (err instanceof BoundaryApiError && err.kind === "invalid list token")
      throw new ListRefusal("InvalidArgument", `continuation_token: the controller no longer takes it (${err.message}); start the list again`);
    throw err;
  }
  if (!answer) throw new InternalError("a list answered no page");
  if (answer.responseType === undefined) return ordered(answer.items, size, undefined);
  const newest = cursor?.newest ?? newestOf(answer.items);
  const items = pass === "refresh" ? answer.items.filter((t) => cursor!.newest !== undefined && createdAfter(t, cursor!.newest)) : answer.items;
  const results = items.map(result);
  if (answer.responseType === "delta" && answer.listToken) return { results, next: { mode: "pages", pass, listToken: answer.listToken, newest } };
  // the pass is complete: a list pass that took more than one page looks once for Targets created meanwhile
  const refresh = pass === "list" && cursor !== undefined && answer.listToken !== undefined && newest !== undefined;
  return { results, next: refresh ? { mode: "pages", pass: "refresh", listToken: answer.listToken, newest } : undefined };
}

/** A page of a release that answers the whole list at once: the ids after `after`, in order. */
async function wholePage(client: BoundaryClient, query: GetTargetsArgs, size: number, after: string | undefined): Promise<Page> {
  return ordered((await findTargets(client, query)).targets, size, after);
}

function ordered(items: Target[], size: number, after: string | undefined): Page {
  const sorted = items.filter((t) => after === undefined || t.id > after).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const page = sorted.slice(0, size);
  return { results: page.map(result), next: sorted.length > size ? { mode: "whole", after: page[page.length - 1]!.id } : undefined };
}

function result(t: Target): { id: string; name: string } {
  return { id: t.id, name: t.name ?? "" };
}

/**
 * A timestamp as a key that orders as time does: Boundary writes RFC 3339 in UTC with 0, 3, 6 or 9
 * fractional digits, so the fraction is padded before comparing.
 */
function instant(ts: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(ts);
  return m ? `${m[1]}.${(m[2] ?? "").padEnd(9, "0")}` : ts;
}

/** The newest Target of a page, by (created time, id) as Boundary orders its list pass; undefined when a page has none or lacks times. */
function newestOf(items: Target[]): [string, string] | undefined {
  let best: [string, string] | undefined;
  for (const t of items) {
    if (t.created_time === undefined) return undefined;
    const key: [string, string] = [instant(t.created_time), t.id];
    if (!best || key[0] > best[0] || (key[0] === best[0] && key[1] > best[1])) best = key;
  }
  return best;
}

/** The Target was created after `newest` (so the list pass, which began with it, did not see it). */
function createdAfter(t: Target, newest: [string, string]): boolean {
  if (t.created_time === undefined) return false;
  const at = instant(t.created_time);
  return at > newest[0] || (at === newest[0] && t.id > newest[1]);
}
