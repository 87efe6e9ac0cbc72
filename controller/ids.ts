/**
 * Ids as Boundary makes and checks them: `prefix_` and 10 base62 characters; a Target id checked
 * as handlers/verifiers.go `ValidId` checks it, and the words each verifier uses for a bad one.
 */
import { randomBytes } from "node:crypto";

/** What a request does with a Target's id, for the words of a malformed one (handlers/verifiers.go and the actions' validators). */
export type IdUse = "read" | "update" | "delete" | "action";
/** Boundary's words for a malformed id, by use (the same from v0.4.0 to v0.21.3). */
export const BAD_ID: Record<IdUse, string> = {
  read: "Invalid formatted identifier.",
  update: "Improperly formatted path identifier.",
  delete: "Incorrectly formatted identifier.",
  action: "Incorrectly formatted identifier.",
};

/** Boundary's id alphabet: digits, then upper case, then lower case letters. */
export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random bytes drawn a few KiB at a time: one system call per 400 ids, not one per id. */
let entropy = Buffer.alloc(0);
let drawn = 0;
function randomTen(): Buffer {
  if (drawn + 10 > entropy.length) {
    entropy = randomBytes(4000);
    drawn = 0;
  }
  return entropy.subarray(drawn, (drawn += 10));
}

/** `prefix_` + 10 base62 characters, as Boundary makes ids. */
export function newId(prefix: string): string {
  let out = prefix;
  for (const b of randomTen()) out += BASE62[b % 62];
  return out;
}

/**
 * A Target id as Boundary checks one (handlers/verifiers.go ValidId): `ttcp_`, then letters and
 * digits only (none at all passes, and is then not found).
 */
export function isTargetId(id: string): boolean {
  if (!id.startsWith("ttcp_")) return false;
  // /^[0-9A-Za-z]*$/ over the rest, without a copy and a regex on every request
  for (let i = "ttcp_".length; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) return false;
  }
  return true;
}
