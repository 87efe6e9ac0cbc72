/**
 * The one road every request of a client takes, composed once: pace (the controller's rate limits,
 * BOUNDARY_RATE_LIMIT) → send with undici under the operation's signal (Cancel, the deadline, the
 * per-request timeout) → read the whole answer → send again only what `retry.ts` allows, waiting
 * through the operation (so no wait passes its deadline) → an error status becomes a typed error.
 * Callers never pass a deadline or a signal to a call: they run a client `within` an operation.
 */
import * as undici from "undici";
import { performance } from "node:perf_hooks";
import { ErrorBody, type RequestField } from "../../wire/target";
import {
  BoundaryApiError,
  CancelledError,
  DeadlineError,
  TimeoutError,
  TransportError,
  UnauthenticatedError,
  UnexpectedAnswerError,
  apiError,
  type BoundaryClientError,
} from "../errors";
import { formatMs, type Operation, type RequestName } from "./operation";
import { Pacer, quotaOf } from "./pacer";
import { backoff, isIdempotent, retryAfterMs, retryableAnswer } from "./retry";
import { ENV, type ClientSettings } from "./settings";

/** An answer read whole: status, headers, body text, and the controller's clock when it answered. */
export interface Answer {
  status: number;
  headers: undici.Dispatcher.ResponseData["headers"];
  text: string;
  /** The answer's `Date` header (ms since the epoch, on the controller's clock), when it had one. */
  date: number | undefined;
}

/** The longest Retry-After the client will honour; longer ones fail instead of hanging a deploy. */
const MAX_RETRY_AFTER_MS = 30_000;

/** Failures to reach the address at all (no TCP connection): the controller is not there. */
const UNREACHED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * Set on an error raised while a connection was being made (TCP connect, then for https the TLS
 * handshake, certificate checks included): undici writes a request only on a connection made, so
 * such an error proves the request never left, whatever its code.
 */
const CONNECT_FAILED = Symbol("pulumi-boundary.connect-failed");

/** undici's connector with `options`, marking every error it reports (see CONNECT_FAILED). */
function markingConnector(options: undici.buildConnector.BuildOptions): undici.buildConnector.connector {
  const connect = undici.buildConnector(options);
  return (opts, callback) =>
    connect(opts, (err, socket) => {
      if (err) {
        Object.defineProperty(err, CONNECT_FAILED, { value: true });
        callback(err, null);
      } else callback(null, socket!);
    });
}

/** One client's connections and pacing; see the module comment. */
export class Transport {
  private apiPool: undici.Pool | undefined;
  private opsPool: undici.Pool | undefined;
  /** Keeps the client inside the server's rate limits (and BOUNDARY_RATE_LIMIT). */
  private readonly pacer: Pacer;

  /** A transport for `settings`; no connection is made until the first request. */
  constructor(readonly settings: ClientSettings) {
    this.pacer = new Pacer(settings.rateLimit);
  }

  /** One API call under `op`: the answer, or the typed error of an error status (its text scrubbed of credentials). */
  async api(op: Operation, method: string, path: string, body: unknown): Promise<Answer> {
    this.apiPool ??= this.pool(this.settings.origin);
    const fullPath = this.settings.basePath + path;
    const answer = await this.send(op, this.apiPool, method, fullPath, body, { auth: true, retry: true });
    if (answer.status >= 400) throw this.errorFrom(method, path.split("?")[0]!, fullPath.split("?")[0]!, answer);
    // a page that is not JSON is no answer of the API, whatever its status (Boundary's admin UI answers a GET of any path outside /v1/ with its index page)
    const type = first(answer.headers["content-type"]);
    if (answer.text !== "" && type !== undefined && !/json/i.test(type)) throw this.unexpected(method, path.split("?")[0]!, fullPath.split("?")[0]!, answer);
    return answer;
  }

  /** GET /health on the ops listener under `op`: any status is an answer (503 means shutting down), never retried. */
  async health(op: Operation): Promise<Answer> {
    this.opsPool ??= this.pool(this.settings.opsOrigin);
    return this.send(op, this.opsPool, "GET", "/health", undefined, { auth: false, retry: false });
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    await Promise.all([this.apiPool?.close(), this.opsPool?.close()]);
    this.apiPool = this.opsPool = undefined;
  }

