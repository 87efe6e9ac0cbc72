/** The chunked sorted id set against a plain sorted array, through random adds and deletes. */
import fc from "fast-check";
import { SortedIds } from "../../controller/store/sorted-ids";

test("adds and deletes in any order keep every id, sorted, once", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 5000 })), { maxLength: 6000 }), (ops) => {
      const ids = new SortedIds();
      const model = new Set<string>();
      for (const [add, n] of ops) {
        const id = `ttcp_${n.toString(36).padStart(4, "0")}`;
        if (add && !model.has(id)) {
          ids.add(id);
          model.add(id);
        } else if (!add) {
          ids.delete(id);
          model.delete(id);
        }
      }
      expect(ids.toArray()).toEqual([...model].sort());
      expect(ids.size).toBe(model.size);
    }),
    { numRuns: 30 },
  );
});
