/**
 * Boundary's filter language (HashiCorp go-bexpr), parsed once and evaluated per item.
 *
 *   "/item/name" == "web" and not ("/item/attributes/default_port" == 22)
 *   "authorize-session" in "/item/authorized_actions"
 *   item.name matches "^web" or "/item/description" is empty
 *
 * Selectors are JSON pointers in quotes (`"/item/name"`) or bare dotted paths (`item.name`).
 * `matches` uses RE2 (re2js), as go-bexpr uses Go's regexp: the same syntax, and linear time in the
 * text, so no pattern can make a list backtrack for seconds. A filter is at most MAX_FILTER_LENGTH
 * characters and MAX_FILTER_NESTING levels deep: the work of one evaluation is bounded.
 * Evaluating a selector that is missing is an error for comparisons (go-bexpr then excludes the
 * item); `is empty` treats a missing field as empty, because Boundary omits zero values on the wire
 * and a filter for "no description" should still match.
 */
import { RE2JS } from "re2js";
import { PulumiBoundaryError } from "./errors";

/** The longest filter accepted, in characters. */
export const MAX_FILTER_LENGTH = 4096;
/** The deepest nesting of parentheses and `not` accepted. */
export const MAX_FILTER_NESTING = 32;

/** A filter that does not parse; the message names the rule and the 1-based position. */
export class FilterSyntaxError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_FILTER_SYNTAX";
  constructor(
    message: string,
    /** 1-based character position in the filter. */
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

type Selector = string[];
type Op = "==" | "!=" | "matches" | "not matches" | "contains" | "not contains" | "in" | "not in" | "is empty" | "is not empty";
export type FilterExpr =
  | { kind: "and" | "or"; left: FilterExpr; right: FilterExpr }
  | { kind: "not"; expr: FilterExpr }
  | { kind: "match"; selector: Selector; op: Op; value: string; regex?: RE2JS };

type Token = { type: "str" | "word" | "op" | "lparen" | "rparen"; text: string; pos: number; quoted?: boolean };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")") {
      tokens.push({ type: c === "(" ? "lparen" : "rparen", text: c, pos: i + 1 });
      i++;
    } else if (c === '"' || c === "`") {
      const start = i++;
      let text = "";
      while (i < src.length && src[i] !== c) {
        if (c === '"' && src[i] === "\\" && i + 1 < src.length) i++;
        text += src[i++];
      }
      if (i >= src.length) throw new FilterSyntaxError("unterminated string", start + 1);
      i++;
      tokens.push({ type: "str", text, pos: start + 1, quoted: true });
    } else if (src.startsWith("==", i) || src.startsWith("!=", i)) {
      tokens.push({ type: "op", text: src.slice(i, i + 2), pos: i + 1 });
      i += 2;
    } else if (/[A-Za-z0-9_.\-+\/:]/.test(c)) {
      const start = i;
      while (i < src.length && /[A-Za-z0-9_.\-+\/:\[\]]/.test(src[i]!)) i++;
      tokens.push({ type: "word", text: src.slice(start, i), pos: start + 1 });
    } else {
      throw new FilterSyntaxError(`unexpected character ${JSON.stringify(c)}`, i + 1);
    }
  }
  return tokens;
}

const KEYWORDS = new Set(["and", "or", "not", "in", "is", "empty", "matches", "contains"]);

