/**
 * A list filter go-bexpr refuses, answered in its parser's words at each release's pinned go-bexpr
 * (the `bexprGrammar` column): the real servers' `list/filter-invalid` answers (boundary-v0.4.0, v0.12,
 * v0.15.5 and v0.21.3-observed.md) asserted whole, and go-bexpr's own grammar tests' refusals
 * (grammar/grammar_test.go at v0.1.8 and v0.1.15) as the recognizer words them.
 */
import { bexprRefusal } from "../../controller/rules/bexpr-grammar";
import { release } from "../../wire/releases";
import { PROJECT, useTestController } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";

const START = '"(", "-", "0", "\\"", "`", "not", [ \\t\\r\\n], [1-9] or [a-zA-Z]';
const START_013 = '"(", "-", "0", "\\"", "`", "all", "any", "not", [ \\t\\r\\n], [1-9] or [a-zA-Z]';

describe.each(MATRIX.filter((k) => release(k).errors === "boundary"))("--emulate %s", (mode) => {
  const r = release(mode);
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });

  test("list/filter-invalid: go-bexpr's parser's own words, its expected set as the release's grammar has it", async () => {
    const res = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent("((()")}`);
    const expected = r.bexprGrammar === "v0.1.13" ? START_013 : START;
    expect([res.status, res.body]).toEqual([
      400,
      {
        kind: "InvalidArgument",
        message: "Improperly formatted identifier.",
        details: {
          request_fields: [
            {
              name: "filter",
              description:
                "This field could not be parsed. handlers.NewFilter: couldn't build filter: parameter violation: error #100: " +
                `1:4 (3): no match found, expected: ${expected}`,
            },
          ],
        },
      },
    ]);
  });
});

// go-bexpr's grammar/grammar_test.go: input, then the error its parser gave (the same at v0.1.8 and v0.1.15 unless both are given)
const REFUSED: [string, string, string?][] = [
  ['"/hy-phen/under_score/pi|pe/do.t/ti~lde/" == 3', '1:43 (42): no match found, expected: "in", "not" or [ \\t\\r\\n]'],
  ['foo == "12x', '1:12 (11): rule "string": Unterminated string literal'],
  ["foo == `12x", '1:12 (11): rule "string": Unterminated string literal'],
  ["foo == 3x", '1:9 (8): rule "number": Invalid number literal'],
  ["foo[3] == abc", '1:5 (4): rule "index": Invalid index'],
  ['x in foo["abc"', '1:15 (14): rule "index": Unclosed index expression'],
  ['foo["abc" == 3', '1:11 (10): rule "index": Unclosed index expression'],
  ["x in 32", '1:6 (5): rule "match": Invalid selector'],
  ["32 == 32", '1:4 (3): no match found, expected: "in", "not" or [ \\t\\r\\n]'],
  ["32 is empty", '1:4 (3): no match found, expected: "in", "not" or [ \\t\\r\\n]'],
  ["x in foo abc", '1:10 (9): no match found, expected: "and", "or", [ \\t\\r\\n] or EOF'],
  ["x in foo and ", `1:14 (13): no match found, expected: ${START}`],
  ["x in foo or ", `1:13 (12): no match found, expected: ${START}`, `1:13 (12): no match found, expected: ${START_013}`],
  [
    "x in foo or not ",
    '1:17 (16): no match found, expected: "!=", "(", "-", "0", "==", "\\"", "`", "contains", "in", "is", "matches", "not", [ \\t\\r\\n], [1-9] or [a-zA-Z]',
  ],
  ["(foo == 4", '1:10 (9): rule "grouping": Unmatched parentheses'],
];

describe("go-bexpr's grammar tests' refusals, worded as its parser words them", () => {
  test.each(REFUSED)("%s", (input, v018, v0115 = v018) => {
    expect([bexprRefusal(input, "v0.1.8"), bexprRefusal(input, "v0.1.13")]).toEqual([v018, v0115]);
  });

  test.each([
    ['all group.tasks as { t.name == "hello" }', '1:20 (19): no match found, expected: "_", [ \\t\\r\\n] or [a-zA-Z]'],
    ['all as t { t.name == "hello" }', '1:8 (7): no match found, expected: "as" or [ \\t\\r\\n]'],
  ])("collections (v0.1.13): %s", (input, words) => {
    expect(bexprRefusal(input, "v0.1.13")).toBe(words);
  });

  test.each(['"/item/name" == "web"', 'item.tags["env"] == "prod"', '"x" in "/item/authorized_actions" and not (item.port == 22)', "( a == 1 )"])(
    "takes %s",
    (input) => {
      expect([bexprRefusal(input, "v0.1.8"), bexprRefusal(input, "v0.1.13")]).toEqual([undefined, undefined]);
    },
  );

  test("deep nesting: judged in its words; past some 200 parentheses no words of its own, so ours answer", () => {
    expect(bexprRefusal(`${"(".repeat(30)}a == 1${")".repeat(30)}`, "v0.1.13")).toBeUndefined();
    expect(bexprRefusal("(".repeat(30), "v0.1.13")).toBe(`1:31 (30): no match found, expected: ${START_013}`);
    expect(bexprRefusal(`${"(".repeat(8)}a == 1`, "v0.1.13")).toBe('1:15 (14): rule "grouping": Unmatched parentheses');
    expect(bexprRefusal("(".repeat(2000), "v0.1.13")).toBeUndefined();
  });

  test("a selector holding '/' parses from v0.1.10 only; 'any' collections from v0.1.13", () => {
    expect(bexprRefusal("item/name == 1", "v0.1.9")).toMatch(/no match found/);
    expect(bexprRefusal("item/name == 1", "v0.1.10")).toBeUndefined();
    expect(bexprRefusal('any item.tags as t { t == "a" }', "v0.1.10")).toMatch(/no match found/);
    expect(bexprRefusal('any item.tags as t { t == "a" }', "v0.1.13")).toBeUndefined();
  });
});