  private pool(origin: string): undici.Pool {
    const { caCert, tlsInsecure } = this.settings;
    return new undici.Pool(origin, {
      connections: 8,
      // the same connector undici would build, its errors marked: they prove nothing was sent
      connect: markingConnector(origin.startsWith("https:") ? { ca: caCert, rejectUnauthorized: !tlsInsecure } : {}),
    });
  }

  /**
   * Sends, with the retries `retry.ts` allows, and reads the whole answer. The request's signal ends
   * it on Cancel, at the operation's deadline or after the per-request timeout; it covers the body.
   */
  private async send(op: Operation, pool: undici.Pool, method: string, path: string, body: unknown, opts: { auth: boolean; retry: boolean }): Promise<Answer> {
    const { timeoutMs, token } = this.settings;
    const maxRetries = opts.retry ? this.settings.maxRetries : 0;
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (opts.auth && token) headers.authorization = `Bearer ${token}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req: RequestName = { method, path: path.split("?")[0]! };
    const wait = (ms: number, why: () => string) => op.wait(ms, req, why);
    // the server keeps a quota per resource and action (lists have a smaller one; a configured quota may name one action)
    const kind = quotaOf(method, path);
    for (let attempt = 0; ; attempt++) {
      await this.pacer.acquire(kind, wait);
      try {
        op.ensureActive(req);
      } catch (err) {
        this.pacer.release(kind, undefined);
        throw err;
      }
      const signal = op.requestSignal(timeoutMs);
      let rateLimit: string | string[] | undefined;
      let answer: Answer;
      try {
        op.lastSentAt = performance.now();
        const res = await pool.request({ method: method as undici.Dispatcher.HttpMethod, path, headers, body: payload, signal: signal.signal });
        rateLimit = res.headers["ratelimit"];
        answer = { status: res.statusCode, headers: res.headers, text: await res.body.text(), date: dateOf(res.headers["date"]) };
      } catch (err) {
        this.pacer.release(kind, rateLimit);
        const e = this.transportError(op, req, err, signal.why());
        if (isIdempotent(method) && attempt < maxRetries && !(e instanceof CancelledError) && !(e instanceof DeadlineError)) {
          await wait(backoff(attempt), () => `sending ${method} again after ${e.message}`).catch(() => {
            throw e;
          });
          continue;
        }
        throw e;
      } finally {
        signal.done();
      }
      this.pacer.release(kind, rateLimit);
      const retryAfter = first(answer.headers["retry-after"]);
      if (attempt < maxRetries && retryableAnswer(method, answer.status, retryAfter, answer.text)) {
        const ms = retryAfterMs(retryAfter) ?? backoff(attempt);
        if (ms <= MAX_RETRY_AFTER_MS) {
          await wait(
            ms,
            () =>
              `the controller answered ${answer.status}${retryAfter ? ` and asks to wait ${formatMs(ms)} (Retry-After: ${retryAfter})` : `, to be asked again in ${formatMs(ms)}`}`,
          );
          continue;
        }
      }
      return answer;
    }
  }

  /** The error a failed request becomes: cancelled, past the deadline, timed out, or never sent at all. */
  private transportError(op: Operation, req: RequestName, err: unknown, aborted: "cancel" | "deadline" | "timeout" | undefined): TransportError {
    const e = err as { name?: string; code?: string; message?: string };
    const { method, path } = req;
    if (aborted === "cancel")
      return new CancelledError(method, path, "cancelled while waiting for the answer (the engine cancelled the operation)", { cause: err });
    if (aborted === "deadline") return new DeadlineError(method, path, `no answer before ${op.describeDeadline()}`, { cause: err });
    if (aborted === "timeout" || e?.name === "TimeoutError" || e?.name === "AbortError" || e?.code === "UND_ERR_ABORTED") {
      return new TimeoutError(method, path, `no answer within ${this.settings.timeoutMs} ms (BOUNDARY_CLIENT_TIMEOUT)`, { cause: err });
    }
    const code = e?.code ?? e?.name ?? "error";
    const text = this.scrub(`${code}: ${e?.message ?? String(err)}`);
    if ((err as { [CONNECT_FAILED]?: boolean })?.[CONNECT_FAILED] || UNREACHED.has(code)) {
      return new TransportError(method, path, `${text}; nothing was sent: ${this.notReached(code)}`, { cause: err, maybeApplied: false });
    }
    return new TransportError(method, path, text, { cause: err });
  }

  /**
   * Why no connection to the controller was made, and what the user can do: for an https address
   * past TCP, the TLS handshake failed (most often a certificate the client does not trust).
   */
  private notReached(code: string): string {
    const where = `${this.settings.origin}${this.settings.basePath}`;
    if (this.settings.origin.startsWith("https:") && !UNREACHED.has(code)) {
      return (
        `the TLS handshake with ${where} failed, so no request reached the controller. If its certificate is signed by a CA this machine does not ` +
        `trust (a private CA, a self-signed certificate), name the CA's PEM file in ${ENV.caCert}; for a development controller only, ` +
        `${ENV.tlsInsecure}=true skips verification. If that address does not serve TLS, use http:// in boundary:addr (or ${ENV.addr})`
      );
    }
    return `no controller answers at ${where}, the address boundary:addr (or ${ENV.addr}) gives. Is the controller running, and is that its API address? Set it with \`pulumi config set boundary:addr <address>\` (or ${ENV.addr})`;
  }

  /**
   * The typed error of an error status. Only Boundary's own error body is read as Boundary's answer
   * (a NotFound means gone, a 401 names the token); any other body is an UnexpectedAnswerError.
   */
  private errorFrom(method: string, path: string, fullPath: string, answer: Answer): BoundaryClientError {
    const headers = Object.fromEntries(Object.entries(answer.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v]])));
    const text = this.scrub(answer.text);
    const boundary = parseErrorBody(text);
    if (!boundary) {
      // Boundary answers some statuses with an empty body (405 for a route it does not have, 429 and
      // 503 from its rate limiter): kept as they are. Any other body, and a 404 of any kind, is not
      // Boundary's answer about a Target.
      if (text.trim() === "" && answer.status !== 404) {
        // an empty 405: Boundary's answer to an action its release lacks, and its admin UI's to any method but GET outside /v1/ (a wrong base path)
        const note =
          answer.status === 405
            ? `Nothing at ${this.settings.origin}${fullPath} takes ${method}: Boundary answers so for an action its release does not have, and for any path outside /v1/ (a wrong path in boundary:addr / BOUNDARY_ADDR?).`
            : undefined;
        return new BoundaryApiError(method, path, answer.status, "Unknown", `HTTP ${answer.status}`, [], headers, note);
      }
      return this.unexpected(method, path, fullPath, answer);
    }
    const err = apiError(method, path, answer.status, boundary.kind, boundary.message, boundary.fields, headers);
    if (err instanceof UnauthenticatedError) {
      const note = this.settings.token
        ? `The controller refused the token (wrong, expired or revoked, or made by another controller) given by ${this.settings.tokenFrom}: set a valid one with \`pulumi config set --secret boundary:token <token>\` or BOUNDARY_TOKEN.`
        : "No token was given: set one with `pulumi config set --secret boundary:token <token>` or BOUNDARY_TOKEN.";
      return new UnauthenticatedError(method, path, answer.status, boundary.kind, boundary.message, boundary.fields, headers, note);
    }
    return err;
  }

  /** An answer that is not the API's: named by its full address, status, content type and first bytes (scrubbed). */
  private unexpected(method: string, path: string, fullPath: string, answer: Answer): UnexpectedAnswerError {
    const headers = Object.fromEntries(Object.entries(answer.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v]])));
    return new UnexpectedAnswerError(
      method,
      path,
      this.settings.origin + fullPath,
      answer.status,
      headers["content-type"],
      this.scrub(answer.text).slice(0, 120),
      headers,
    );
  }

  /** Removes the token, and any bearer credential, from text that may reach an error message. */
  readonly scrub = (text: string): string => {
    const token = this.settings.token;
    const masked = token ? text.split(token).join("[redacted]") : text;
    return masked.replace(/(bearer\s+)[^\s"',;]+/gi, "$1[redacted]").replace(/(authorization["']?\s*[:=]\s*["']?)(?!bearer)[^\s"',;]+/gi, "$1[redacted]");
  };
}

/** Boundary's error body (`{kind, message, details.request_fields}`), or undefined for any other body. */
function parseErrorBody(text: string): { kind: string; message: string; fields: RequestField[] } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = ErrorBody.safeParse(json);
  return parsed.success ? { kind: parsed.data.kind, message: parsed.data.message, fields: parsed.data.details?.request_fields ?? [] } : undefined;
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** An HTTP `Date` header as ms since the epoch, or undefined. */
function dateOf(v: string | string[] | undefined): number | undefined {
  const t = Date.parse(first(v) ?? "");
  return Number.isNaN(t) ? undefined : t;
}
