/**
 * go-bexpr's own grammar (grammar/grammar.peg) run the way its pigeon-generated parser runs it, to
 * answer a filter it refuses in its words: `1:4 (3): no match found, expected: "(", "-", … or [a-zA-Z]`.
 *
 * common/filter.ts parses and evaluates filters; this recognizer only judges them as a release's
 * go-bexpr does and words the refusal: pigeon records, at the farthest position where a literal or a
 * character class failed, what it expected there (inverted under `!`), and reports the sorted set;
 * a `&{ … }` predicate of the grammar that fails adds its own error instead, prefixed with the rule.
 * The grammar differs by go-bexpr release (`BexprGrammar`, a column of the release table).
 */
import { unquoteDouble } from "../../common/go-quote";
import type { BexprGrammar } from "../../wire/release-facts";

type Pos = { offset: number; line: number; col: number };
type Node = (p: Parser) => boolean;

class Parser {
  readonly runes: string[];
  readonly at: Pos[];
  i = 0;
  invert = false;
  maxFail: Pos;
  expected: string[] = [];
  errors: string[] = [];
  rules: string[] = [];
  /** Set past MAX_DEPTH rules within each other (some 200 parentheses): Go's stack grows, ours does not; every rule then fails at once. */
  tooDeep = false;
  /** Each rule's result by position (and whether under `!`): the index after it, or -1 for a failure. */
  readonly memo = new Map<string, number>();
  constructor(src: string) {
    this.runes = Array.from(src);
    // pigeon's read(): col counts runes, a "\n" is at col 0 of the next line; offsets are UTF-8 bytes
    this.at = [];
    let pos: Pos = { offset: 0, line: 1, col: 0 };
    for (let k = 0; k <= this.runes.length; k++) {
      pos = { ...pos, col: pos.col + 1 };
      if (this.runes[k] === "\n") pos = { ...pos, line: pos.line + 1, col: 0 };
      this.at.push(pos);
      pos = { ...pos, offset: pos.offset + Buffer.byteLength(this.runes[k] ?? "") };
    }
    this.maxFail = this.at[0]!;
  }
  get eof(): boolean {
    return this.i >= this.runes.length;
  }
  failAt(fail: boolean, pos: Pos, want: string): void {
    if (fail !== this.invert || pos.offset < this.maxFail.offset) return;
    if (pos.offset > this.maxFail.offset) {
      this.maxFail = pos;
      this.expected = [];
    }
    this.expected.push(this.invert ? `!${want}` : want);
  }
}

const lit =
  (s: string): Node =>
  (p) => {
    const start = p.i;
    const want = JSON.stringify(s);
    for (const ch of Array.from(s)) {
      if (p.runes[p.i] !== ch) {
        p.failAt(false, p.at[start]!, want);
        p.i = start;
        return false;
      }
      p.i++;
    }
    p.failAt(true, p.at[start]!, want);
    return true;
  };
const cls =
  (val: string, re: RegExp): Node =>
  (p) => {
    const start = p.i;
    const ok = !p.eof && re.test(p.runes[p.i]!);
    if (ok) p.i++;
    p.failAt(ok, p.at[start]!, val);
    return ok;
  };
const any: Node = (p) => {
  const start = p.i;
  if (!p.eof) p.i++;
  p.failAt(start < p.i, p.at[start]!, ".");
  return start < p.i;
};
const seq =
  (...nodes: Node[]): Node =>
  (p) => {
    const start = p.i;
    for (const n of nodes) {
      if (!n(p)) {
        p.i = start;
        return false;
      }
    }
    return true;
  };
const choice =
  (...nodes: Node[]): Node =>
  (p) =>
    nodes.some((n) => n(p));
const opt =
  (n: Node): Node =>
  (p) => (n(p), true);
const star =
  (n: Node): Node =>
  (p) => {
    while (n(p));
    return true;
  };
const plus = (n: Node): Node => seq(n, star(n));
const not =
  (n: Node): Node =>
  (p) => {
    const start = p.i;
    p.invert = !p.invert;
    const ok = n(p);
    p.invert = !p.invert;
    p.i = start;
    return !ok;
  };
const and =
  (n: Node): Node =>
  (p) => {
    const start = p.i;
    const ok = n(p);
    p.i = start;
    return ok;
  };
/** A `&{ return false, errors.New(message) }` predicate: an error at the position, named by the innermost rule. */
const refuse =
  (message: string): Node =>
  (p) => {
    const { line, col, offset } = p.at[p.i]!;
    p.errors.push(`${line}:${col} (${offset}): rule ${p.rules.at(-1)}: ${message}`);
    return false;
  };
