/**
 * The rules of a Target's fields as predicates, written once and used by both sides: the
 * provider's `check` (so `pulumi preview` fails exactly where the controller would answer 400) and
 * the controller's store. Each side words its own message; the decision is made here only.
 */
import { isIP } from "node:net";
import { ADDRESS_LENGTH, parseAddress } from "./address";
import type { BadPattern, FilterOptions } from "./filter";

/** The largest value of Boundary's int32 fields (session limits). */
export const MAX_INT32 = 2 ** 31 - 1;

/** Go's `unicode.IsSpace`: Boundary trims names and descriptions of these, and 0.17+ let descriptions hold them. */
const GO_SPACE = "\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000";
const LEADING_SPACE = new RegExp(`^[${GO_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${GO_SPACE}]+$`);
/**
 * Go's `unicode.IsPrint` for every character: letters, marks, numbers, punctuation, symbols and
 * the ASCII space, so no control, format (zero-width, bidi overrides), private-use or other space
 * character (tab, NBSP). Boundary's `ValidName` (and, up to 0.16, `ValidNameDescription`).
 */
const PRINT = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;
/** `unicode.IsPrint(c) || unicode.IsSpace(c)` for every character: Boundary 0.17+'s `ValidDescription`. */
const PRINT_OR_SPACE = new RegExp(`^[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}${GO_SPACE}]*$`, "u");

/** One UTF-16 unit of GO_SPACE (every character of it is one unit). */
function isGoSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Go's `strings.TrimSpace`: Boundary trims names and descriptions before it judges and stores them. */
export function trimSpace(s: string): string {
  // most values have nothing to trim: the two replacements only when an end is a space (checked on every check of a name)
  if (s === "" || (!isGoSpace(s.charCodeAt(0)) && !isGoSpace(s.charCodeAt(s.length - 1)))) return s;
  return s.replace(LEADING_SPACE, "").replace(TRAILING_SPACE, "");
}

/** Which characters a description may hold: `unicode.IsPrint` (up to Boundary 0.16) or also `unicode.IsSpace` (0.17+). */
export type DescriptionRule = "print" | "print-or-space";

/** What is wrong with a name, or undefined: not blank, every character printable as Go says (after trimming). */
export function nameProblem(name: string): "blank" | "unprintable" | undefined {
  const trimmed = trimSpace(name);
  if (trimmed === "") return "blank";
  if (!PRINT.test(trimmed)) return "unprintable";
  return undefined;
}

/** The description holds a character the rule refuses (after trimming). */
export function descriptionProblem(description: string, rule: DescriptionRule): "unprintable" | undefined {
  return (rule === "print" ? PRINT : PRINT_OR_SPACE).test(trimSpace(description)) ? undefined : "unprintable";
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

/** Why a filter expression does not parse (the parser's message with its position), or undefined; `how` as parseFilter takes it. */
export function filterProblem(expression: string, how: BadPattern | FilterOptions = "refused"): string | undefined {
  // loaded at the first filter, not with the rules: the parser and its regular expression engine
  // (re2js, 260 KB of source) are a tenth of the provider's load, and most Targets set no filter
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { FilterSyntaxError, parseFilter } = require("./filter") as typeof import("./filter");
  try {
    parseFilter(expression, how);
    return undefined;
  } catch (err) {
    if (err instanceof FilterSyntaxError) return err.message;
    throw err;
  }
}

/** How long a Target's `address` may be (Boundary's host address limits). */
export { ADDRESS_LENGTH };

/**
 * What is wrong with a Target's `address`, or undefined, as Boundary 0.19.3 and later judge it
 * (`common/address.ts`): 3–255 characters once trimmed, no port, no brackets, and a host Go's URL
 * parser takes (an IP address or a name: no white space, control characters or `{|}\^`, and a
 * colon only in an IPv6 address).
 */
export function addressProblem(address: string): "length" | "port" | "brackets" | "unparsable" | undefined {
  const parsed = parseAddress(address);
  return "problem" in parsed ? parsed.problem.kind : undefined;
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
  if (problem === "unparsable") return "must not hold white space, control characters or {|}\\^`";
  const a = address.trim();
  if (isIP(a) === 0 && !DNS_NAME.test(a)) return "must be an IP address or a host name (letters, digits, -, _ and dots)";
  return undefined;
}
