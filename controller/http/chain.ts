/**
 * One API request, as a chain of small named steps with one error path:
 * route → rate limit → authenticate → authorize → decode → handle → reply (or the error's reply) → metrics → log;
 * on a release that judges the token last (Boundary), a refused caller is answered after decode and the route's lookup.
 * Routing comes first, as in Boundary: an unknown path is 404 and a wrong method 405 whoever asks.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { ControllerFault, invalidFields, mergeFieldErrors } from "../errors";
import { readTargetBody } from "./target-body";
import type { RateLimiter } from "../rate-limit";
import type { Logger } from "../log";
import type { Sessions } from "../sessions";
import type { AuthTokens } from "../sessions/auth-tokens";
import type { Store } from "../store";
import { ANONYMOUS, actionsOf, refusal, type Authenticator } from "./auth";
import { GATEWAY_MAX_BODY_BYTES, decodeBody, readJson, readText } from "./body";
import { gatewayBody } from "./gateway-body";
import { errorReply, send, toControllerFault } from "./errors";
import type { Metrics } from "./ops";
import { NoRouteAnswer } from "./no-route";
import { match } from "./match";
import type { Context, Reply, Route } from "./routes";

/** What the chain needs from the running controller. */
export interface ChainDeps {
  store: Store;
  sessions: Sessions;
  auth: Authenticator;
  /** The tokens logins issue (`:authenticate`). */
  tokens: AuthTokens;
  metrics: Metrics;
  logger: Logger;
  /** True once the API listener is closing: answers then close their connection. */
  closing: () => boolean;
  /** Boundary's rate limiter, when the emulated release has one (current releases, unless disabled). */
  limiter?: RateLimiter;
  /** Called once per request when its whole answer has been handed to Node (the listener's drain counts it). */
  answered?: (req: IncomingMessage) => void;
}

/** A query string without parameters: shared, handlers only read it. */
const NO_QUERY = new URLSearchParams();
/** The last query string parsed, and its parameters (shared likewise): a client polling a list sends the same one again. */
let lastQuery = { text: "", params: NO_QUERY };

/** The parameters of a query string, parsed once while the same string comes again. */
function paramsOf(text: string): URLSearchParams {
  if (text === "") return NO_QUERY;
  if (text !== lastQuery.text) lastQuery = { text, params: new URLSearchParams(text) };
  return lastQuery.params;
}

/**
 * The API listener's request handler. A route that reads no body and answers at once (a GET) runs
 * start to end without a promise or a turn of the event loop; only a body, an async handler (lists)
 * or a streamed answer waits. At tens of thousands of requests per second, every microtask counts.
 */
export function apiChain(deps: ChainDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const release = deps.store.release;
  // no closure in here: a function whose variables a closure captures allocates them on every call
  return (req, res) => {
    const started = deps.logger.quiet ? 0 : performance.now();
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    const queryString = q < 0 ? "" : url.slice(q + 1);
    let template = "unmatched";
    let rateHeaders: Record<string, string> | undefined;
    let pending: Reply | Promise<Reply>;
    try {
      const { route, id } = match(method, pathname, queryString, release);
      template = route.template;
      rateHeaders = limit(deps.limiter, route, req);
      // a route anyone may call (logging in) asks no token and no grant
      const principal = route.anonymous ? ANONYMOUS : deps.auth.identify(req);
      const refused = route.anonymous ? undefined : refusal(principal, route.action);
      if (refused && release.checksTokenAt === "first") throw refused;
      const ctx: Context = {
        store: deps.store,
        sessions: deps.sessions,
        tokens: deps.tokens,
        principal: principal ?? ANONYMOUS,
        actions: principal ? actionsOf(principal, release) : [],
        query: paramsOf(queryString),
        queryString,
        id,
      };
      // Boundary judges the token last: decode, validate, look up, and only then 401 or 403 (see refusedAfterChecks)
      if (refused) pending = refusedAfterChecks(req, route, ctx, refused);
      else pending = route.body ? decodeAndHandle(req, route, ctx) : route.handle(ctx, undefined);
    } catch (err) {
      pending = failure(err, deps.logger, method, pathname);
    }
    const request: Answering = { deps, req, res, method, pathname, template, rateHeaders, started };
    if (pending instanceof Promise) finishLater(request, pending);
    else finish(request, pending);
  };
}

/** What answering a request needs once its reply is known. */
interface Answering {
  deps: ChainDeps;
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  pathname: string;
  template: string;
  rateHeaders: Record<string, string> | undefined;
  /** When it started (performance.now()), or 0 when requests are not logged. */
  started: number;
}

/** The reply of a route that reads a body or answers later. */
function finishLater(a: Answering, pending: Promise<Reply>): void {
  void pending.then(
    (reply) => finish(a, reply),
    (err) => finish(a, failure(err, a.deps.logger, a.method, a.pathname)),
  );
}

/** A route's body decoded, then its handler. */
function decodeAndHandle(req: IncomingMessage, route: Route, ctx: Context): Promise<Reply> {
  return decode(req, route, route.body!, ctx).then((body) => route.handle(ctx, body));
}

