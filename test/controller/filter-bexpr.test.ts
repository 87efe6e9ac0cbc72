/**
 * List filters go-bexpr takes, matched as it matches them, on every Boundary row of the matrix through
 * the real controller over HTTP: `any`/`all` collections (v0.1.13, from 0.15), identifiers holding "/"
 * (v0.1.10, from 0.6), keywords where its grammar reads them as selectors or values, a double-quoted
 * JSON pointer as a value (its Raw: the path without its leading "/"), strings unquoted as Go unquotes
 * them, a key missing from a map answered by the operator (v0.1.12, from 0.13) and nesting deeper
 * than our own limit. What the release's go-bexpr refuses is answered in its parser's words.
 * Sources: go-bexpr grammar/grammar.peg, grammar/ast.go and evaluate.go at each pinned version.
 */
import { release } from "../../wire/releases";
import { PROJECT, useTestController } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";

const refused = (words: string) => ({
  kind: "InvalidArgument",
  message: "Improperly formatted identifier.",
  details: {
    request_fields: [
      { name: "filter", description: `This field could not be parsed. handlers.NewFilter: couldn't build filter: parameter violation: error #100: ${words}` },
    ],
  },
});

describe.each(MATRIX.filter((k) => release(k).errors === "boundary"))("--emulate %s: filters as go-bexpr reads them", (mode) => {
  const g = release(mode).bexprGrammar;
  const collections = g === "v0.1.13";
  const slashes = g !== "v0.1.8" && g !== "v0.1.9";
  const byOperator = g === "v0.1.12" || g === "v0.1.13";
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  beforeAll(async () => {
    await c.create({ name: "web-1", attributes: { default_port: 22 } });
    await c.create({ name: "web", attributes: { default_port: 2222 } });
    await c.create({ name: "not", attributes: { default_port: 22 } });
    await c.create({ name: "a/b", attributes: { default_port: 22 } });
    await c.create({ name: "a:b", attributes: { default_port: 22 } });
    await c.create({ name: "/a:b", attributes: { default_port: 22 } });
  });
  /** The names a filtered list answers, or the whole refusal. */
  const list = async (filter: string) => {
    const res = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent(filter)}`);
    if (res.status !== 200) return [res.status, res.body];
    return [200, ((res.body.items ?? []) as { name: string }[]).map((t) => t.name).sort()];
  };
  const ALL = [200, ["/a:b", "a/b", "a:b", "not", "web", "web-1"]];

  test("any/all over a map (the key, or the value's path) and over a list (the element's path, its index)", async () => {
    const filters: [string, unknown][] = [
      ["any item.attributes as k, v { v == 2222 }", [200, ["web"]]],
      ["all item.attributes as _, v { v == 22 }", [200, ["/a:b", "a/b", "a:b", "not", "web-1"]]],
      ['any item.attributes as k { k == "default_port" }', ALL],
      ['any "/item/authorized_actions" as a { a == "authorize-session" }', ALL],
      ['(all item.authorized_actions as i, _ { i != 1000 }) and "/item/name" == "web"', [200, ["web"]]],
      ['any item.authorized_actions as a { any item.attributes as k { k == "default_port" and a == "read" } }', ALL],
      ['all item.authorized_actions as a { a == "read" }', [200, []]],
      // the same name for index and value is evaluate.go's error: every item is excluded
      ["any item.authorized_actions as x, x { x == 0 }", [200, []]],
      // a value that is no list or map is an error too
      ['any "/item/name" as n { n == "web" }', [200, []]],
    ];
    for (const [filter, answer] of filters) {
      if (collections) expect([filter, await list(filter)]).toEqual([filter, answer]);
      else expect([filter, (await list(filter))[0]]).toEqual([filter, 400]);
    }
    // `and` after a collection is past what its grammar takes (a CollectionExpression is an OrExpression's last choice)
    expect((await list('all item.authorized_actions as i, _ { i != 1000 } and "/item/name" == "web"'))[0]).toBe(400);
    if (!collections)
      expect(await list('any item.attributes as k { k == "default_port" }')).toEqual([
        400,
        refused('1:5 (4): no match found, expected: "!=", "==", "contains", "in", "is", "matches", "not" or [ \\t\\r\\n]'),
      ]);
  });

  test('an identifier holding "/" (v0.1.10): one key of the item, which no item has; as a value, the text', async () => {
    if (slashes) {
      expect(await list('item/name == "web"')).toEqual([200, []]);
      expect(await list('not item/name == "web"')).toEqual([200, []]);
      expect(await list('"/item/name" == a/b')).toEqual([200, ["a/b"]]);
    } else {
      expect(await list('item/name == "web"')).toEqual([400, refused('1:5 (4): no match found, expected: "!=", ".", "==", "[", [ \\t\\r\\n] or [a-zA-Z0-9_]')]);
    }
  });

  test("values as its grammar reads them: a JSON pointer's path, a selector's path, a keyword, Go's escapes", async () => {
    expect(await list('"/item/name" == "/web"')).toEqual([200, ["web"]]);
    expect(await list('"/item/name" == "/a~1b"')).toEqual([200, ["a/b"]]);
    // v0.1.8's pointer segments hold no ":": there "/a:b" is a string, not the path a:b
    expect(await list('"/item/name" == "/a:b"')).toEqual([200, [g === "v0.1.8" ? "/a:b" : "a:b"]]);
    expect(await list('"/item/name" == web')).toEqual([200, ["web"]]);
    expect(await list('"/item/name" == not')).toEqual([200, ["not"]]);
    expect(await list('"/item/name" == "web\\x2d1"')).toEqual([200, ["web-1"]]);
    expect(await list('"/item/name" == "web\\u002d1" or "/item/name" == `a/b`')).toEqual([200, ["a/b", "web-1"]]);
    expect(await list('"/item/name" == "\\q"')).toEqual([400, refused('1:17 (16): rule "string": invalid syntax')]);
    // a quote after a backslash still ends the string: what follows does not parse
    expect((await list('"/item/name" == "a\\"b"'))[0]).toBe(400);
  });

  test("a key missing from a map: excluded up to v0.1.10, the operator's answer from v0.1.12", async () => {
    expect(await list('"/item/attributes/nokey" != "x"')).toEqual(byOperator ? ALL : [200, []]);
    expect(await list('not "/item/attributes/nokey" == "x"')).toEqual(byOperator ? ALL : [200, []]);
    expect(await list('"x" not in "/item/attributes/nokey" and "/item/name" == "web"')).toEqual(byOperator ? [200, ["web"]] : [200, []]);
    // under no map (a top-level key) it is an error on every release
    expect(await list('"/nokey" != "x"')).toEqual([200, []]);
  });

  test("nesting deeper than our own limit of 32, as go-bexpr takes it", async () => {
    expect(await list(`${"(".repeat(60)}"/item/name" == "web"${")".repeat(60)}`)).toEqual([200, ["web"]]);
    expect(await list(`${"not ".repeat(41)}"/item/name" == "web"`)).toEqual([200, ["/a:b", "a/b", "a:b", "not", "web-1"]]);
  });
});
