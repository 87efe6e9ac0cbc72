/** Base58 (Bitcoin alphabet), as Boundary encodes authorization tokens (mr-tron/base58). */
import { ControllerFault } from "../errors";

/** The Bitcoin base58 alphabet (no 0, O, I, l). */
export const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const ALPHABET = BASE58;

/**
 * Digits per chunk: 58^9 < 2^53, so a chunk's digits come from plain number arithmetic, and the
 * big number is divided once per 9 digits instead of once per digit (a token of ~600 bytes has
 * ~800 digits: this is what keeps authorize-session fast).
 */
const CHUNK_DIGITS = 9;
const CHUNK = 58n ** BigInt(CHUNK_DIGITS);

/** The base58 text of `bytes`: each leading zero byte is a "1", as Bitcoin's encoding has it. */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  if (zeros === bytes.length) return "1".repeat(zeros);
  let n = BigInt("0x" + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex"));
  const chunks: string[] = [];
  while (n > 0n) {
    let chunk = Number(n % CHUNK);
    n /= CHUNK;
    let digits = "";
    for (let i = 0; i < CHUNK_DIGITS; i++) {
      digits = ALPHABET[chunk % 58] + digits;
      chunk = Math.floor(chunk / 58);
    }
    chunks.push(digits);
  }
  // the most significant chunk was padded with zero digits ("1"): those are not part of the number
  const text = chunks.reverse().join("").replace(/^1+/, "");
  return "1".repeat(zeros) + text;
}

/** The bytes of base58 `text`; throws a ControllerFault (InvalidArgument) on a character outside the alphabet. */
export function base58Decode(text: string): Buffer {
  let n = 0n;
  for (const c of text) {
    const digit = ALPHABET.indexOf(c);
    if (digit < 0) throw new ControllerFault("InvalidArgument", "not base58");
    n = n * 58n + BigInt(digit);
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  const hex = n === 0n ? "" : n.toString(16);
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex.length % 2 ? "0" + hex : hex, "hex")]);
}
