/**
 * Boundary's filter language (HashiCorp go-bexpr), parsed once and evaluated per item.
 *
 *   "/item/name" == "web" and not ("/item/attributes/default_port" == 22)
 *   "authorize-session" in "/item/authorized_actions"
 *   item.name matches "^web" or "/item/description" is empty
 *
 * Selectors are JSON pointers in double quotes (`"/item/name"`) or bare paths (`item.name`,
 * `item.tags["env"]`), exactly as go-bexpr's grammar takes them: an unquoted pointer (`/item/name`),
 * a bare value that is neither a path nor a number (`10.0.0.1`, `web-1`) and other forms it refuses
 * are syntax errors here too, so a typo is a 400 instead of a filter that silently matches nothing.
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
  /** `message` names the rule broken; the error's message ends with "at position N". */
  constructor(
    message: string,
    /** 1-based character position in the filter. */
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

/**
 * An item the filter cannot be evaluated on (a missing selector, a value of another type): the item
 * does not match, as go-bexpr excludes it. Caught by `matches`; never reaches a caller.
 */
export class FilterEvaluationError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_FILTER_EVALUATION";
}

type Selector = string[];
type Op = "==" | "!=" | "matches" | "not matches" | "contains" | "not contains" | "in" | "not in" | "is empty" | "is not empty";
/**
 * A parsed filter: `and`/`or` of two filters, `not` of one, or one match of a selector against a value with
 * an operator (`regex` is the compiled pattern of `matches` and `not matches`, compiled once at parse time).
 */
export type FilterExpr =
  | { kind: "and" | "or"; left: FilterExpr; right: FilterExpr }
  | { kind: "not"; expr: FilterExpr }
  | { kind: "match"; selector: Selector; op: Op; value: string; regex?: RE2JS };

type Token = {
  type: "str" | "word" | "num" | "op" | "lparen" | "rparen";
  text: string;
  pos: number;
  /** The quote a string had: `"` (a value, or a JSON pointer selector) or a backtick (a value only). */
  quote?: '"' | "`";
  /** A bare selector's path: `item.tags["env"].0` is item, tags, env, 0. */
  path?: string[];
};

/** go-bexpr's identifier: a letter, then letters, digits and underscores. */
const IDENTIFIER = /[A-Za-z][A-Za-z0-9_]*/y;
/** go-bexpr's number literal; it must be followed by white space, `)` or the end. */
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?/y;
/** A JSON pointer segment's characters in go-bexpr (letters, digits and -_.~:|). */
const POINTER_SEGMENT = /^[\p{L}\p{N}\-_.~:|]+$/u;

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const at = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    return re.exec(src)?.[0];
  };
  const quoted = (): { text: string; quote: '"' | "`" } => {
    const c = src[i] as '"' | "`";
    const start = i++;
    let text = "";
    while (i < src.length && src[i] !== c) {
      if (c === '"' && src[i] === "\\" && i + 1 < src.length) i++;
      text += src[i++];
    }
    if (i >= src.length) throw new FilterSyntaxError("unterminated string", start + 1);
    i++;
    return { text, quote: c };
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")") {
      tokens.push({ type: c === "(" ? "lparen" : "rparen", text: c, pos: i + 1 });
      i++;
    } else if (c === '"' || c === "`") {
      const pos = i + 1;
      tokens.push({ type: "str", pos, ...quoted() });
    } else if (src.startsWith("==", i) || src.startsWith("!=", i)) {
      tokens.push({ type: "op", text: src.slice(i, i + 2), pos: i + 1 });
      i += 2;
    } else if (/[A-Za-z]/.test(c)) {
      // a bare selector (or a keyword): identifiers joined by ".", with .N and ["key"] indexes
      const start = i;
      const path = [at(IDENTIFIER)!];
      i += path[0]!.length;
      for (;;) {
        const ident = src[i] === "." ? ((i++, at(IDENTIFIER)) ?? at(/[0-9]+/y)) : undefined;
        if (ident !== undefined) {
          path.push(ident);
          i += ident.length;
        } else if (src[i - 1] === ".") {
          throw new FilterSyntaxError('expected an identifier or an index after "."', i + 1);
        } else if (src[i] === "[") {
          const open = i++;
          while (/\s/.test(src[i] ?? "")) i++;
          if (src[i] !== '"' && src[i] !== "`") throw new FilterSyntaxError('an index is a quoted key, as ["env"]', open + 1);
          path.push(quoted().text);
          while (/\s/.test(src[i] ?? "")) i++;
          if (src[i] !== "]") throw new FilterSyntaxError('expected "]"', i + 1);
          i++;
        } else break;
      }
      tokens.push({ type: "word", text: src.slice(start, i), pos: start + 1, path });
    } else if (/[-0-9]/.test(c)) {
      const n = at(NUMBER);
      const end = i + (n?.length ?? 0);
      if (n === undefined || (end < src.length && !/[\s)]/.test(src[end]!))) {
        throw new FilterSyntaxError(`invalid value ${JSON.stringify(src.slice(i).split(/[\s)]/)[0])}: quote it, as "…"`, i + 1);
      }
      tokens.push({ type: "num", text: n, pos: i + 1 });
      i = end;
    } else if (c === "/") {
      const word = src.slice(i).split(/[\s)]/)[0]!;
      throw new FilterSyntaxError(`selector ${word} must be quoted: ${JSON.stringify(word)}`, i + 1);
    } else {
      throw new FilterSyntaxError(`unexpected character ${JSON.stringify(c)}`, i + 1);
    }
  }
  return tokens;
}

