/**
 * Logging in with an auth method, as terraform-provider-boundary does when no token is given:
 * `POST /v1/auth-methods/{id}:authenticate` with `{"command":"login","attributes":{"login_name",
 * "password"}}`, the body every release from 0.4 to 0.21 reads for password and LDAP auth methods
 * (auth_method_service.proto at each tag; the deprecated `credentials` of 0.4–0.6 is not needed).
 * Once per client, on its first call; the token lives in this object only (never in state, outputs,
 * logs or errors). After a 401 for that token (it expired), one more login, shared by every call
 * that saw the same stale token.
 */
import { z } from "zod";
import { BoundaryApiError, LoginRefusedError, SchemaValidationError, UnexpectedAnswerError } from "./errors";
import type { LoginSettings } from "./settings";
import { firstReleaseWhere } from "../../wire/releases";

/** The release whose login first took LDAP auth methods (the release table's). */
export const LDAP_SINCE = firstReleaseWhere((r) => r.authenticate.methods.includes("amldap"))?.release;

/** What a login answers that the client reads: the token (the rest of the auth token is not kept). */
const LoginAnswer = z.object({ attributes: z.object({ token: z.string().min(1) }) });

/** Sends the authenticate call without a token; its answer's text, or the catalogue's typed error. */
export type Authenticate = (path: string, body: unknown) => Promise<string>;

/** The path and body of the login: the same on every release. */
export function loginCall(login: LoginSettings): { path: string; body: unknown } {
  return {
    path: `/v1/auth-methods/${encodeURIComponent(login.authMethodId)}:authenticate`,
    body: { command: "login", attributes: { login_name: login.loginName, password: login.password } },
  };
}

/** One client's login: the token it holds, and the login in flight. */
export class Login {
  private pending: Promise<string> | undefined;

  /** A login with these settings at the controller of `origin` (for messages). */
  constructor(
    readonly settings: LoginSettings,
    private readonly origin: string,
  ) {}

  /** The token: the one held, or a login now (concurrent callers share it). */
  token(authenticate: Authenticate): Promise<string> {
    return (this.pending ??= this.login(authenticate));
  }

  /** After a 401 for `stale`: a new login, unless another call has already renewed it. */
  async renew(stale: string, authenticate: Authenticate): Promise<string> {
    const held = await this.pending?.catch(() => undefined);
    if (held === undefined || held === stale) this.pending = this.login(authenticate);
    return this.pending!;
  }

  private async login(authenticate: Authenticate): Promise<string> {
    const { path, body } = loginCall(this.settings);
    try {
      const text = await authenticate(path, body);
      const parsed = LoginAnswer.safeParse(text === "" ? {} : JSON.parse(text));
      if (!parsed.success) throw new SchemaValidationError("POST", path, parsed.error.issues);
      return parsed.data.attributes.token;
    } catch (err) {
      const refused = err instanceof BoundaryApiError && !(err instanceof UnexpectedAnswerError) ? this.refusal(err) : undefined;
      // a refusal stays the answer for every later call (the settings do not change while the process runs); anything else may pass: try again then
      if (!refused) this.pending = undefined;
      throw refused ?? (err instanceof SyntaxError ? new SchemaValidationError("POST", path, [{ path: [], message: "the body is not JSON" }]) : err);
    }
  }

  /** The one message of each refusal, naming the setting to fix; undefined for an answer that is no refusal of the login. */
  private refusal(err: BoundaryApiError): LoginRefusedError | undefined {
    const { authMethodId, loginName, from } = this.settings;
    const am = JSON.stringify(authMethodId);
    if (err.status === 401)
      return new LoginRefusedError(
        `the controller at ${this.origin} refused the login of ${JSON.stringify(loginName)} with auth method ${am}: ` +
          `a wrong login name or password: check ${from.loginName} and ${from.password}`,
      );
    if (err.status === 404)
      return new LoginRefusedError(
        `the controller at ${this.origin} has no auth method ${am}: check ${from.authMethodId} ` +
          "(`boundary auth-methods list -scope-id global` lists them; the password one is ampw_…)",
      );
    if (err.status === 400 && err.requestFields.some((f) => f.name === "auth_method_id"))
      return new LoginRefusedError(
        `the controller at ${this.origin} does not know auth methods of the type of ${am} (${from.authMethodId})` +
          (authMethodId.startsWith("amldap_") ? `: LDAP auth methods came in Boundary ${LDAP_SINCE}; use a password auth method (ampw_…) or a token` : ""),
      );
    if (err.status === 400)
      return new LoginRefusedError(
        `the controller at ${this.origin} refused the login request with ${am}: ` +
          (err.requestFields.map((f) => `${f.name}: ${f.description}`).join("; ") || err.apiMessage),
      );
    return undefined;
  }
}
