/**
 * Bearer-token authentication. Two grants: the admin token may do everything; the read-only token
 * may list and read. The configured tokens, and those an account's login issued (`AuthTokens`),
 * each carrying its account's grant until it expires. Tokens are compared in constant time and never logged.
 */
import type { IncomingMessage } from "node:http";
import type { Release } from "../../wire/releases";
import { ControllerFault } from "../errors";
import type { AuthTokens } from "../sessions/auth-tokens";

/** Who a token names: the admin (every action) or the read-only principal. */
export interface Principal {
  /** What the token may do. */
  grant: "admin" | "read-only";
}

const ADMIN: Principal = { grant: "admin" };
const READ_ONLY: Principal = { grant: "read-only" };
/** Who calls without a token, or a route anyone may call (`:authenticate`): the least grant. */
export const ANONYMOUS: Principal = Object.freeze({ grant: "read-only" });
/** What the read-only grant allows, in every release. */
const READ_ONLY_ACTIONS = Object.freeze(["no-op", "read"]);

/**
 * Constant time for tokens of equal length (every character is compared, no early exit, as
 * crypto.timingSafeEqual compares bytes, without encoding the token into a buffer on every
 * request); a length mismatch is refused without comparing.
 */
function same(presented: string, known: string | undefined): boolean {
  if (known === undefined || presented.length !== known.length) return false;
  let diff = 0;
  for (let i = 0; i < known.length; i++) diff |= presented.charCodeAt(i) ^ known.charCodeAt(i);
  return diff === 0;
}

/** Matches a presented token against the admin and read-only tokens, in constant time. */
export class Authenticator {
  private readonly admin: string;
  private readonly readOnly: string | undefined;

  /** The tokens' lengths in UTF-16 units, as a presented token's string is measured. */
  private readonly lengths: ReadonlySet<number>;
  /**
   * Every configured token is printable ASCII: one presented as `Bearer <token>` and equal to it is
   * then what bearerToken would take, so it may be compared before that token's characters are checked.
   */
  private readonly printable: boolean;

  /** An authenticator of these tokens (the read-only one optional), and of those `issued` issues. */
  constructor(
    adminToken: string,
    readOnlyToken?: string,
    private readonly issued?: AuthTokens,
  ) {
    this.admin = adminToken;
    this.readOnly = readOnlyToken || undefined;
    this.lengths = new Set([adminToken.length, ...(readOnlyToken ? [readOnlyToken.length] : [])]);
    this.printable = printableAscii(adminToken, 0) && (!this.readOnly || printableAscii(this.readOnly, 0));
  }

  /** The caller's principal; 401 when the token is missing or unknown. */
  authenticate(req: IncomingMessage): Principal {
    const principal = this.identify(req);
    if (!principal) throw unauthenticated();
    return principal;
  }

  /** The caller's principal, or undefined when the token is missing or unknown (the anonymous user). */
  identify(req: IncomingMessage): Principal | undefined {
    const header = req.headers.authorization ?? "";
    // the usual request: `Bearer ` and a configured token, compared at once (in constant time, as below)
    if (this.printable && header.startsWith("Bearer ") && this.lengths.has(header.length - 7)) {
      const presented = header.slice(7);
      if (same(presented, this.admin)) return ADMIN;
      if (same(presented, this.readOnly)) return READ_ONLY;
    }
    const token = bearerToken(header);
    // a token of neither length is refused without comparing (the lengths are not secret)
    if (token !== undefined && this.lengths.has(token.length)) {
      if (same(token, this.admin)) return ADMIN;
      if (same(token, this.readOnly)) return READ_ONLY;
    }
    const grant = token === undefined ? undefined : this.issued?.grantOf(token);
    return grant === undefined ? undefined : grant === "admin" ? ADMIN : READ_ONLY;
  }
}

/** A request with no token, or one the controller never issued. */
export function unauthenticated(): ControllerFault {
  return new ControllerFault("Unauthenticated", "Unauthenticated, or invalid token.");
}

/** A caller without the grant (Boundary: an authenticated user, or the anonymous one where it holds grants). */
export function forbidden(): ControllerFault {
  return new ControllerFault("PermissionDenied", "Forbidden.");
}

/** What the principal (undefined: the anonymous user) may not do: the refusal `authorize` throws, or undefined. */
export function refusal(principal: Principal | undefined, action: string): ControllerFault | undefined {
  if (!principal) return unauthenticated();
  const needed = action === "list" ? "read" : action;
  return principal.grant !== "admin" && !READ_ONLY_ACTIONS.includes(needed) ? forbidden() : undefined;
}

/**
 * The token of `Bearer <token>` (the scheme in any case, white space around the token), or
 * undefined; what the regex /^bearer\s+(\S+)\s*$/i takes, without a regex on every request.
 */
export function bearerToken(header: string): string | undefined {
  // the usual header, `Bearer ` and a token of printable ASCII: taken as it is, nothing trimmed or lowered
  if (header.startsWith("Bearer ") && printableAscii(header, 7)) return header.slice(7);
  if (header.length < 8 || header.slice(0, 6).toLowerCase() !== "bearer" || !/\s/.test(header[6]!)) return undefined;
  const token = header.slice(7).trim();
  return token === "" || /\s/.test(token) ? undefined : token;
}

/** `text` from `from` on is not empty and holds only printable ASCII (no white space of any kind). */
function printableAscii(text: string, from: number): boolean {
  if (from >= text.length) return false;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

/**
 * A Target's `authorized_actions` for the principal in a release: the release's actions (the
 * table's), or the read-only ones. The same array each time, so views cached by it stay shared.
 */
export function actionsOf(principal: Principal, release: Release): readonly string[] {
  return principal.grant === "admin" ? release.actions : READ_ONLY_ACTIONS;
}

/** 403 unless the principal may perform `action` (an action's name in the release, or list/create). */
export function authorize(principal: Principal, action: string): void {
  const refused = refusal(principal, action);
  if (refused) throw refused;
}
