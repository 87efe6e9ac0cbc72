/** Boundary's filter language (go-bexpr), without HTTP: parsing, each operator, precedence, errors. */
import { performance } from "node:perf_hooks";
import { FilterSyntaxError, matches, parseFilter } from "../../common/filter";

const item = {
  item: {
    name: "web-1",
    description: "",
    version: 3,
    authorized_actions: ["read", "authorize-session"],
    attributes: { default_port: 22 },
    tags: { env: ["prod"] },
  },
};
const run = (f: string, data: unknown = item) => matches(parseFilter(f), data);

describe("operators", () => {
  test.each([
    ['"/item/name" == "web-1"', true],
    ['"/item/name" == "web-2"', false],
    ['"/item/name" != "web-2"', true],
    ['"/item/version" == 3', true],
    ['"/item/version" == "3"', true],
    ['"/item/attributes/default_port" == 22', true],
    ['"/item/name" matches "^web-\\\\d$"', true],
    ['"/item/name" not matches "^db"', true],
    ['"/item/name" contains "eb"', true],
    ['"/item/name" not contains "db"', true],
    ['"authorize-session" in "/item/authorized_actions"', true],
    ['"delete" in "/item/authorized_actions"', false],
    ['"delete" not in "/item/authorized_actions"', true],
    ['"env" in "/item/tags"', true],
    ['"prod" in "/item/tags/env"', true],
    ['"/item/description" is empty', true],
    ['"/item/worker_filter" is empty', true],
    ['"/item/name" is not empty', true],
    ['item.name == "web-1"', true],
    ["item.attributes.default_port == 22", true],
    ['item.tags["env"] contains prod', true],
    ['"prod" in item.tags[ `env` ]', true],
    ["item.authorized_actions.1 == `authorize-session`", true],
    ['"/item/version" == -3', false],
    ['"/item/tags/env/0" == "prod"', true],
  ])("%s → %s", (filter, expected) => expect(run(filter)).toBe(expected));
});

describe("combining", () => {
  test("and binds tighter than or; not and parentheses", () => {
    expect(run('"/item/name" == "x" or "/item/version" == 3 and "/item/name" == "web-1"')).toBe(true);
    expect(run('("/item/name" == "x" or "/item/version" == 3) and "/item/name" == "y"')).toBe(false);
    expect(run('not "/item/name" == "x"')).toBe(true);
    expect(run('not ("/item/name" == "web-1" and "/item/version" == 3)')).toBe(false);
  });

  test("an item on which evaluation errors is excluded, even under or (as go-bexpr)", () => {
    expect(run('"/item/missing" == "x" or "/item/name" == "web-1"')).toBe(false);
    expect(run('"/item/version" matches "3"')).toBe(false);
  });
});

describe("syntax errors name the rule and the position", () => {
  test.each([
    ["", "empty filter at position 1"],
    ['"/item/name" ==', "expected a value, found end of filter at position 16"],
    ['"/item/name" = "x"', 'unexpected character "=" at position 14'],
    ['"/item/name', "unterminated string at position 1"],
    ['("/item/name" == "x"', 'expected ")", found end of filter at position 21'],
    ['"/item/name" == "x" "y"', 'expected "and", "or" or the end of the filter, found "y" at position 21'],
    ['"/item/name" matches "("', 'invalid regular expression "(" (missing closing ): `(`) at position 22'],
    ['"/item/name" matches "(?=web)"', 'invalid regular expression "(?=web)" (invalid or unsupported Perl syntax: `(?=`) at position 22'],
    ['"/item/name" matches "a{1001}"', 'invalid regular expression "a{1001}" (invalid repeat count: `{1001}`) at position 22'],
    ["(".repeat(1000) + '"/item/name" == "x"' + ")".repeat(1000), "nested more than 32 levels deep at position 33"],
    ["(".repeat(2000), "nested more than 32 levels deep at position 33"],
    ["not ".repeat(40) + '"/item/name" == "x"', "nested more than 32 levels deep at position 129"],
    ['"/item/name" == "' + "x".repeat(5000) + '"', "filter is longer than 4096 characters at position 4097"],
    ['"item/name" == "x"', 'selector "item/name" must be a JSON pointer starting with "/" at position 1'],
    ['"/item/name" is full', 'expected "empty", found "full" at position 17'],
  ])("%#: %s", (filter, message) => {
    let err: unknown;
    try {
      parseFilter(filter);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FilterSyntaxError);
    expect((err as Error).message).toBe(message);
  });
});

test("matches runs in linear time (RE2): a pattern that backtracks for seconds in JavaScript answers at once", () => {
  const long = { item: { created_time: "2026-11-22T12:18:18.247Z".repeat(200) } };
  const started = performance.now();
  expect(run('"/item/created_time" matches "^(.*)*(.*)*!$"', long)).toBe(false);
  expect(performance.now() - started).toBeLessThan(1000); // JavaScript's RegExp: far beyond a minute
});

test("32 levels of nesting are accepted", () => {
  expect(run("(".repeat(32) + '"/item/name" == "web-1"' + ")".repeat(32))).toBe(true);
});

/**
 * What go-bexpr's grammar refuses is a 400, not a filter that silently matches nothing: a JSON
 * pointer is a selector only in double quotes, a bare selector is identifiers (a letter, then
 * letters, digits, _) joined by "." with .N and ["key"] indexes, a bare value is such a path or a
 * number literal.
 */
describe("go-bexpr's grammar: what it refuses is refused", () => {
  test.each([
    ['/item/name == "web"', 'selector /item/name must be quoted: "/item/name" at position 1'],
    ['"web" in /item/authorized_actions', 'selector /item/authorized_actions must be quoted: "/item/authorized_actions" at position 10'],
    ['`/item/name` == "web"', '`/item/name` is not a selector: use a JSON pointer in double quotes ("/item/name") or a path (item.name) at position 1'],
    ['"/item//name" == "web"', 'selector "/item//name": a JSON pointer segment is letters, digits and -_.~:| (found "") at position 1'],
    ['"/" is empty', 'selector "/": a JSON pointer segment is letters, digits and -_.~:| (found "") at position 1'],
    ['"/item/my name" == "x"', 'selector "/item/my name": a JSON pointer segment is letters, digits and -_.~:| (found "my name") at position 1'],
    ["item.name == web-1", 'expected "and", "or" or the end of the filter, found "-1" at position 17'],
    ['"/item/address" == 10.0.0.1', 'invalid value "10.0.0.1": quote it, as "…" at position 20'],
    ["item.default-port == 22", 'invalid value "-port": quote it, as "…" at position 13'],
    ['item. == "x"', 'expected an identifier or an index after "." at position 6'],
    ['item.tags[env] == "x"', 'an index is a quoted key, as ["env"] at position 10'],
    ['item.tags["env" == "x"', 'expected "]" at position 17'],
    ['1abc == "x"', 'invalid value "1abc": quote it, as "…" at position 1'],
    ['22 == "x"', '22 is not a selector: use a JSON pointer in double quotes ("/item/name") or a path (item.name) at position 1'],
  ])("%s", (filter, message) => {
    expect(() => parseFilter(filter)).toThrow(new FilterSyntaxError(message.replace(/ at position \d+$/, ""), Number(/(\d+)$/.exec(message)![1])));
  });
});

test("JSON pointer escapes: ~1 is / and ~0 is ~", () => {
  expect(run('"/a~1b/c~0d" == "x"', { "a/b": { "c~d": "x" } })).toBe(true);
});