/** Parses a filter; throws FilterSyntaxError with the position of the first error. */
export function parseFilter(src: string): FilterExpr {
  if (src.length > MAX_FILTER_LENGTH) throw new FilterSyntaxError(`filter is longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH + 1);
  const tokens = tokenize(src);
  let p = 0;
  let depth = 0;
  const peek = () => tokens[p];
  const end = src.length + 1;
  const isWord = (t: Token | undefined, w: string) => t?.type === "word" && t.text === w;
  const fail = (what: string): never => {
    const t = peek();
    throw new FilterSyntaxError(t ? `expected ${what}, found ${JSON.stringify(t.text)}` : `expected ${what}, found end of filter`, t?.pos ?? end);
  };

  // left-associative chains: `a or b or c`, with `and` binding tighter than `or`
  const chain = (word: "and" | "or", next: () => FilterExpr) => (): FilterExpr => {
    let left = next();
    while (isWord(peek(), word)) {
      p++;
      left = { kind: word, left, right: next() };
    }
    return left;
  };
  const parseAnd = chain("and", () => parseNot());
  const parseOr = chain("or", parseAnd);
  const nested = <T>(at: Token, inner: () => T): T => {
    if (++depth > MAX_FILTER_NESTING) throw new FilterSyntaxError(`nested more than ${MAX_FILTER_NESTING} levels deep`, at.pos);
    const result = inner();
    depth--;
    return result;
  };
  const parseNot = (): FilterExpr => {
    const t = peek();
    if (isWord(t, "not")) {
      p++;
      return nested(t!, () => ({ kind: "not", expr: parseNot() }));
    }
    if (t?.type === "lparen") {
      p++;
      const inner = nested(t, parseOr);
      if (peek()?.type !== "rparen") fail('")"');
      p++;
      return inner;
    }
    return parseMatch();
  };
  const operand = (what: string): Token => {
    const t = peek();
    if (!t || (t.type !== "str" && t.type !== "word") || (t.type === "word" && KEYWORDS.has(t.text))) fail(what);
    p++;
    return t!;
  };
  const parseMatch = (): FilterExpr => {
    const first = operand("a selector or value");
    const t = peek();
    // value in selector / value not in selector
    if (isWord(t, "in") || (isWord(t, "not") && isWord(tokens[p + 1], "in"))) {
      const negate = t!.text === "not";
      p += negate ? 2 : 1;
      const sel = operand("a selector");
      return { kind: "match", selector: selector(sel), op: negate ? "not in" : "in", value: first.text };
    }
    const sel = selector(first);
    if (isWord(t, "is")) {
      p++;
      const negate = isWord(peek(), "not");
      if (negate) p++;
      if (!isWord(peek(), "empty")) fail('"empty"');
      p++;
      return { kind: "match", selector: sel, op: negate ? "is not empty" : "is empty", value: "" };
    }
    let op: Op;
    if (t?.type === "op") {
      op = t.text as Op;
      p++;
    } else if (isWord(t, "matches") || isWord(t, "contains")) {
      op = t!.text as Op;
      p++;
    } else if (isWord(t, "not") && (isWord(tokens[p + 1], "matches") || isWord(tokens[p + 1], "contains"))) {
      op = `not ${tokens[p + 1]!.text}` as Op;
      p += 2;
    } else {
      return fail("an operator (==, !=, matches, contains, in, is empty)");
    }
    const value = operand("a value");
    const expr: FilterExpr = { kind: "match", selector: sel, op, value: value.text };
    if (op === "matches" || op === "not matches") {
      try {
        expr.regex = RE2JS.compile(value.text);
      } catch (err) {
        const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, "") : String(err);
        throw new FilterSyntaxError(`invalid regular expression ${JSON.stringify(value.text)} (${why})`, value.pos);
      }
    }
    return expr;
  };

  if (tokens.length === 0) throw new FilterSyntaxError("empty filter", 1);
  const expr = parseOr();
  if (p < tokens.length) fail('"and", "or" or the end of the filter');
  return expr;
}

function selector(t: Token): Selector {
  if (t.quoted && t.text.startsWith("/")) {
    return t.text.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  }
  if (t.quoted) throw new FilterSyntaxError(`selector ${JSON.stringify(t.text)} must be a JSON pointer starting with "/"`, t.pos);
  return t.text.split(".");
}

const MISSING = Symbol("missing");

function lookup(data: unknown, sel: Selector): unknown {
  let cur: unknown = data;
  for (const key of sel) {
    if (Array.isArray(cur) && /^\d+$/.test(key)) cur = cur[Number(key)];
    else if (cur !== null && typeof cur === "object" && Object.hasOwn(cur, key)) cur = (cur as Record<string, unknown>)[key];
    else return MISSING;
    if (cur === undefined) return MISSING;
  }
  return cur;
}

/** Compares a filter's literal with a field, coercing the literal to the field's type (as go-bexpr). */
function equal(field: unknown, literal: string): boolean {
  if (typeof field === "number") return literal.trim() !== "" && Number(literal) === field;
  if (typeof field === "boolean") return String(field) === literal;
  if (typeof field === "string") return field === literal;
  throw new Error("not comparable");
}

function contains(field: unknown, literal: string): boolean {
  if (typeof field === "string") return field.includes(literal);
  if (Array.isArray(field)) return field.some((el) => el !== null && typeof el !== "object" && equal(el, literal));
  if (field !== null && typeof field === "object") return Object.hasOwn(field, literal);
  throw new Error("not a collection");
}

function evalMatch(e: Extract<FilterExpr, { kind: "match" }>, data: unknown): boolean {
  const field = lookup(data, e.selector);
  if (e.op === "is empty" || e.op === "is not empty") {
    const empty =
      field === MISSING ||
      field === null ||
      field === "" ||
      (Array.isArray(field) && field.length === 0) ||
      (typeof field === "object" && field !== null && Object.keys(field).length === 0);
    return e.op === "is empty" ? empty : !empty;
  }
  if (field === MISSING) throw new Error("missing selector");
  switch (e.op) {
    case "==":
      return equal(field, e.value);
    case "!=":
      return !equal(field, e.value);
    case "matches":
    case "not matches": {
      if (typeof field !== "string") throw new Error("matches needs a string");
      return e.regex!.matcher(field).find() === (e.op === "matches");
    }
    case "contains":
    case "in":
      return contains(field, e.value);
    case "not contains":
    case "not in":
      return !contains(field, e.value);
  }
}

function evaluate(e: FilterExpr, data: unknown): boolean {
  switch (e.kind) {
    case "and":
      return evaluate(e.left, data) && evaluate(e.right, data);
    case "or":
      return evaluate(e.left, data) || evaluate(e.right, data);
    case "not":
      return !evaluate(e.expr, data);
    case "match":
      return evalMatch(e, data);
  }
}

/** True when the item matches. An evaluation error (missing field, wrong type) excludes the item. */
export function matches(expr: FilterExpr, data: unknown): boolean {
  try {
    return evaluate(expr, data);
  } catch {
    return false;
  }
}
