/** Work in slices (controller/slices.ts): the same results as the engine's own array methods, and a real pause. */
import fc from "fast-check";
import { atOnce, filterSteps, inSlices, inSlicesOrNow, mapSteps, sortSteps } from "../../controller/slices";

const byKey = (a: { k: number }, b: { k: number }) => a.k - b.k;

test("sortSteps sorts as Array.prototype.sort does, stably, at every length around the run sizes", () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 1500 }), (keys) => {
      const items = keys.map((k, i) => ({ k, i }));
      expect(atOnce(sortSteps(items, byKey))).toEqual([...items].sort(byKey));
    }),
    { numRuns: 200 },
  );
  for (const n of [0, 1, 255, 256, 257, 512, 513, 5000]) {
    const items = Array.from({ length: n }, (_, i) => ({ k: (i * 7919) % 101, i }));
    expect(atOnce(sortSteps(items, byKey))).toEqual([...items].sort(byKey));
  }
});

test("filterSteps and mapSteps agree with filter and map", () => {
  fc.assert(
    fc.property(fc.array(fc.integer(), { maxLength: 2000 }), (xs) => {
      expect(atOnce(filterSteps(xs, (x) => x % 3 === 0))).toEqual(xs.filter((x) => x % 3 === 0));
      expect(atOnce(mapSteps(xs, (x) => x * 2))).toEqual(xs.map((x) => x * 2));
    }),
  );
});

test("inSlices gives the event loop a turn during long work", async () => {
  let turns = 0;
  const ticking = setInterval(() => turns++, 1);
  const items = Array.from({ length: 300_000 }, (_, i) => ({ k: (i * 7919) % 100_003, i }));
  const sorted = await inSlices(sortSteps(items, byKey), 2);
  clearInterval(ticking);
  expect(sorted).toEqual([...items].sort(byKey));
  expect(turns).toBeGreaterThan(5);
});

test("inSlicesOrNow answers short work at once, without a promise, and long work in slices from where it stopped", async () => {
  const small = [3, 1, 2].map((k, i) => ({ k, i }));
  // a cached list's answer: no promise, so the request runs start to end in one turn of the loop
  expect(inSlicesOrNow(sortSteps(small, byKey))).toEqual([...small].sort(byKey));

  let turns = 0;
  const ticking = setInterval(() => turns++, 1);
  const items = Array.from({ length: 300_000 }, (_, i) => ({ k: (i * 7919) % 100_003, i }));
  const pending = inSlicesOrNow(sortSteps(items, byKey), 2);
  expect(pending).toBeInstanceOf(Promise);
  const sorted = await pending;
  clearInterval(ticking);
  expect(sorted).toEqual([...items].sort(byKey));
  expect(turns).toBeGreaterThan(5);
});