/**
 * The StringLiteral action's strconv.Unquote: a double-quoted string Go cannot unquote (`"\q"`, a
 * line break) still parses, and its action's error fails the filter, named by the rule, at the quote.
 */
const unquoted =
  (n: Node): Node =>
  (p) => {
    const start = p.i;
    if (!n(p)) return false;
    const body = p.runes.slice(start + 1, p.i - 1).join("");
    if (p.runes[start] === '"' && unquoteDouble(body) === undefined) {
      const { line, col, offset } = p.at[start]!;
      p.errors.push(`${line}:${col} (${offset}): rule ${p.rules.at(-1)}: invalid syntax`);
    }
    return true;
  };
const MAX_DEPTH = 1000;
let rules = 0;
/**
 * A rule; `name` is its display name in quotes when the grammar gives one (`"grouping"`), as pigeon
 * prefixes errors. Its result at a position is kept (pigeon re-parses, but what a second parse
 * records is what the first recorded: the farthest failure only grows and its set, like the
 * errors, holds each once), so nesting costs rules × positions, not pigeon's backtracking.
 */
const rule = (name: string, body: () => Node): Node => {
  let node: Node | undefined;
  const id = rules++;
  return (p) => {
    const key = `${id}:${p.i}:${p.invert ? 1 : 0}`;
    const known = p.memo.get(key);
    if (known !== undefined) {
      if (known >= 0) p.i = known;
      return known >= 0;
    }
    if (p.tooDeep) return false;
    if (p.rules.push(name) > MAX_DEPTH) {
      p.tooDeep = true;
      return false;
    }
    const ok = (node ??= body())(p);
    p.rules.pop();
    p.memo.set(key, ok ? p.i : -1);
    return ok;
  };
};

const grammars = new Map<BexprGrammar, Node>();

