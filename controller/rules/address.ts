/**
 * The controller's rule for a Target's `address`, per release, in Boundary's words, and the form it
 * stores one in (see `common/address.ts` for the facts and where they were read): 0.12.0–0.19.2
 * split host and port (an unbracketed IPv6 address is "too many colons") and store what was sent,
 * trimmed; 0.19.3 and later normalise it (`2001:BEEF::1` is stored as `2001:beef::1`) and refuse
 * brackets. The release table's `addressBrackets` tells which a release does.
 */
import { ADDRESS_LENGTH, parseAddress, splitAddressProblem, type AddressProblem } from "../../common/address";
import type { ReleaseFacts } from "../../wire/release-facts";

/** Boundary's words for each problem (handlers/targets validateCreateRequest / validateUpdateRequest). */
function message(p: AddressProblem): string {
  switch (p.kind) {
    case "length":
      return `Address length must be between ${ADDRESS_LENGTH.min} and ${ADDRESS_LENGTH.max} characters.`;
    case "port":
      return "Address does not support a port.";
    default:
      return `Error parsing address: ${p.why}.`;
  }
}

/** What is wrong with `address` (as sent, untrimmed) in release `r`, in Boundary's words, or undefined. */
export function addressRule(address: string, r: Pick<ReleaseFacts, "addressBrackets">): string | undefined {
  const result = r.addressBrackets === "taken" ? splitAddressProblem(address) : problemOf(parseAddress(address));
  return result && message(result);
}

function problemOf(parsed: ReturnType<typeof parseAddress>): AddressProblem | undefined {
  return "problem" in parsed ? parsed.problem : undefined;
}

/** The address as release `r` stores it (after `addressRule` took it): normalised from 0.19.3, else as sent (trimmed by the store). */
export function storedAddress(address: string, r: Pick<ReleaseFacts, "addressBrackets">): string {
  if (r.addressBrackets === "taken") return address;
  const parsed = parseAddress(address);
  return "value" in parsed ? parsed.value : address;
}
