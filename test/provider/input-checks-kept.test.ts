/**
 * `checkInputs` keeps the failures of inputs it checked (check, then diff, create or update check
 * the same inputs again): what it answers from them must be what a first check answers, for inputs
 * JSON would write alike (NaN and null, -0 and 0, a number and its text), and no caller may change
 * what another gets.
 */
import { checkInputs } from "../../provider/resource/inputs";

type Check = typeof checkInputs;

/** `checkInputs` of a fresh copy of the module: nothing kept from earlier checks. */
function freshCheck(): Check {
  let fresh: Check | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module, with nothing kept
    fresh = (require("../../provider/resource/inputs") as { checkInputs: Check }).checkInputs;
  });
  return fresh!;
}

const base = { scopeId: "p_1234567890", name: "t" };

test("inputs written alike in JSON are each checked as a first check would", () => {
  const twins: Record<string, unknown>[] = [
    { ...base, sessionMaxSeconds: NaN },
    { ...base, sessionMaxSeconds: null },
    { ...base, sessionConnectionLimit: -0 },
    { ...base, sessionConnectionLimit: 0 },
    { ...base, sessionMaxSeconds: Infinity },
    { ...base, sessionMaxSeconds: 3600 },
    { ...base, sessionMaxSeconds: "3600" },
    { ...base, hostSetIds: ["hsst_1234567890"] },
    { ...base, hostSetIds: "hsst_1234567890" },
    { ...base, description: NaN },
    { ...base, description: null },
    { ...base, hostSetIds: [NaN] },
    { ...base, hostSetIds: [null] },
    { ...base, hostSetIds: [undefined] },
    { ...base, description: "x" },
    { ...base, description: " x " },
  ];
  // every twin checked once first, so a wrongly shared answer would be there to be found; two fresh
  // copies check them in opposite orders: a twin answered from another's failures differs in one
  for (const inputs of twins) checkInputs(inputs);
  const [forward, backward] = [freshCheck(), freshCheck()];
  const ahead = twins.map((inputs) => forward(inputs).failures);
  const behind = [...twins]
    .reverse()
    .map((inputs) => backward(inputs).failures)
    .reverse();
  twins.forEach((inputs, i) => {
    expect({ inputs, failures: checkInputs(inputs).failures }).toEqual({ inputs, failures: ahead[i] });
    expect({ inputs, failures: behind[i] }).toEqual({ inputs, failures: ahead[i] });
  });
  // JSON writes these alike, and a first check tells them apart: the comparison above can fail
  const reasons = (inputs: Record<string, unknown>) => ahead[twins.indexOf(inputs)]!.map((f) => f.reason);
  expect(JSON.stringify(twins[9])).toBe(JSON.stringify(twins[10]));
  expect(reasons(twins[9]!)).not.toEqual(reasons(twins[10]!));
  expect(JSON.stringify(twins[11])).toBe(JSON.stringify(twins[13]));
  expect(reasons(twins[11]!)).not.toEqual(reasons(twins[13]!));
});

test("a caller changing the failures it got changes nothing another gets", () => {
  const inputs = { ...base, sessionMaxSeconds: -5, nmae: "x" };
  const expected = structuredClone(checkInputs(inputs).failures);
  expect(expected.length).toBe(2);
  // the second check answers from what the first kept: the caller changes its answer as core.check does
  const second = checkInputs(inputs);
  second.failures[0]!.reason = "changed";
  second.failures.push({ property: "x", reason: "added" });
  expect(checkInputs(inputs).failures).toEqual(expected);
});

test("the inputs returned are the ones given (trimmed where Boundary trims), not those of an earlier check", () => {
  const a = { ...base, description: "same", __provider: "a" };
  const b = { ...base, description: "same", __provider: "b" };
  expect(checkInputs(a).inputs).toBe(a);
  expect(checkInputs(b).inputs).toBe(b);
  expect(checkInputs({ ...base, name: " t " }).inputs.name).toBe("t");
});