function grammar(g: BexprGrammar): Node {
  const collections = g === "v0.1.13";
  const pointerClass = g === "v0.1.8" ? ["[\\pL\\pN-_.~|]", /[\p{L}\p{N}\-_.~|]/u] : ["[\\pL\\pN-_.~:|]", /[\p{L}\p{N}\-_.~:|]/u];
  const identClass = g === "v0.1.8" || g === "v0.1.9" ? ["[a-zA-Z0-9_]", /[a-zA-Z0-9_]/] : ["[a-zA-Z0-9_/]", /[a-zA-Z0-9_/]/];
  const ws = rule('"whitespace"', () => plus(cls("[ \\t\\r\\n]", /[ \t\r\n]/)));
  const _o = opt(ws);
  const EOF = rule("EOF", () => not(any));
  const Identifier = rule("Identifier", () => seq(cls("[a-zA-Z]", /[a-zA-Z]/), star(cls(identClass[0] as string, identClass[1] as RegExp))));
  const RawStringChar = rule("RawStringChar", () => seq(not(lit("`")), any));
  const DoubleStringChar = rule("DoubleStringChar", () => seq(not(lit('"')), any));
  const StringLiteral = rule('"string"', () =>
    choice(
      unquoted(choice(seq(lit("`"), star(RawStringChar), lit("`")), seq(lit('"'), star(DoubleStringChar), lit('"')))),
      seq(choice(seq(lit("`"), star(RawStringChar)), seq(lit('"'), star(DoubleStringChar))), EOF, refuse("Unterminated string literal")),
    ),
  );
  const IndexExpression = rule('"index"', () =>
    choice(
      seq(lit("["), _o, StringLiteral, _o, lit("]")),
      seq(lit("["), _o, not(StringLiteral), refuse("Invalid index")),
      seq(lit("["), _o, StringLiteral, _o, not(lit("]")), refuse("Unclosed index expression")),
    ),
  );
  const SelectorOrIndex = rule("SelectorOrIndex", () => choice(seq(lit("."), Identifier), IndexExpression, seq(lit("."), plus(cls("[0-9]", /[0-9]/)))));
  const JsonPointerSegment = rule("JsonPointerSegment", () => seq(lit("/"), plus(cls(pointerClass[0] as string, pointerClass[1] as RegExp))));
  const Selector = rule('"selector"', () => choice(seq(Identifier, star(SelectorOrIndex)), seq(lit('"'), star(JsonPointerSegment), lit('"'))));
  const IntegerOrFloat = rule("IntegerOrFloat", () =>
    seq(choice(lit("0"), seq(cls("[1-9]", /[1-9]/), star(cls("[0-9]", /[0-9]/)))), opt(seq(lit("."), plus(cls("[0-9]", /[0-9]/))))),
  );
  const AfterNumbers = rule("AfterNumbers", () => and(choice(ws, EOF, lit(")"))));
  const NumberLiteral = rule('"number"', () =>
    choice(seq(opt(lit("-")), IntegerOrFloat, and(AfterNumbers)), seq(opt(lit("-")), IntegerOrFloat, not(AfterNumbers), refuse("Invalid number literal"))),
  );
  const Value = rule('"value"', () => choice(Selector, NumberLiteral, StringLiteral));
  const op = (name: string, ...words: string[]) => rule(name, () => seq(...words.flatMap((w) => [ws, lit(w)]), ws));
  const MatchEqual = rule("MatchEqual", () => seq(_o, lit("=="), _o));
  const MatchNotEqual = rule("MatchNotEqual", () => seq(_o, lit("!="), _o));
  const MatchIsEmpty = rule("MatchIsEmpty", () => seq(ws, lit("is"), ws, lit("empty")));
  const MatchIsNotEmpty = rule("MatchIsNotEmpty", () => seq(ws, lit("is"), ws, lit("not"), ws, lit("empty")));
  const inOps = choice(op("MatchIn", "in"), op("MatchNotIn", "not", "in"));
  const MatchSelectorOpValue = rule('"match"', () =>
    seq(
      Selector,
      choice(
        MatchEqual,
        MatchNotEqual,
        op("MatchContains", "contains"),
        op("MatchNotContains", "not", "contains"),
        op("MatchMatches", "matches"),
        op("MatchNotMatches", "not", "matches"),
      ),
      Value,
    ),
  );
  const MatchSelectorOp = rule('"match"', () => seq(Selector, choice(MatchIsEmpty, MatchIsNotEmpty)));
  const MatchValueOpSelector = rule('"match"', () => choice(seq(Value, inOps, Selector), seq(Value, inOps, not(Selector), refuse("Invalid selector"))));
  const MatchExpression = rule('"match"', () => choice(MatchSelectorOpValue, MatchSelectorOp, MatchValueOpSelector));
  const Parenthesized: Node = rule('"grouping"', () =>
    choice(seq(lit("("), _o, Or, _o, lit(")")), MatchExpression, seq(lit("("), _o, Or, _o, not(lit(")")), refuse("Unmatched parentheses"))),
  );
  const Not: Node = rule("NotExpression", () => choice(seq(lit("not"), ws, Not), Parenthesized));
  const And: Node = rule("AndExpression", () => choice(seq(Not, ws, lit("and"), ws, And), Not));
  const CollectionIdentifiers = rule('"collection-identifiers"', () =>
    choice(seq(Identifier, _o, lit(","), _o, Identifier), seq(Identifier, _o, lit(","), _o, lit("_")), seq(lit("_"), _o, lit(","), _o, Identifier), Identifier),
  );
  const Collection = rule("CollectionExpression", () =>
    seq(
      choice(
        rule("CollectionOpAny", () => seq(lit("any"), ws)),
        rule("CollectionOpAll", () => seq(lit("all"), ws)),
      ),
      Selector,
      ws,
      lit("as"),
      ws,
      CollectionIdentifiers,
      _o,
      lit("{"),
      _o,
      Or,
      _o,
      lit("}"),
    ),
  );
  const Or: Node = rule("OrExpression", () => choice(seq(And, ws, lit("or"), ws, Or), And, ...(collections ? [Collection] : [])));
  return rule("Input", () => choice(seq(_o, lit("("), _o, Or, _o, lit(")"), _o, EOF), seq(_o, Or, _o, EOF)));
}

/**
 * go-bexpr's `Parse` error for a filter the grammar `g` refuses, in its words; undefined when it parses,
 * or when it nests deeper than MAX_DEPTH rules (common/filter.ts refuses it in its own words).
 */
export function bexprRefusal(src: string, g: BexprGrammar): string | undefined {
  const p = new Parser(src);
  let start = grammars.get(g);
  if (!start) grammars.set(g, (start = grammar(g)));
  const ok = start(p);
  if (p.tooDeep) return undefined;
  const errors = [...new Set(p.errors)];
  if (errors.length > 0) return errors.join("\n");
  if (ok) return undefined;
  const set = new Set(p.expected);
  const eof = set.delete("!.");
  const expected = [...set].sort();
  if (eof) expected.push("EOF");
  const words = expected.length > 1 ? `${expected.slice(0, -1).join(", ")} or ${expected.at(-1)}` : (expected[0] ?? "");
  const { line, col, offset } = p.maxFail;
  return `${line}:${col} (${offset}): no match found, expected: ${words}`;
}