const KEYWORDS = new Set(["and", "or", "not", "in", "is", "empty", "matches", "contains"]);

/**
 * How a `matches` pattern RE2 cannot compile is taken: `refused` (a syntax error here, so a typo
 * is a 400), or `evaluation` as go-bexpr takes it: the filter parses (its grammar does not compile
 * patterns) and evaluating the pattern fails, which excludes the item.
 */
export type BadPattern = "refused" | "evaluation";

/** Parses a filter; throws FilterSyntaxError with the position of the first error. */
export function parseFilter(src: string, badPattern: BadPattern = "refused"): FilterExpr {
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
    if (!t || (t.type !== "str" && t.type !== "word" && t.type !== "num") || (t.type === "word" && KEYWORDS.has(t.text))) fail(what);
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
        if (badPattern === "evaluation") return expr;
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

/**
 * A selector as go-bexpr reads one: a JSON pointer in double quotes (`"/item/name"`, ~1 for / and
 * ~0 for ~) or a bare path (`item.name`, `item.tags["env"]`). Anything else is refused: a bare
 * pointer (`/item/name`) does not parse in go-bexpr, and taking it for a key would match nothing.
 */
function selector(t: Token): Selector {
  if (t.type === "word") return t.path!;
  if (t.quote === '"' && t.text.startsWith("/")) {
    const segments = t.text.slice(1).split("/");
    const bad = segments.find((seg) => !POINTER_SEGMENT.test(seg));
    if (bad !== undefined) {
      throw new FilterSyntaxError(
        `selector ${JSON.stringify(t.text)}: a JSON pointer segment is letters, digits and -_.~:| (found ${JSON.stringify(bad)})`,
        t.pos,
      );
    }
    return segments.map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"));
  }
  if (t.quote === '"') throw new FilterSyntaxError(`selector ${JSON.stringify(t.text)} must be a JSON pointer starting with "/"`, t.pos);
  throw new FilterSyntaxError(
    `${t.quote ? `\`${t.text}\`` : t.text} is not a selector: use a JSON pointer in double quotes ("/item/name") or a path (item.name)`,
    t.pos,
  );
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
  throw new FilterEvaluationError("not comparable");
}

function contains(field: unknown, literal: string): boolean {
  if (typeof field === "string") return field.includes(literal);
  if (Array.isArray(field)) return field.some((el) => el !== null && typeof el !== "object" && equal(el, literal));
  if (field !== null && typeof field === "object") return Object.hasOwn(field, literal);
  throw new FilterEvaluationError("not a collection");
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
  if (field === MISSING) throw new FilterEvaluationError("missing selector");
  switch (e.op) {
    case "==":
      return equal(field, e.value);
    case "!=":
      return !equal(field, e.value);
    case "matches":
    case "not matches": {
      if (typeof field !== "string") throw new FilterEvaluationError("matches needs a string");
      if (!e.regex) throw new FilterEvaluationError("the pattern does not compile");
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
