/**
 * The one road every request of a client takes: an undici pool per listener, composed once with
 * the client's interceptors (`interceptors.ts`): retry → pacing → deadline → the pool. Each request
 * carries its operation, so Cancel, the deadline and every wait (pacing, Retry-After, backoff) are
 * the operation's. Then the whole answer is read, and an error status becomes the catalogue's typed
 * error (`failures.ts`). Callers never pass a deadline or a signal to a call: they run a client
 * `within` an operation.
 */
import type * as undici from "undici";
import { CONNECT_FAILED, Failures, first, type Answer } from "./failures";
import { deadline, pacing, retry, type OperationDispatchOptions } from "./interceptors";
import type { Operation } from "./operation";
import { Pacer } from "./pacer";
import { Login } from "./login";
import type { ClientSettings } from "./settings";
import { UNDICI } from "./undici-parts";

export type { Answer } from "./failures";

/** The options of one request on a composed pool: undici's request options and the operation. */
type OperationRequest = undici.Dispatcher.RequestOptions & Pick<OperationDispatchOptions, "operation" | "name">;

/** undici's connector with `options`, marking every error it reports (see CONNECT_FAILED). */
function markingConnector(options: undici.buildConnector.BuildOptions): undici.buildConnector.connector {
  const connect = UNDICI.buildConnector(options);
  return (opts, callback) =>
    connect(opts, (err, socket) => {
      if (err) {
        Object.defineProperty(err, CONNECT_FAILED, { value: true });
        callback(err, null);
      } else callback(null, socket!);
    });
}

/** One client's connections, pacing and typed failures; see the module comment. */
export class Transport {
  private apiPool: undici.Pool | undefined;
  private opsPool: undici.Pool | undefined;
  private api_: undici.Dispatcher | undefined;
  private ops_: undici.Dispatcher | undefined;
  /** Keeps the client inside the server's rate limits (and BOUNDARY_RATE_LIMIT), shared by both listeners. */
  private readonly pacer: Pacer;
  private readonly failures: Failures;
  /** The login, when the settings give an auth method and no token. */
  private readonly login: Login | undefined;
  /** The last `RateLimit-Policy` an API answer advertised (of any status), for `pulumi-boundary doctor`. */
  rateLimitPolicy: string | undefined;

  /** A transport for `settings`; no connection is made until the first request. */
  constructor(readonly settings: ClientSettings) {
    this.pacer = new Pacer(settings.rateLimit);
    this.failures = new Failures(settings);
    this.login = settings.login ? new Login(settings.login, settings.origin) : undefined;
  }

  /**
   * One API call under `op`: the answer, or the typed error of an error status (its text scrubbed of
   * credentials). Without a token but with a login, the login's token (see `login.ts`); Boundary's
   * 401 for it (expired, revoked) is one more login and the call once more: a 401 is answered before
   * anything is applied, so any call may be sent again.
   */
  async api(op: Operation, method: string, path: string, body: unknown): Promise<Answer> {
    const token = this.login ? await this.login.token((p, b) => this.authenticate(op, p, b)) : this.settings.token;
    if (this.login && token) this.failures.secrets.add(token);
    let answer = await this.call(op, method, path, body, token);
    if (this.login && token !== undefined && refusedToken(answer)) {
      const fresh = await this.login.renew(token, (p, b) => this.authenticate(op, p, b));
      // an issued token is scrubbed from every message, like a configured one
      this.failures.secrets.add(fresh);
      answer = await this.call(op, method, path, body, fresh);
    }
    this.rateLimitPolicy = first(answer.headers["ratelimit-policy"]) ?? this.rateLimitPolicy;
    return this.checked(method, path, answer);
  }

  /** The login's call: the answer's text, or the typed error of its status; no token is sent. */
  private async authenticate(op: Operation, path: string, body: unknown): Promise<string> {
    return this.checked("POST", path, await this.call(op, "POST", path, body, undefined)).text;
  }

