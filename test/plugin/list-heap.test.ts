/**
 * The plugin's memory over a long List (provider/plugin/list-heap.ts): when a List call ends with a
 * full collection, and that the collector obtained without `--expose-gc` is V8's own. The resident
 * memory over 100 pages is the bench's (`node --expose-gc dist/bench/scope-list.js`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ListHeap, STEP_BYTES, fullCollector, heapBytes } from "../../provider/plugin/list-heap";

test("a List call ends with a full collection only once the pages since the last one grew the heap by a step", () => {
  let heap = 100;
  const collected: number[] = [];
  const h = new ListHeap(
    () => heap,
    () => {
      collected.push(heap);
      heap = 110; // what the collection left live
    },
    50,
  );
  for (const grown of [120, 150]) {
    heap = grown;
    h.afterPage();
  }
  expect(collected).toEqual([]); // 50 above where it started: not more than a step
  heap = 151;
  h.afterPage();
  expect(collected).toEqual([151]);
  // the next step counts from what the collection left, not from where the heap started
  heap = 160;
  h.afterPage();
  heap = 161;
  h.afterPage();
  expect(collected).toEqual([151, 161]);
  expect(h.collections).toBe(2);
});

test("the step is a few pages of 620 KB, not every page", () => {
  expect(STEP_BYTES).toBeGreaterThan(10 * 620 * 1024);
});

test("the collector frees garbage the heap still counts, without --expose-gc, and gives later contexts no gc", () => {
  // in a process of its own, started as the language host starts a plugin: no V8 flag on its command line
  const script = `
    const { fullCollector, heapBytes } = require(${JSON.stringify(path.join(__dirname, "..", "..", "dist", "provider", "plugin", "list-heap.js"))});
    if (typeof globalThis.gc !== "undefined") throw new Error("gc exposed from the start");
    const collect = fullCollector();
    let garbage = [];
    for (let i = 0; i < 200; i++) garbage.push(Buffer.alloc(256 * 1024, 1).toString("latin1"));
    garbage = undefined;
    const before = heapBytes();
    collect();
    const after = heapBytes();
    const later = require("node:vm").runInNewContext("typeof gc");
    process.stdout.write(JSON.stringify({ before, after, later }));
  `;
  // a module file, not \`-e\`: code given to -e keeps its top-level values alive
  const dir = mkdtempSync(path.join(tmpdir(), "pb-list-heap-"));
  const file = path.join(dir, "collect.js");
  writeFileSync(file, script);
  const run = spawnSync(process.execPath, [file], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  rmSync(dir, { recursive: true, force: true });
  expect(run.stderr).toBe("");
  const { before, after, later } = JSON.parse(run.stdout) as { before: number; after: number; later: string };
  expect(before - after).toBeGreaterThan(40 * 1024 * 1024); // most of the 50 MiB of dead strings
  expect(later).toBe("undefined");
});

test("in this process too (as the plugin calls it), the collector runs and the heap figure is V8's", () => {
  const collect = fullCollector();
  expect(() => collect()).not.toThrow();
  expect(heapBytes()).toBeGreaterThan(0);
});
