/**
 * The auth tokens the controller issues when an account logs in (`:authenticate`), as `boundary dev`
 * does: each names its account's grant and expires after the configured time to live (Boundary's
 * `auth_token_time_to_live`, 7 days by default). An issued token works as the configured ones do
 * until it expires; then it is unknown (401). Passwords and tokens are compared in constant time and
 * never logged.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { BASE62 } from "../ids";
import { BASE58 } from "./base58";
import type { FixtureAuthMethod } from "../store/fixtures";

/** Boundary's default `auth_token_time_to_live` (internal/cmd/config: 7 days). */
export const DEFAULT_AUTH_TOKEN_TTL_MS = 7 * 24 * 3600 * 1000;

/** The grant an account's tokens carry. */
export type Grant = "admin" | "read-only";

/** One issued token: its public id, its secret whole, whom it names and when it expires (ms since the epoch). */
export interface IssuedToken {
  id: string;
  token: string;
  authMethodId: string;
  accountId: string;
  userId: string;
  grant: Grant;
  created: number;
  expires: number;
}

/** Above this many tokens held, a login first forgets the expired ones. */
const SWEEP_AT = 10_000;

const pick = (alphabet: string, n: number) => [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join("");

/** Constant time for values of equal length; a length mismatch is refused without comparing bytes. */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The auth methods an account logs in with, and the tokens they issued. */
export class AuthTokens {
  private readonly methods: ReadonlyMap<string, FixtureAuthMethod>;
  private readonly issued = new Map<string, IssuedToken>();

  /** Tokens issued by these auth methods live `ttlMs`; `now` is the clock (tests pass their own). */
  constructor(
    methods: readonly FixtureAuthMethod[],
    readonly ttlMs = DEFAULT_AUTH_TOKEN_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.methods = new Map(methods.map((m) => [m.id, m]));
  }

  /** Whether an auth method of this id is seeded. */
  has(authMethodId: string): boolean {
    return this.methods.has(authMethodId);
  }

  /** A new token for the account of this login name and password, or undefined when they match none. */
  login(authMethodId: string, loginName: string, password: string): IssuedToken | undefined {
    const method = this.methods.get(authMethodId);
    if (!method) return undefined;
    const index = method.accounts.findIndex((a) => a.login_name === loginName);
    const account = method.accounts[index];
    // the password is compared even for an unknown name, so an answer's time does not tell names apart
    const matches = same(password, account?.password ?? "\u0000".repeat(password.length + 1));
    if (!account || !matches) return undefined;
    const now = this.now();
    if (this.issued.size >= SWEEP_AT) this.forgetExpired(now);
    const id = `at_${pick(BASE62, 10)}`;
    const suffix = String(index).padStart(4, "0");
    const token: IssuedToken = {
      id,
      token: `${id}_s1${pick(BASE58, 64)}`,
      authMethodId,
      accountId: `${authMethodId.startsWith("amldap_") ? "acctldap" : "acctpw"}_${authMethodId.slice(-6)}${suffix}`,
      userId: `u_${authMethodId.slice(-6)}${suffix}`,
      grant: account.grant,
      created: now,
      expires: now + this.ttlMs,
    };
    this.issued.set(id, token);
    return token;
  }

  /** The grant of an issued token that has not expired, else undefined. */
  grantOf(presented: string): Grant | undefined {
    const issued = this.issued.get(presented.slice(0, 13));
    if (!issued || !same(presented, issued.token)) return undefined;
    if (this.now() >= issued.expires) {
      this.issued.delete(issued.id);
      return undefined;
    }
    return issued.grant;
  }

  private forgetExpired(now: number): void {
    for (const [id, t] of this.issued) if (now >= t.expires) this.issued.delete(id);
  }
}
