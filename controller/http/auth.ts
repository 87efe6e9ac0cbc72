/**
 * Bearer-token authentication. Two grants: the admin token may do everything; the read-only token
 * may list and read. Tokens are compared in constant time and never logged.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { TARGET_ACTIONS, type TargetAction } from "../../wire/target";
import { BoundaryError } from "../errors";

export interface Principal {
  grant: "admin" | "read-only";
  /** What the caller may do on a Target, in Boundary's order. */
  actions: readonly TargetAction[];
}

const ADMIN: Principal = { grant: "admin", actions: TARGET_ACTIONS };
const READ_ONLY: Principal = { grant: "read-only", actions: ["no-op", "read"] };

/** Constant time for tokens of equal length; a length mismatch is refused without comparing bytes. */
function same(presented: Buffer, known: Buffer | undefined): boolean {
  return known !== undefined && presented.length === known.length && timingSafeEqual(presented, known);
}

export class Authenticator {
  private readonly admin: Buffer;
  private readonly readOnly: Buffer | undefined;

  /** The tokens' lengths in UTF-16 units, as a presented token's string is measured. */
  private readonly lengths: ReadonlySet<number>;

  constructor(adminToken: string, readOnlyToken?: string) {
    this.admin = Buffer.from(adminToken);
    this.readOnly = readOnlyToken ? Buffer.from(readOnlyToken) : undefined;
    this.lengths = new Set([adminToken.length, ...(readOnlyToken ? [readOnlyToken.length] : [])]);
  }

  /** The caller's principal; 401 when the token is missing or unknown. */
  authenticate(req: IncomingMessage): Principal {
    const token = bearerToken(req.headers.authorization ?? "");
    // a token of neither length is refused without comparing (the lengths are not secret)
    if (token !== undefined && this.lengths.has(token.length)) {
      const presented = Buffer.from(token);
      if (same(presented, this.admin)) return ADMIN;
      if (same(presented, this.readOnly)) return READ_ONLY;
    }
    throw new BoundaryError("Unauthenticated", "Unauthenticated, or invalid token.");
  }
}

/**
 * The token of `Bearer <token>` (the scheme in any case, white space around the token), or
 * undefined; what the regex /^bearer\s+(\S+)\s*$/i takes, without a regex on every request.
 */
export function bearerToken(header: string): string | undefined {
  if (header.length < 8 || header.slice(0, 6).toLowerCase() !== "bearer" || !/\s/.test(header[6]!)) return undefined;
  const token = header.slice(7).trim();
  return token === "" || /\s/.test(token) ? undefined : token;
}

/** 403 unless the principal may perform `action`. */
export function authorize(principal: Principal, action: TargetAction | "list" | "create"): void {
  const needed: TargetAction = action === "list" ? "read" : action === "create" ? "update" : action;
  if (!principal.actions.includes(needed)) throw new BoundaryError("PermissionDenied", "Forbidden.");
}
