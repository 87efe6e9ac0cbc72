/**
 * `trimSpace` is Go's `strings.TrimSpace`, which Boundary applies to names and descriptions before
 * it judges and stores them. It skips its two replacements when neither end is a space: every
 * character Go's `unicode.IsSpace` takes, and no other, must still be trimmed from either end.
 */
import { trimSpace } from "../../common/rules";

/** Go's `unicode.IsSpace`, written out from its documentation: Latin-1's spaces, then Unicode's White_Space. */
const GO_SPACES = [
  0x09,
  0x0a,
  0x0b,
  0x0c,
  0x0d,
  0x20,
  0x85,
  0xa0,
  0x1680,
  ...Array.from({ length: 11 }, (_, i) => 0x2000 + i),
  0x2028,
  0x2029,
  0x202f,
  0x205f,
  0x3000,
];

test("every character Go calls a space is trimmed from either end, and no other", () => {
  const spaces = new Set(GO_SPACES);
  const wrong: string[] = [];
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    const want = spaces.has(c) ? "x" : `${ch}x${ch}`;
    if (
      trimSpace(`${ch}x${ch}`) !== want ||
      trimSpace(`${ch}x`) !== (spaces.has(c) ? "x" : `${ch}x`) ||
      trimSpace(`x${ch}`) !== (spaces.has(c) ? "x" : `x${ch}`)
    )
      wrong.push(c.toString(16));
  }
  expect(wrong).toEqual([]);
});

test("runs of spaces, spaces alone, inner spaces and characters beyond one UTF-16 unit", () => {
  expect(trimSpace(" \t\u3000 web \u00a0\n")).toBe("web");
  expect(trimSpace(" \u2028 ")).toBe("");
  expect(trimSpace("")).toBe("");
  expect(trimSpace("a b\tc")).toBe("a b\tc");
  expect(trimSpace(" 🚀 ")).toBe("🚀");
  expect(trimSpace("🚀")).toBe("🚀");
  // a zero-width space and a byte-order mark are not spaces in Go
  expect(trimSpace("\u200bweb\ufeff")).toBe("\u200bweb\ufeff");
});
