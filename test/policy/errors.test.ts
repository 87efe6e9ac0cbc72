/**
 * The policies' error catalogue (policy/errors.ts), held to the rules test/common/errors.test.ts
 * holds the others to: a fixed code and name, `instanceof` across two loaded copies (the pack's and
 * a team's own), no error class defined elsewhere in policy/, and no plain Error thrown there.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
type Copy = { policy: typeof import("../../policy/errors"); common: typeof import("../../common/errors") };
const load = (): Copy => {
  let copy = {} as Copy;
  jest.isolateModules(() => {
    copy = { policy: jest.requireActual(path.join(ROOT, "policy/errors")), common: jest.requireActual(path.join(ROOT, "common/errors")) };
  });
  return copy;
};
const a = load();
const b = load();

test("PolicySettingError: its code, name and message, and instanceof across two copies, for it and its ancestor", () => {
  const err = new a.policy.PolicySettingError("boundary-target-connection-limit: the setting maxConnections is 0");
  expect([err.name, err.code, err.message]).toEqual([
    "PolicySettingError",
    "BOUNDARY_POLICY_SETTING",
    "boundary-target-connection-limit: the setting maxConnections is 0",
  ]);
  expect(a.policy.PolicySettingError).not.toBe(b.policy.PolicySettingError);
  for (const copy of [a, b]) {
    expect(err).toBeInstanceOf(copy.policy.PolicySettingError);
    expect(err).toBeInstanceOf(copy.common.PulumiBoundaryError);
  }
  expect(new b.common.PulumiBoundaryError("x")).not.toBeInstanceOf(a.policy.PolicySettingError);
});

test("policy/ defines no error class outside its catalogue and throws no plain Error", () => {
  const sources = fs.readdirSync(path.join(ROOT, "policy")).filter((f) => f.endsWith(".ts"));
  const text = (f: string) => fs.readFileSync(path.join(ROOT, "policy", f), "utf8");
  const defined = sources.flatMap((f) => [...text(f).matchAll(/class (\w+) extends (\w*Error)\b/g)].map((m) => m[1]!));
  expect(defined).toEqual(Object.keys(a.policy));
  expect(sources.filter((f) => /\bnew Error\(/.test(text(f)))).toEqual([]);
});
