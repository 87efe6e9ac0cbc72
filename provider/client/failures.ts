/**
 * What a failed request becomes: the typed errors of the provider's catalogue (`provider/errors.ts`)
 * for a request that got no answer (cancelled, past the deadline, timed out, never sent, lost) and
 * for an answer with an error status (only Boundary's own error body is Boundary's answer; any
 * other page is an UnexpectedAnswerError naming the address). Every text is scrubbed of the token
 * and of any bearer credential before it reaches a message.
 */
import * as tls from "node:tls";
import type * as undici from "undici";
import { ErrorBody, type RequestField } from "../../wire/target";
import {
  BoundaryApiError,
  BoundaryClientError,
  CancelledError,
  DeadlineError,
  TimeoutError,
  TransportError,
  UnauthenticatedError,
  UnexpectedAnswerError,
  apiError,
} from "./errors";
import type { Operation, RequestName } from "./operation";
import { ENV, type ClientSettings } from "./settings";

/** An answer read whole: status, headers, body text, and the controller's clock when it answered. */
export interface Answer {
  status: number;
  headers: undici.Dispatcher.ResponseData["headers"];
  text: string;
  /** The answer's `Date` header (ms since the epoch, on the controller's clock), when it had one. */
  date: number | undefined;
}

/** Failures to reach the address at all (no TCP connection): the controller is not there. */
const UNREACHED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * Set on an error raised while a connection was being made (TCP connect, then for https the TLS
 * handshake, certificate checks included): undici writes a request only on a connection made, so
 * such an error proves the request never left, whatever its code.
 */
export const CONNECT_FAILED = Symbol("pulumi-boundary.connect-failed");

/** Turns failures into the catalogue's errors, for one client's settings (its address, its token). */
export class Failures {
  /** Tokens a login issued: scrubbed like the configured one. */
  readonly secrets = new Set<string>();

  /** Failures named against `settings` (the address in messages, the token scrubbed). */
  constructor(readonly settings: ClientSettings) {}

  /**
   * The error a request that got no answer becomes: one already typed (an abort's reason: Cancel,
   * the deadline, the timeout) as it is; cancelled, past the deadline or timed out; a connection
   * never made is "nothing was sent"; anything else may have been applied.
   */
  transportError(op: Operation, req: RequestName, err: unknown, aborted?: "cancel" | "deadline" | "timeout"): BoundaryClientError {
    if (err instanceof BoundaryClientError) return err;
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
   * A plain-HTTP request whose connection the other side closed without a word (undici's
   * `UND_ERR_SOCKET: other side closed`): what a TLS listener does with bytes that are not TLS. When a
   * TLS handshake at the same host and port succeeds, that is what happened: the listener could not
   * have read the request, so nothing was applied, and the mistake is `http://` in the address.
   * Anything else (or a handshake that fails or takes longer than it may) leaves `err` as it is.
   */
  async plainHttpToTls(op: Operation, err: BoundaryClientError): Promise<BoundaryClientError> {
    const cause = err.cause as { code?: string } | undefined;
    if (!(err instanceof TransportError) || !err.maybeApplied || cause?.code !== "UND_ERR_SOCKET" || !this.settings.origin.startsWith("http:")) return err;
    const url = new URL(this.settings.origin);
    if (!(await speaksTls(url.hostname.replace(/^\[|\]$/g, ""), Number(url.port || 80), Math.min(PROBE_MS, op.remaining()), op.signal))) return err;
    const https = `https://${url.host}${this.settings.basePath}`;
    return new TransportError(
      err.method,
      err.path,
      `${this.scrub(`UND_ERR_SOCKET: ${(err.cause as Error).message}`)}; nothing was applied: ${url.host} serves TLS (a TLS handshake there succeeds), ` +
        `which cannot read a plain-HTTP request. Use ${https} in boundary:addr (or ${ENV.addr})`,
      { cause: err.cause, maybeApplied: false },
    );
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
    const given =
      this.settings.addrFrom === "default"
        ? `the default address: neither boundary:addr nor ${ENV.addr} is set`
        : `the address ${this.settings.addrFrom} gives`;
    return (
      `no controller answers at ${where}, ${given}. Is the controller running, and is that its API address? ` +
      `Set it with \`pulumi config set boundary:addr <address>\` (or ${ENV.addr})`
    );
  }

  /**
   * The typed error of an error status. Only Boundary's own error body is read as Boundary's answer
   * (a NotFound means gone, a 401 names the token); any other body is an UnexpectedAnswerError.
   */
  errorFrom(method: string, path: string, fullPath: string, answer: Answer): BoundaryClientError {
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
            ? `Nothing at ${this.settings.origin}${fullPath} takes ${method}: Boundary answers so for an action its release does not have, ` +
              "and for any path outside /v1/ (a wrong path in boundary:addr / BOUNDARY_ADDR?)."
            : undefined;
        return new BoundaryApiError(method, path, answer.status, "Unknown", `HTTP ${answer.status}`, [], headers, note);
      }
      return this.unexpected(method, path, fullPath, answer);
    }
    const err = apiError(method, path, answer.status, boundary.kind, boundary.message, boundary.fields, headers);
    if (err instanceof UnauthenticatedError) {
      const login = this.settings.login;
      const note = this.settings.token
        ? `The controller refused the token (wrong, expired or revoked, or made by another controller) given by ${this.settings.tokenFrom}: ` +
          "set a valid one with `pulumi config set --secret boundary:token <token>` or BOUNDARY_TOKEN."
        : login
          ? `The controller refused the token its login with ${JSON.stringify(login.authMethodId)} as ${JSON.stringify(login.loginName)} issued, ` +
            "even after logging in again: is a proxy in front of it, or is its token lifetime shorter than a request?"
          : "No token was given: set one with `pulumi config set --secret boundary:token <token>` or BOUNDARY_TOKEN, " +
            "or log in with `boundary:authMethodId`, `boundary:authMethodLoginName` and `boundary:authMethodPassword`.";
      return new UnauthenticatedError(method, path, answer.status, boundary.kind, boundary.message, boundary.fields, headers, note);
    }
    return err;
  }

  /** An answer that is not the API's: named by its full address, status, content type and first bytes (scrubbed). */
  unexpected(method: string, path: string, fullPath: string, answer: Answer): UnexpectedAnswerError {
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
    let masked = text;
    for (const secret of [this.settings.token, this.settings.login?.password, ...this.secrets]) if (secret) masked = masked.split(secret).join("[redacted]");
    return masked.replace(/(bearer\s+)[^\s"',;]+/gi, "$1[redacted]").replace(/(authorization["']?\s*[:=]\s*["']?)(?!bearer)[^\s"',;]+/gi, "$1[redacted]");
  };
}

/** How long the TLS probe of `plainHttpToTls` may take: a listener that serves TLS answers a handshake at once. */
const PROBE_MS = 2000;

/** Whether a TLS handshake with `host:port` completes within `ms` (any certificate: only the protocol is in question). */
function speaksTls(host: string, port: number, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = tls.connect({ host, port, rejectUnauthorized: false });
    const done = (yes: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      socket.destroy();
      resolve(yes);
    };
    const abort = () => done(false);
    const timer = setTimeout(abort, ms);
    signal?.addEventListener("abort", abort, { once: true });
    socket.once("secureConnect", () => done(true));
    socket.once("error", abort);
  });
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

/** A header's first value. */
export function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
