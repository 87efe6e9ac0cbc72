/**
 * A min-heap of (expiry, id): what expires first is on top, so sweeping expired entries costs
 * O(log n) each instead of a scan of everything held.
 */
export class ExpiryHeap {
  private readonly items: { at: number; id: string }[] = [];

  /** How many entries it holds. */
  get size(): number {
    return this.items.length;
  }

  /** The entry that expires first, if any. */
  peek(): { at: number; id: string } | undefined {
    return this.items[0];
  }

  /** Adds an entry expiring at `at` (ms since the epoch). */
  push(at: number, id: string): void {
    const a = this.items;
    a.push({ at, id });
    for (let i = a.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (a[parent]!.at <= a[i]!.at) break;
      [a[parent], a[i]] = [a[i]!, a[parent]!];
      i = parent;
    }
  }

  /** Removes and returns the entry that expires first. */
  pop(): { at: number; id: string } | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]!.at < a[m]!.at) m = l;
        if (r < a.length && a[r]!.at < a[m]!.at) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}
