/**
 * Boundary's filter language (HashiCorp go-bexpr), parsed once and evaluated per item.
 *
 *   "/item/name" == "web" and not ("/item/attributes/default_port" == 22)
 *   "authorize-session" in "/item/authorized_actions"
 *   item.name matches "^web" or "/item/description" is empty
 *   any item.authorized_actions as a { a == "authorize-session" }
 *
 * Selectors are JSON pointers in double quotes (`"/item/name"`) or bare paths (`item.name`,
 * `item.tags["env"]`), exactly as go-bexpr's grammar takes them: an unquoted pointer (`/item/name`),
 * a bare value that is neither a path nor a number (`10.0.0.1`, `web-1`) and other forms it refuses
 * are syntax errors here too, so a typo is a 400 instead of a filter that silently matches nothing.
 * `matches` uses RE2 (re2js), as go-bexpr uses Go's regexp: the same syntax, and linear time in the
 * text, so no pattern can make a list backtrack for seconds. A filter is at most MAX_FILTER_LENGTH
 * characters and MAX_FILTER_NESTING levels deep: the work of one evaluation is bounded.
 * Strings are unquoted as Go's strconv.Unquote does (go-bexpr's StringLiteral action), and `any`/`all`
 * collection expressions (go-bexpr v0.1.13) are taken; common/filter-eval.ts evaluates the result.
 */
import { RE2JS } from "re2js";
import { PulumiBoundaryError } from "./errors";
import type { CollectionBinding, FilterExpr, FilterOp } from "./filter-eval";
import { unquoteDouble, unquoteRaw } from "./go-quote";

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

export { FilterEvaluationError, matches, type CollectionBinding, type FilterExpr, type MissingSelector } from "./filter-eval";

/** How a filter is parsed: what a bad pattern is (see BadPattern) and how deep it may nest. */
export interface FilterOptions {
  badPattern?: BadPattern;
  /** The deepest nesting of parentheses, `not` and collections accepted (MAX_FILTER_NESTING unless given). */
  maxNesting?: number;
  /** Whether a JSON pointer's segment may hold ":" (go-bexpr from v0.1.9; true unless given): a value that is no pointer is a string. */
  pointerColon?: boolean;
}

type Selector = string[];
type Op = FilterOp;

type Token = {
  type: "str" | "word" | "num" | "op" | "lparen" | "rparen" | "punct";
  text: string;
  pos: number;
  /** The quote a string had: `"` (a value, or a JSON pointer selector) or a backtick (a value only). */
  quote?: '"' | "`";
  /** A string's value (unquoted as Go unquotes it); `text` is its body as written. */
  value?: string;
  /** A bare selector's path: `item.tags["env"].0` is item, tags, env, 0. */
  path?: string[];
};

