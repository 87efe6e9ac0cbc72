/**
 * `checkInputs` takes inputs whose every field passes a plain test derived from the field table
 * (`inputsPass`) without zod: that test must say yes exactly when the inputs' zod schema takes the
 * values without an issue, over every field and many values of every kind (valid, of another kind,
 * outside a rule, ids of other kinds, unknown keys, pairs of fields), or a failure would go unsaid.
 */
import { TargetInputs } from "../../provider/resource/input-schema";
import { UNKNOWN, checkInputs, inputsPass } from "../../provider/resource/inputs";
import { INPUT_FIELDS } from "../../wire/target-fields";

const Partial = TargetInputs.partial();
const base = { scopeId: "p_1234567890", name: "web", description: "v1" };

/** Values of every kind the engine can hand over, and edges of the fields' rules. */
const VALUES: unknown[] = [
  "",
  " ",
  "x",
  "web",
  " padded ",
  "a".repeat(129),
  "a".repeat(4000),
  "line\nbreak",
  "tab\there",
  "p_1234567890",
  "o_1234567890",
  "hsst_1234567890",
  "hsst_",
  "clvlt_1234567890",
  "clvsclt_1234567890",
  "credup_1234567890",
  "credspk_1234567890",
  "tcp",
  "ssh",
  "rdp",
  "TCP",
  "127.0.0.1",
  "::1",
  "[::1]",
  "host.example.com",
  "http://x",
  '"/item/name" == "x"',
  '"dev" in "/tags/type"',
  "((",
  UNKNOWN,
  0,
  -1,
  1,
  22,
  65535,
  65536,
  28800,
  2 ** 31,
  -(2 ** 31),
  1.5,
  NaN,
  Infinity,
  -0,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  false,
  null,
  {},
  [],
  ["hsst_1234567890"],
  ["hsst_1234567890", "hsst_1234567890"],
  ["clvlt_1234567890", "credup_1234567890"],
  ["x"],
  [""],
  [1],
  [null],
  [UNKNOWN],
  [["hsst_1234567890"]],
];

/** Each case: the plain test and zod agree. */
function agree(inputs: Record<string, unknown>): boolean {
  const plain = inputsPass(inputs);
  const zod = Partial.safeParse(inputs).success;
  if (plain !== zod) throw new Error(`inputsPass ${plain}, zod ${zod}: ${JSON.stringify(inputs)}`);
  return plain;
}

test("the plain test of the inputs says yes exactly when their zod schema takes them, field by field", () => {
  const verdicts: boolean[] = [agree(base), agree({})];
  for (const field of INPUT_FIELDS) for (const value of VALUES) verdicts.push(agree({ ...base, [field]: value }));
  // both answers occur for every field: the comparison above can fail either way
  for (const field of INPUT_FIELDS) {
    const mine = VALUES.map((value) => inputsPass({ ...base, [field]: value }));
    expect({ field, some: mine.some(Boolean), notAll: !mine.every(Boolean) }).toEqual({ field, some: true, notAll: true });
  }
  expect(verdicts.filter(Boolean).length).toBeGreaterThan(INPUT_FIELDS.length);
});

test("pairs of fields, unknown keys and keys of the object prototype", () => {
  // a deterministic walk over pairs: each field with each other, a value of each kind
  let i = 0;
  for (const a of INPUT_FIELDS)
    for (const b of INPUT_FIELDS) {
      if (a === b) continue;
      agree({ ...base, [a]: VALUES[i++ % VALUES.length], [b]: VALUES[(i * 7) % VALUES.length] });
    }
  expect(agree({ ...base, nmae: "x" })).toBe(false);
  expect(agree({ ...base, toString: "x" })).toBe(false);
  expect(agree({ ...base, constructor: "x" })).toBe(false);
  expect(agree({ ...base, hasOwnProperty: "x" })).toBe(false);
});

test("checkInputs words what the plain test refuses as zod does, and finds nothing in what it takes", () => {
  expect(checkInputs({ ...base, sessionMaxSeconds: 3600 }).failures).toEqual([]);
  expect(checkInputs({ ...base, sessionMaxSeconds: 1.5 }).failures.map((f) => f.property)).toEqual(["sessionMaxSeconds"]);
  expect(checkInputs({ ...base, hostSetIds: ["x"] }).failures.map((f) => f.property)).toEqual(["hostSetIds[0]"]);
});
