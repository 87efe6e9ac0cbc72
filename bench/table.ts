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

/** A number as a table cell shows it: digits with thousands commas, an optional sign, decimals and a `%` or `×` after. */
const NUMBER = /^(-?[\d,]*\.?\d+)([%×]?)$/;

/**
 * Runs a bench that prints one table `reps` times and merges its tables cell by cell: a number that
 * moves between runs becomes `median (min–max)` with the decimals the bench gave it (a ratio
 * stays each run's own ratio, both sides measured in the same run); a cell the same in every run
 * stays as it is; any other cell that differs lists each run's, separated by " / ".
 */
export async function medianOfRuns(reps: number, bench: () => Promise<string[][]> | string[][]): Promise<string[][]> {
  const runs: string[][][] = [];
  for (let r = 0; r < reps; r++) runs.push(await bench());
  return runs[0]!.map((row, i) => row.map((_, j) => mergeCells(runs.map((t) => t[i]?.[j] ?? ""))));
}

/** One cell of several runs of a table (see `medianOfRuns`). */
export function mergeCells(cells: string[]): string {
  if (cells.every((c) => c === cells[0])) return cells[0]!;
  const parsed = cells.map((c) => NUMBER.exec(c.trim()));
  if (!parsed.every((m) => m && m[2] === parsed[0]![2])) return cells.join(" / ");
  const unit = parsed[0]![2]!;
  const digits = Math.max(...parsed.map((m) => (m![1]!.split(".")[1] ?? "").length));
  const comma = cells.some((c) => c.includes(","));
  const values = parsed.map((m) => Number(m![1]!.replace(/,/g, ""))).sort((a, b) => a - b);
  const show = (x: number) => (comma ? x.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : x.toFixed(digits)) + unit;
  return `${show(values[Math.floor(values.length / 2)]!)} (${show(values[0]!)}–${show(values[values.length - 1]!)})`;
}