  /** One request of the API listener, with `token` as its bearer (none: no Authorization header). */
  private call(op: Operation, method: string, path: string, body: unknown, token: string | undefined): Promise<Answer> {
    if (!this.api_) {
      this.apiPool = this.pool(this.settings.origin);
      this.api_ = this.apiPool.compose(deadline(this.settings.timeoutMs, this.failures), pacing(this.pacer), retry(this.settings.maxRetries));
    }
    return this.send(op, this.api_, method, this.settings.basePath + path, body, token);
  }

  /** The answer of `method path`, or the typed error of its status or of a page that is not the API's. */
  private checked(method: string, path: string, answer: Answer): Answer {
    const fullPath = this.settings.basePath + path;
    if (answer.status >= 400) throw this.failures.errorFrom(method, path.split("?")[0]!, fullPath.split("?")[0]!, answer);
    // a page that is not JSON is no answer of the API, whatever its status (Boundary's admin UI answers a GET of any path outside /v1/ with its index page)
    const type = first(answer.headers["content-type"]);
    if (answer.text !== "" && type !== undefined && !/json/i.test(type))
      throw this.failures.unexpected(method, path.split("?")[0]!, fullPath.split("?")[0]!, answer);
    return answer;
  }

  /** GET /health on the ops listener under `op`: any status is an answer (503 means shutting down), never retried. */
  async health(op: Operation): Promise<Answer> {
    if (!this.ops_) {
      this.opsPool = this.pool(this.settings.opsOrigin);
      // 503 is the answer here (shutting down), never a reason to send again
      this.ops_ = this.opsPool.compose(deadline(this.settings.timeoutMs, this.failures), pacing(this.pacer));
    }
    return this.send(op, this.ops_, "GET", "/health", undefined, undefined);
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    await Promise.all([this.apiPool?.close(), this.opsPool?.close()]);
    this.apiPool = this.opsPool = this.api_ = this.ops_ = undefined;
  }

  private pool(origin: string): undici.Pool {
    const { caCert, tlsInsecure } = this.settings;
    return new UNDICI.Pool(origin, {
      connections: 8,
      // the same connector undici would build, its errors marked: they prove nothing was sent
      connect: markingConnector(origin.startsWith("https:") ? { ca: caCert, rejectUnauthorized: !tlsInsecure } : {}),
    });
  }

  /** One request through a composed pool under `op`, its answer read whole; a failure is the catalogue's typed error. */
  private async send(op: Operation, dispatcher: undici.Dispatcher, method: string, path: string, body: unknown, token: string | undefined): Promise<Answer> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    // its name for messages made once here, not by each interceptor
    const name = { method, path: path.split("?")[0]! };
    const request: OperationRequest = {
      method: method as undici.Dispatcher.HttpMethod,
      path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      operation: op,
      name,
    };
    try {
      const res = await UNDICI.request.call(dispatcher, request);
      const { statusCode: status, headers } = res;
      const text = await res.body.text();
      // the Date header is read only by a list's pages (the controller's clock): parsed when asked, not on every answer
      return {
        status,
        headers,
        text,
        get date() {
          return dateOf(headers["date"]);
        },
      };
    } catch (err) {
      throw await this.failures.plainHttpToTls(op, this.failures.transportError(op, name, err));
    }
  }
}

/** Boundary's own 401 (its error body, kind Unauthenticated): the token was refused, and nothing was done. */
function refusedToken(answer: Answer): boolean {
  if (answer.status !== 401) return false;
  try {
    return (JSON.parse(answer.text) as { kind?: unknown }).kind === "Unauthenticated";
  } catch {
    return false;
  }
}

/** An HTTP `Date` header as ms since the epoch, or undefined. */
function dateOf(v: string | string[] | undefined): number | undefined {
  const t = Date.parse(first(v) ?? "");
  return Number.isNaN(t) ? undefined : t;
}
