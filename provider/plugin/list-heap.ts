/**
 * The plugin's memory while `pulumi do … list --all` pages through a large estate. Each page is a
 * 620 KB answer (1,000 Targets): its text, the buffers it arrived in and the Targets parsed from it
 * are garbage once the page is streamed, but V8 leaves most of it to the next full collection, and
 * with pages coming back to back that comes late: the plugin's resident memory rose 1.5× between a
 * tenth of a List of 100,000 and its peak (docs/numbers.md). Two causes, measured with the heap's
 * spaces sampled at each collection:
 * - the young generation doubles (32 → 64 → 128 MiB) as the bytes that survive scavenges add up,
 *   and never gives the pages back while the plugin runs;
 * - a page alive when a scavenge comes is promoted, and its text and buffers (large objects and
 *   external memory) wait in the old generation until V8's limit, which it sets at several times
 *   what is live: 90 MiB of dead pages at a time.
 * Pulumi's Node language host gives a plugin no Node or V8 flags (PulumiPlugin.yaml's `nodeargs`
 * go after run-plugin's script, as the script's own arguments), so the plugin sets what it needs
 * itself, at start-up: the young generation stays at the size start-up left it, and after a List
 * call whose pages grew the heap by STEP_BYTES since the last collection, one full collection.
 */
import * as v8 from "node:v8";
import { runInNewContext } from "node:vm";

/** Heap growth (used heap plus external memory) after which a List call ends with a full collection. */
export const STEP_BYTES = 32 * 1024 * 1024;

/**
 * Stops V8 growing the young generation from here on (its pages stay at the size start-up left
 * them). V8 reads the growth factor each time it would grow the semi-spaces, so setting it after
 * start-up holds. Only the plugin's own process calls this: importing the package changes nothing.
 */
export function holdYoungGeneration(): void {
  v8.setFlagsFromString("--semi-space-growth-factor=1");
}

/** V8's full collection, obtained once without `--expose-gc` on the command line (which the language host cannot pass). */
export function fullCollector(): () => void {
  v8.setFlagsFromString("--expose-gc");
  try {
    // a new context is made with the flags of the moment: its global `gc` is V8's collector
    const gc = runInNewContext("gc") as (options?: { type: "major" }) => void;
    return () => gc({ type: "major" });
  } finally {
    // later contexts (none in the plugin) get no `gc`
    v8.setFlagsFromString("--no-expose-gc");
  }
}

/** What the heap holds now: used heap plus external memory (the pages' buffers live outside the heap). */
export function heapBytes(): number {
  const h = v8.getHeapStatistics();
  return h.used_heap_size + h.external_memory;
}

/**
 * Decides, after each List call, whether to collect: when the heap has grown by `step` since the
 * last collection (or since it was made). `measure` and `collect` are the effects (V8's figures and
 * collector in the plugin; counters in tests).
 */
export class ListHeap {
  private base: number;
  /** Full collections run so far. */
  collections = 0;

  /** `measure`: the heap's bytes now; `collect`: a full collection; `step`: the growth that asks for one. */
  constructor(
    private readonly measure: () => number,
    private readonly collect: () => void,
    private readonly step: number = STEP_BYTES,
  ) {
    this.base = measure();
  }

  /** A List call has streamed its page: collect if the pages since the last collection grew the heap by a step. */
  afterPage(): void {
    if (this.measure() - this.base <= this.step) return;
    this.collect();
    this.collections++;
    this.base = this.measure();
  }
}