/** go-bexpr's identifier: a letter, then letters, digits, underscores and (from v0.1.10) "/". */
const IDENTIFIER = /[A-Za-z][A-Za-z0-9_/]*/y;
/** go-bexpr's number literal; it must be followed by white space, `)` or the end. */
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?/y;
/** A JSON pointer segment's characters in go-bexpr (letters, digits and -_.~:|). */
const POINTER_SEGMENT = /^[\p{L}\p{N}\-_.~:|]+$/u;
/** A double-quoted body go-bexpr's grammar reads as a JSON pointer (a selector, or as a value its path). */
const POINTER = /^(?:\/[\p{L}\p{N}\-_.~:|]+)+$/u;
/** The same before go-bexpr v0.1.9, whose segments hold no ":". */
const POINTER_NO_COLON = /^(?:\/[\p{L}\p{N}\-_.~|]+)+$/u;

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const at = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    return re.exec(src)?.[0];
  };
  // go-bexpr's StringLiteral: a body up to the next quote of its kind, then strconv.Unquote
  const quoted = (): { text: string; value: string; quote: '"' | "`" } => {
    const c = src[i] as '"' | "`";
    const start = i;
    const close = src.indexOf(c, i + 1);
    if (close < 0) throw new FilterSyntaxError("unterminated string", start + 1);
    const text = src.slice(i + 1, close);
    i = close + 1;
    const value = c === "`" ? unquoteRaw(text) : unquoteDouble(text);
    if (value === undefined) throw new FilterSyntaxError(`invalid string ${c}${text}${c}: an escape Go does not know, or a line break`, start + 1);
    return { text, value, quote: c };
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")") {
      tokens.push({ type: c === "(" ? "lparen" : "rparen", text: c, pos: i + 1 });
      i++;
    } else if (c === "{" || c === "}" || c === "," || c === "_") {
      tokens.push({ type: "punct", text: c, pos: i + 1 });
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
          path.push(quoted().value);
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

/**
 * How a `matches` pattern RE2 cannot compile is taken: `refused` (a syntax error here, so a typo
 * is a 400), or `evaluation` as go-bexpr takes it: the filter parses (its grammar does not compile
 * patterns) and evaluating the pattern fails, which excludes the item.
 */
export type BadPattern = "refused" | "evaluation";

/**
 * Parses a filter; throws FilterSyntaxError with the position of the first error. Keywords are
 * selectors and values where go-bexpr's grammar takes them so (`not == 1`, `x == and`): its
 * ordered choices are tried in its order, backing off a choice that fails.
 */
export function parseFilter(src: string, how: BadPattern | FilterOptions = "refused"): FilterExpr {
  const { badPattern = "refused", maxNesting = MAX_FILTER_NESTING, pointerColon = true } = typeof how === "string" ? { badPattern: how } : how;
  const raw = (t: Token) => rawValue(t, pointerColon ? POINTER : POINTER_NO_COLON);
  if (src.length > MAX_FILTER_LENGTH) throw new FilterSyntaxError(`filter is longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH + 1);
  const tokens = tokenize(src);
  let p = 0;
  let depth = 0;
  const peek = () => tokens[p];
  const end = src.length + 1;
  const isWord = (t: Token | undefined, w: string) => t?.type === "word" && t.text === w;
  const isPunct = (t: Token | undefined, c: string) => t?.type === "punct" && t.text === c;
  const fail = (what: string): never => {
    const t = peek();
    throw new FilterSyntaxError(t ? `expected ${what}, found ${JSON.stringify(t.text)}` : `expected ${what}, found end of filter`, t?.pos ?? end);
  };
  // past the nesting limit no alternative is tried: the filter is refused for its depth
  const tooDeep = new WeakSet<FilterSyntaxError>();
  // an ordered choice: the first alternative that parses; when none does, the error that got farthest
  const choice = <T>(...alternatives: (() => T)[]): T => {
    const [start, startDepth] = [p, depth];
    let farthest: FilterSyntaxError | undefined;
    for (const alt of alternatives) {
      try {
        return alt();
      } catch (err) {
        if (!(err instanceof FilterSyntaxError) || tooDeep.has(err)) throw err;
        if (!farthest || err.position > farthest.position) farthest = err;
        [p, depth] = [start, startDepth];
      }
    }
    throw farthest!;
  };
  const expect = (ok: boolean, what: string) => (ok ? void p++ : fail(what));

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
    if (++depth > maxNesting) {
      const err = new FilterSyntaxError(`nested more than ${maxNesting} levels deep`, at.pos);
      tooDeep.add(err);
      throw err;
    }
    const result = inner();
    depth--;
    return result;
  };
  const parseNot = (): FilterExpr => {
    const t = peek();
    if (isWord(t, "not")) {
      const negated = (): FilterExpr => (p++, nested(t!, () => ({ kind: "not", expr: parseNot() })));
      return choice(negated, parseMatch);
    }
    if (t?.type === "lparen") {
      p++;
      const inner = nested(t, parseOr);
      expect(peek()?.type === "rparen", '")"');
      return inner;
    }
    if (isWord(t, "any") || isWord(t, "all")) return choice(parseMatch, parseCollection);
    return parseMatch();
  };
  // any|all SELECTOR as BINDING { FILTER }: v0.1.13's collection expression
  const parseCollection = (): FilterExpr => {
    const t = peek()!;
    p++;
    const sel = selector(operand("a selector"));
    expect(isWord(peek(), "as"), '"as"');
    const name = (): string => {
      const n = peek();
      if (n?.type !== "word" || n.path!.length !== 1) fail("a name");
      p++;
      return n!.text;
    };
    let binding: CollectionBinding;
    if (isPunct(peek(), "_")) {
      p++;
      expect(isPunct(peek(), ","), '","');
      binding = { value: name() };
    } else {
      const first = name();
      if (isPunct(peek(), ",")) {
        p++;
        binding = isPunct(peek(), "_") ? (p++, { index: first }) : { index: first, value: name() };
      } else binding = { default: first };
    }
    expect(isPunct(peek(), "{"), '"{"');
    const inner = nested(t, parseOr);
    expect(isPunct(peek(), "}"), '"}"');
    return { kind: t.text as "any" | "all", selector: sel, binding, inner };
  };
  const operand = (what: string): Token => {
    const t = peek();
    if (!t || (t.type !== "str" && t.type !== "word" && t.type !== "num")) fail(what);
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
      return { kind: "match", selector: selector(sel), op: negate ? "not in" : "in", value: raw(first) };
    }
    const sel = selector(first);
    if (isWord(t, "is")) {
      p++;
      const negate = isWord(peek(), "not");
      if (negate) p++;
      expect(isWord(peek(), "empty"), '"empty"');
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
    const expr: FilterExpr = { kind: "match", selector: sel, op, value: raw(value) };
    if (op === "matches" || op === "not matches") {
      try {
        expr.regex = RE2JS.compile(expr.value);
      } catch (err) {
        if (badPattern === "evaluation") return expr;
        const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, "") : String(err);
        throw new FilterSyntaxError(`invalid regular expression ${JSON.stringify(expr.value)} (${why})`, value.pos);
      }
    }
    return expr;
  };

  if (tokens.length === 0) throw new FilterSyntaxError("empty filter", 1);
  const expr = parseOr();
  if (p < tokens.length) fail('"and", "or" or the end of the filter');
  return expr;
}

/** A JSON pointer's segments, ~1 read as / and ~0 as ~ (pointerstructure.Parse). */
const segments = (body: string): string[] =>
  body
    .slice(1)
    .split("/")
    .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"));

/**
 * A value as go-bexpr's grammar reads it (MatchValue.Raw): a selector first, written back as
 * Selector.String() does (a path's parts joined by ".", a double-quoted JSON pointer's by "/",
 * without the leading "/"), then a number, then a string unquoted.
 */
function rawValue(t: Token, pointer: RegExp): string {
  if (t.type === "word") return t.path!.join(".");
  if (t.quote === '"' && pointer.test(t.text)) return segments(t.text).join("/");
  return t.value ?? t.text;
}

/**
 * A selector as go-bexpr reads one: a JSON pointer in double quotes (`"/item/name"`, ~1 for / and
 * ~0 for ~; `""` is the pointer of no segment, which names nothing) or a bare path (`item.name`,
 * `item.tags["env"]`). Anything else is refused: a bare pointer (`/item/name`) does not parse in
 * go-bexpr, and taking it for a key would match nothing.
 */
function selector(t: Token): Selector {
  if (t.type === "word") return t.path!;
  if (t.quote === '"' && t.text === "") return [""];
  if (t.quote === '"' && t.text.startsWith("/")) {
    const bad = t.text
      .slice(1)
      .split("/")
      .find((seg) => !POINTER_SEGMENT.test(seg));
    if (bad !== undefined) {
      throw new FilterSyntaxError(
        `selector ${JSON.stringify(t.text)}: a JSON pointer segment is letters, digits and -_.~:| (found ${JSON.stringify(bad)})`,
        t.pos,
      );
    }
    return segments(t.text);
  }
  if (t.quote === '"') throw new FilterSyntaxError(`selector ${JSON.stringify(t.text)} must be a JSON pointer starting with "/"`, t.pos);
  throw new FilterSyntaxError(
    `${t.quote ? `\`${t.text}\`` : t.text} is not a selector: use a JSON pointer in double quotes ("/item/name") or a path (item.name)`,
    t.pos,
  );
}
