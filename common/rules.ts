/**
 * The rules of a Target's fields as predicates, written once and used by both sides: the
 * provider's `check` (so `pulumi preview` fails exactly where the controller would answer 400) and
 * the controller's store. Each side words its own message; the decision is made here only.
 */
import { isIP } from "node:net";
import { FilterSyntaxError, parseFilter } from "./filter";

/** The largest value of Boundary's int32 fields (session limits). */
export const MAX_INT32 = 2 ** 31 - 1;

/** What is wrong with a name, or undefined: not blank, printable (surrounding white space is trimmed). */
export function nameProblem(name: string): "blank" | "unprintable" | undefined {
  if (name.trim() === "") return "blank";
  if (!isPrintable(name)) return "unprintable";
  return undefined;
}

/** Boundary's check for names and descriptions: no control characters. */
export function isPrintable(s: string): boolean {
  return !/[\u0000-\u001f\u007f]/.test(s);
}

/** `session_max_seconds`: a whole number of seconds, 1 to MAX_INT32. */
export function isSessionMaxSeconds(v: number): boolean {
  return Number.isInteger(v) && v > 0 && v <= MAX_INT32;
}

/** `session_connection_limit`: -1 (unlimited) or 1 to MAX_INT32. */
export function isConnectionLimit(v: number): boolean {
  return Number.isInteger(v) && (v === -1 || (v > 0 && v <= MAX_INT32));
}

/** A TCP port, 1–65535. */
export function isPort(v: number): boolean {
  return Number.isInteger(v) && v >= 1 && v <= 65535;
}

/** Boundary's id shape: the resource's prefix (`hsst_`) followed by base62 characters. */
export function hasIdPrefix(id: string, prefix: string): boolean {
  return id.length > prefix.length && id.startsWith(prefix) && /^[0-9A-Za-z]+$/.test(id.slice(prefix.length));
}

/** The id carries one of the prefixes (see `hasIdPrefix`). */
export function hasAnyIdPrefix(id: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => hasIdPrefix(id, p));
}

/** "a, b or c", for messages. */
export function oneOf(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

/** Why a filter expression does not parse (the parser's message with its position), or undefined. */
export function filterProblem(expression: string): string | undefined {
  try {
    parseFilter(expression);
    return undefined;
  } catch (err) {
    if (err instanceof FilterSyntaxError) return err.message;
    throw err;
  }
}

/** How long a Target's `address` may be (Boundary's host address limits). */
export const ADDRESS_LENGTH = { min: 3, max: 255 } as const;

/**
 * What is wrong with a Target's `address` (after trimming), or undefined: Boundary takes a host name
 * or an IP address, 3–255 characters, without a port; an IPv6 literal has no brackets (0.19.3+).
 */
export function addressProblem(address: string): "length" | "port" | "brackets" | undefined {
  const a = address.trim();
  if (a.length < ADDRESS_LENGTH.min || a.length > ADDRESS_LENGTH.max) return "length";
  if (a.startsWith("[")) return /^\[[^\]]*\]:\d*$/.test(a) ? "port" : "brackets";
  const colons = a.split(":").length - 1;
  // one colon is host:port; an IPv6 literal has two or more and cannot carry a port unbracketed
  return colons === 1 ? "port" : undefined;
}

/** A DNS name: labels of letters, digits, `-` and `_` (not starting or ending with `-`), at most 63 each. */
const DNS_NAME = /^(?=.{1,253}\.?$)(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/**
 * What is wrong with a host's address (a fixture's static host), or undefined: the Target's
 * `address` rule (3-255 characters, no port, an IPv6 literal without brackets) and, as Boundary's
 * `util.ParseAddress` takes it, an IP address or a DNS name; so never a control character.
 */
export function hostAddressProblem(address: string): string | undefined {
  const problem = addressProblem(address);
  if (problem === "length") return `must be ${ADDRESS_LENGTH.min}-${ADDRESS_LENGTH.max} characters`;
  if (problem === "port") return "must not carry a port";
  if (problem === "brackets") return "an IPv6 address is written without brackets";
  const a = address.trim();
  if (isIP(a) === 0 && !DNS_NAME.test(a)) return "must be an IP address or a host name (letters, digits, -, _ and dots)";
  return undefined;
}
