/**
 * How an IPv6 `address` is spelled on the wire. Boundary 0.12.0–0.19.2 refuse it without brackets
 * ("too many colons in address") and take it with them; 0.19.3 and later refuse the brackets
 * ("address cannot be encapsulated by brackets") and store the bare address normalised. The release
 * table's `addressBrackets` says which a release does, but 0.19's row covers both (0.19.3 changed
 * it): so the client sends the spelling the releases it may be agree on (else the program's), and
 * after the one refusal that names the other spelling sends that once. A 400 changed nothing.
 */
import { ipv6Literal } from "../../common/address";
import { knows, type Release } from "../../wire/releases";
import { BoundaryApiError, UnexpectedAnswerError } from "./errors";

/** Whether the controller takes IPv6 addresses in brackets: learned from a refusal, else what every release it may be does, else unknown. */
export function takesBrackets(learned: boolean | undefined, releases: readonly Release[]): boolean | undefined {
  if (learned !== undefined) return learned;
  const ways = new Set(releases.filter((r) => knows(r, "address")).map((r) => r.addressBrackets));
  return ways.size === 1 ? ways.has("taken") : undefined;
}

/**
 * The spellings to try for a body's IPv6 `address`, best first: `[addr]` or `addr` (the program's
 * letters: the controller normalises them). Undefined when the body carries no IPv6 address.
 * `takes` (`takesBrackets`' answer) is asked only then: every call of the client comes through here,
 * and almost none carries an IPv6 address.
 */
export function addressSpellings(body: Record<string, unknown> | undefined, takes: () => boolean | undefined): [string, string] | undefined {
  const address = body?.address;
  if (typeof address !== "string") return undefined;
  const bare = ipv6Literal(address);
  if (bare === undefined) return undefined;
  const bracketed = `[${bare}]`;
  const brackets = takes();
  const first = brackets === undefined ? (address.trim().startsWith("[") ? bracketed : bare) : brackets ? bracketed : bare;
  return [first, first === bare ? bracketed : bare];
}

/** The 400 that refuses an IPv6 address's spelling (not the address): which spelling it refused (`brackets`, or the `bare` address), else undefined. */
export function refusedSpelling(err: unknown): "brackets" | "bare" | undefined {
  if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError || err.status !== 400) return undefined;
  const why = err.requestFields.find((f) => f.name === "address")?.description ?? "";
  if (why.includes("cannot be encapsulated by brackets")) return "brackets";
  if (why.includes("too many colons in address")) return "bare";
  return undefined;
}

/** `body` with its address spelled `address`. */
export function withAddress(body: Record<string, unknown>, address: string): Record<string, unknown> {
  return { ...body, address };
}
