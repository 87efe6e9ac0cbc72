/** The figures a bench prints of several runs: the median, with the smallest and largest. */

/** The median, smallest and largest of `xs` (the upper median of an even count). */
export function spread(xs: number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! };
}

/** `median (min–max)` of `xs`, each with `digits` decimals; the one figure alone when there is one run. */
export function medianRange(xs: number[], digits: number): string {
  const v = spread(xs);
  return xs.length > 1 ? `${v.median.toFixed(digits)} (${v.min.toFixed(digits)}–${v.max.toFixed(digits)})` : v.median.toFixed(digits);
}
