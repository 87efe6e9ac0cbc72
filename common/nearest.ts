/**
 * "Did you mean …?": the known name a misspelt one most likely meant. One measure for every
 * suggestion the package makes (the provider's inputs and config keys, the controller's flags and
 * configuration keys, the import command's flags), so they agree on what counts as close.
 */

/**
 * The name among `known` nearest to `name`, or undefined when none is close: both compared as
 * `fold` makes them (lower case unless told), by Levenshtein distance within about a third of the
 * folded name's length (at least 2), or as one a prefix of the other when the shorter has 4
 * characters or more (`emulat` for `emulate`, `graceful_shutdown_wait` for
 * `graceful_shutdown_wait_duration`). The first of equally near names wins.
 */
export function nearestName(name: string, known: Iterable<string>, fold: (s: string) => string = (s) => s.toLowerCase()): string | undefined {
  const given = fold(name);
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const c = fold(k);
    const prefix = Math.min(given.length, c.length) >= 4 && (c.startsWith(given) || given.startsWith(c));
    const d = prefix ? 0.5 : editDistance(given, c);
    if (!best || d < best.d) best = { name: k, d };
  }
  return best && best.d <= Math.max(2, Math.floor(given.length / 3)) ? best.name : undefined;
}

/** A name without case and separators (`host_set_ids`, `HostSetIds` and `host-set-ids` are one), for `nearestName`'s `fold`. */
export function looseName(name: string): string {
  return name.toLowerCase().replace(/[_\-\s]/g, "");
}

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}
