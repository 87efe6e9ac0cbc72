/**
 * Go's strconv.Unquote, for the string literals of go-bexpr's grammar: its StringLiteral action
 * unquotes `"…"` and `` `…` ``, and a double-quoted body Go refuses (an unknown escape, a raw
 * newline, a lone backslash before the closing quote) fails the whole filter with "invalid syntax".
 */

const SIMPLE: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, "\\": 92, '"': 34 };
const HEX: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The value of a double-quoted literal's body (between the quotes), or undefined where Go's Unquote answers ErrSyntax. */
export function unquoteDouble(body: string): string | undefined {
  // \x and octal escapes are bytes (Go strings are bytes): gather bytes and decode them once
  const bytes: number[] = [];
  const chars = Array.from(body);
  for (let i = 0; i < chars.length;) {
    const c = chars[i]!;
    if (c === "\n") return undefined;
    if (c !== "\\") {
      bytes.push(...Buffer.from(c, "utf8"));
      i++;
      continue;
    }
    const e = chars[i + 1];
    if (e === undefined) return undefined;
    if (SIMPLE[e] !== undefined) {
      bytes.push(SIMPLE[e]!);
      i += 2;
    } else if (HEX[e] !== undefined) {
      const digits = chars.slice(i + 2, i + 2 + HEX[e]!).join("");
      if (!new RegExp(`^[0-9a-fA-F]{${HEX[e]}}$`).test(digits)) return undefined;
      const v = parseInt(digits, 16);
      if (e === "x") bytes.push(v);
      else if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return undefined;
      else bytes.push(...Buffer.from(String.fromCodePoint(v), "utf8"));
      i += 2 + HEX[e]!;
    } else if (/[0-7]/.test(e)) {
      const digits = chars.slice(i + 1, i + 4).join("");
      if (!/^[0-7]{3}$/.test(digits) || parseInt(digits, 8) > 255) return undefined;
      bytes.push(parseInt(digits, 8));
      i += 4;
    } else return undefined;
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The value of a backquoted (raw) literal's body: Go drops its carriage returns. */
export function unquoteRaw(body: string): string {
  return body.replace(/\r/g, "");
}
