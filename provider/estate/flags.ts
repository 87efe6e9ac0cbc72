/**
 * Command-line flags for the package's small commands (`pulumi-boundary import`, the demo): Node's
 * own parser in strict mode, its errors reworded for a user: an unknown flag names the nearest
 * known one (`--emulat` → `--emulate`), a flag missing its value says so. Never silently ignored.
 */
import { parseArgs, type ParseArgsOptionDescriptor } from "node:util";
import { nearestName } from "../../common/nearest";
import { UsageError } from "./errors";

export { UsageError } from "./errors";

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
      const near = nearestName(flag.replace(/^-+/, ""), Object.keys(options));
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
