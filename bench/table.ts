/** How the bench prints: aligned text tables, each followed by the machine's load it was measured under. */
import { availableParallelism, loadavg } from "node:os";

/** Prints rows as an aligned text table, then the machine's load (`loadLine`). */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => "| " + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ") + " |";
  console.log(line(header));
  console.log("|" + widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|");
  for (const r of rows) console.log(line(r));
  console.log(`\n${loadLine()}`);
}

/**
 * The machine's load average as the table is printed (1, 5 and 15 minutes) against its CPUs: the
 * other work the timings above it shared the machine with (on 2 CPUs, above 2 means waiting for a core).
 */
export function loadLine(): string {
  const [one, five, fifteen] = loadavg().map((x) => x.toFixed(1));
  return `(load average ${one}, ${five}, ${fifteen} over 1, 5, 15 min, on ${availableParallelism()} CPUs)`;
}
