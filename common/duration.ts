/**
 * Go's duration syntax ("500ms", "1m30s", "2h"), which Boundary uses in its config file and in
 * BOUNDARY_CLIENT_TIMEOUT; a bare integer means seconds. Shared by the controller and the client.
 */
import { InvalidDurationError } from "./errors";

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or an InvalidDurationError naming `key` and the value. */
export function parseDuration(key: string, value: string | number): number {
  if (typeof value === "number" || /^\d+$/.test(value)) {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidDurationError(`${key}: invalid duration ${JSON.stringify(value)}: must not be negative`);
    return n * 1000;
  }
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    matched = re.lastIndex;
  }
  if (value === "" || matched !== value.length) {
    throw new InvalidDurationError(
      `${key}: invalid duration ${JSON.stringify(value)}: use Go syntax such as "500ms", "10s", "1m30s", or a whole number of seconds`,
    );
  }
  return Math.round(total);
}
