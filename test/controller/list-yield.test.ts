/**
 * A list of 100,000 Targets never holds the event loop: filtering, sorting and writing run in
 * slices, so `/health` (same process, same loop) is answered within 100 ms throughout. The measure
 * is the controller thread's longest stretch of CPU between two turns of its loop, taken inside the
 * controller's own process (helpers/loaded-controller.ts), so load from other processes on the
 * machine cannot fail it; /health is asked throughout as well, and must answer 200 each time.
 */
import type { Emulation } from "../../controller";
import { ADMIN_TOKEN } from "../helpers/controller";
import { startLoadedController } from "../helpers/loaded-controller";

const TARGETS = 100_000;
const MAX_BLOCK_MS = 100;

describe.each([
  ["spec", "", 50_000_000], // one answer of ~60 MB
  ["0.21", '"/item/name" matches "-1"', 500_000], // a page of 1,000 out of ~50,000 that match, filtered and sorted
] as [Emulation, string, number][])("--emulate %s, a recursive list of 100,000 %j", (emulation, filter, atLeast) => {
  test(`the controller's loop is never held ${MAX_BLOCK_MS} ms, and /health answers throughout`, async () => {
    const c = await startLoadedController(emulation, TARGETS);
    try {
      const query = new URLSearchParams({ scope_id: "global", recursive: "true", ...(filter ? { filter } : {}) });
      await c.reset();
      // the first list renders every item, the second is answered from the render cache (and on 0.21 the kept order)
      for (let round = 0; round < 2; round++) {
        let listing = true;
        const list = fetch(`${c.apiUrl}/v1/targets?${query}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
          .then(async (res) => ({ status: res.status, bytes: (await res.arrayBuffer()).byteLength }))
          .finally(() => (listing = false));
        const health: number[] = [];
        while (listing) {
          health.push((await fetch(`${c.opsUrl}/health`)).status);
          await new Promise((r) => setTimeout(r, 10));
        }
        const { status, bytes } = await list;
        expect(status).toBe(200);
        expect(bytes).toBeGreaterThan(atLeast);
        // the first list filters, sorts and renders all of it; a second page of 0.21 comes from the order and filter
        // kept with the unchanged estate (controller/derived.ts), too quick for /health to be asked more than once
        if (round === 0 || !emulation.startsWith("0.")) expect(health.length).toBeGreaterThan(3);
        else expect(health.length).toBeGreaterThan(0);
        expect(health.every((s) => s === 200)).toBe(true);
      }
      const longest = await c.longestBlockMs();
      expect(longest).toBeLessThan(MAX_BLOCK_MS);
    } finally {
      await c.stop();
    }
  }, 60_000);
});
