/** The nearest of some known words to a misspelt one, for "did you mean …" in messages. */

/** Levenshtein distance: the fewest one-character insertions, deletions and substitutions from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known word `word` is most likely a misspelling of, or undefined when none is near: within
 * a third of its length in edits (at least 2), or one a prefix of the other (`graceful_shutdown_wait`
 * for `graceful_shutdown_wait_duration`, `emulat` for `emulate`) when the shorter has 4 characters or more.
 */
export function nearest(word: string, known: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: { word: string; d: number } | undefined;
  for (const k of known) {
    const c = k.toLowerCase();
    const prefix = Math.min(w.length, c.length) >= 4 && (c.startsWith(w) || w.startsWith(c));
    const d = prefix ? 0.5 : editDistance(w, c);
    if (d <= Math.max(2, Math.floor(w.length / 3)) && (!best || d < best.d)) best = { word: k, d };
  }
  return best?.word;
}
