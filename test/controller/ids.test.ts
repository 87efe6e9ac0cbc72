/** Target ids checked as Boundary checks them (controller/ids.ts), without a regex on every request. */
import fc from "fast-check";
import { isTargetId, newId } from "../../controller/ids";

test("isTargetId takes what /^ttcp_[0-9A-Za-z]*$/ takes", () => {
  const byRegex = (s: string) => /^ttcp_[0-9A-Za-z]*$/.test(s);
  const tail = fc.oneof(fc.string(), fc.stringMatching(/^[0-9A-Za-z]{0,12}$/), fc.constantFrom("", "_", "-", "é", "\u0660", "a b", "Z\n"));
  const id = fc.oneof(
    fc.string(),
    fc.tuple(fc.constantFrom("ttcp_", "ttcp", "tssh_", "TTCP_", ""), tail).map(([p, t]) => p + t),
  );
  fc.assert(
    fc.property(id, (s) => expect(isTargetId(s)).toBe(byRegex(s))),
    { numRuns: 5000 },
  );
  expect(isTargetId(newId("ttcp_"))).toBe(true);
});