/** Sends the reply, counts it, and logs it (at debug). */
function finish(a: Answering, reply: Reply): void {
  const { deps, req, res } = a;
  // counted before the answer leaves, so a client that reads /metrics next sees its own call
  if (a.rateHeaders) reply = { ...reply, headers: { ...a.rateHeaders, ...reply.headers } };
  deps.metrics.countRequest(a.method, a.template, reply.status);
  if (deps.closing()) res.setHeader("connection", "close");
  if (!req.complete && hasBody(req)) refuseRest(req, res);
  let sent: Promise<void> | undefined;
  try {
    sent = send(res, reply);
  } finally {
    if (!sent) deps.answered?.(req);
  }
  if (sent) void sent.then(() => deps.answered?.(req));
  if (deps.logger.quiet) return;
  const log = () =>
    deps.logger.info("request", { method: a.method, path: a.pathname, status: reply.status, ms: Number((performance.now() - a.started).toFixed(2)) });
  if (sent) void sent.then(log);
  else log();
}

/**
 * The request carries a body (a length above 0, or chunks). One without is complete once its
 * headers are parsed, though Node sets `complete` only after the handler that answers at once.
 */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/** How much of an unread body is read after the answer, and for how long, before the connection is cut. */
const LINGER_BYTES = 64 * 1024;
const LINGER_MS = 1000;

/**
 * The answer came before the body was read (401, 413, …): answer with `Connection: close`, then
 * read only a little more, so the client can take the answer in before the connection is cut
 * (cutting at once could make its kernel drop the answer), instead of reading the whole body.
 */
function refuseRest(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("connection", "close");
  res.once("finish", () => {
    let extra = 0;
    const cut = () => req.socket.destroy();
    req.on("data", (chunk: Buffer) => {
      extra += chunk.length;
      if (extra > LINGER_BYTES) cut();
    });
    setTimeout(cut, LINGER_MS).unref();
  });
}

/**
 * Counts the request against the rate limits (as Boundary does, before authentication, keyed by
 * the token's public id and the client's address); the headers go on the answer. Over a quota:
 * 429 with an empty body and Retry-After; quota store full: 503.
 */
function limit(limiter: RateLimiter | undefined, route: Route, req: IncomingMessage): Record<string, string> | undefined {
  if (!limiter) return undefined;
  const token = /^bearer\s+(at_[0-9A-Za-z]+)/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
  const decision = limiter.take(route.resource ?? "target", route.action, req.socket.remoteAddress ?? "", token);
  if (decision.refuse) {
    const kind = decision.refuse.status === 429 ? "ResourceExhausted" : "Unavailable";
    throw new ControllerFault(kind, "Too many requests.", [], { ...decision.headers, "retry-after": String(decision.refuse.retryAfterSeconds) }, true);
  }
  return decision.headers;
}

/**
 * A request whose token Boundary will refuse, checked first as Boundary checks it: its body decoded
 * (a malformed one is the gateway's 500), the request validated (400) and its scope or Target looked
 * up (404) by the route's `lookup`, which changes nothing; only then the refusal (401, or 403). What
 * the answer reveals is what Boundary's own reveals: whether a Target id or a project exists.
 */
function refusedAfterChecks(req: IncomingMessage, route: Route, ctx: Context, refused: ControllerFault): Reply | Promise<Reply> {
  const judge = (body: unknown): never => {
    throw route.lookup?.(ctx, body) ?? refused;
  };
  return route.body ? decode(req, route, route.body, ctx).then(judge) : judge(undefined);
}

/**
 * Reads and decodes the body a route declares. Keys that do not decode are named in one 400
 * together with the rules' errors for the keys that did (the route's `check`).
 */
async function decode(req: IncomingMessage, route: Route, schema: NonNullable<Route["body"]>, ctx: Context): Promise<unknown> {
  const release = ctx.store.release;
  // a release reads the body as its gateway does (protojson's rules and words); the spec's controller as JSON
  const raw =
    release.bodyDecoding === "gateway" && route.gateway
      ? gatewayBody(release, await readText(req, GATEWAY_MAX_BODY_BYTES), route.gateway)
      : await readJson(req);
  // what the release reads of a Target body: Boundary discards the keys it does not know, the spec's controller names them
  const read = route.targetBody
    ? readTargetBody(ctx.store.release, raw, route.method === "POST" ? "create" : "update")
    : { body: raw, fields: [], readOnly: [] };
  // Boundary's validateUpdateRequest words a read-only field in a PATCH its own way (real v0.4.0 to v0.21.3)
  const words =
    route.method === "PATCH" && ctx.store.dialect.repositoryAnswers ? "This is a read only field and cannot be specified in an update request." : undefined;
  const { data, fields } = decodeBody(schema, read.body, read.readOnly, words);
  const refused = [...read.fields, ...fields];
  if (refused.length === 0) return data;
  throw invalidFields(mergeFieldErrors(refused, route.check?.(ctx, data) ?? []));
}

/** The error path: Boundary's error body; anything not a rule error is our bug, logged, and a 500. */
function failure(err: unknown, logger: Logger, method: string, path: string): Reply {
  if (err instanceof NoRouteAnswer) return err.reply;
  const e = toControllerFault(err);
  // a release's own 500s (a body its gateway refuses, a repository error it words) are answers, not our bugs
  if (e !== err) logger.error("request failed", { method, path, error: String(err) });
  return errorReply(e);
}
