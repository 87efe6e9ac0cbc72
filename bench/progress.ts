/**
 * Progress of `npm run bench` on stderr (the tables go to stdout): a line as each phase starts,
 * with the time since the bench began, so minutes of measuring never look like a hang.
 */
import { performance } from "node:perf_hooks";

const started = performance.now();

/** Says what the bench is measuring now. */
export function progress(what: string): void {
  const s = Math.round((performance.now() - started) / 1000);
  process.stderr.write(`[bench ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}] ${what}\n`);
}
