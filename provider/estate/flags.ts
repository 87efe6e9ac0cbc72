/**
 * Command-line flags for the package's small commands (`pulumi-boundary import`, the demo): Node's
 * own parser in strict mode, its errors reworded for a user: an unknown flag names the nearest
 * known one (`--emulat` → `--emulate`), a flag missing its value says so. Never silently ignored.
 */
import { parseArgs, type ParseArgsOptionDescriptor } from "node:util";

/** A command line that cannot be run: the message names the flag and what to write instead. */
export class UsageError extends Error {}

/** The flags a command knows, as node:util's parseArgs takes them. */
export type FlagSpecs = Record<string, ParseArgsOptionDescriptor>;

/**
 * The flags of `args` (no positional argument allowed). Throws UsageError naming an unknown flag
 * and the nearest known one, a flag without its value, or an unexpected argument.
 */
export function parseFlags<T extends FlagSpecs>(args: readonly string[], options: T): ReturnType<typeof parseArgs<{ options: T; strict: true }>>["values"] {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message = (err as Error).message;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const given = /'([^']+)'/.exec(message)?.[1] ?? message;
      const flag = given.replace(/=.*$/, "");
      const near = nearest(flag.replace(/^-+/, ""), Object.keys(options));
      throw new UsageError(`unknown flag ${flag}${near ? `: did you mean --${near}?` : ""} (--help lists the flags)`);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const flag = /'(-[^ ']*)/.exec(message)?.[1]?.replace(/^-\w, /, "") ?? "a flag";
      throw new UsageError(`${flag} ${/argument missing/.test(message) ? "needs a value" : "takes no value"} (--help lists the flags)`);
    }
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      const given = /'([^']+)'/.exec(message)?.[1] ?? "";
      throw new UsageError(`unexpected argument ${JSON.stringify(given)}: every value follows its flag (--help lists the flags)`);
    }
    throw err;
  }
}

/** The known name nearest to `name` by edit distance, when it is close (within about a third of its length). */
export function nearest(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(name.toLowerCase(), k.toLowerCase());
    if (!best || d < best.d) best = { name: k, d };
  }
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}
