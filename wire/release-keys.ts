/**
 * The releases' keys, read from the table's rows without resolving them (`releases.ts` does that,
 * and loads the Target's schemas with it): what a command line checks and shows in its help
 * before it loads anything that only the work needs.
 */
import { ROWS, SPEC, V04 } from "./release-rows";

/** A release the table has: `spec`, or a minor release `0.4` … `0.21`. */
export type ReleaseKey = "spec" | "0.4" | (typeof ROWS)[number]["release"];

/** The keys `--emulate` takes, in table order: the spec first (the default), then 0.4 … the newest. */
export const RELEASE_KEYS = [SPEC.release, V04.release, ...ROWS.map((r) => r.release)] as readonly ReleaseKey[];

/** The default release's key: the spec (the table's first row). */
export const DEFAULT_KEY: ReleaseKey = RELEASE_KEYS[0]!;
/** The oldest Boundary release's key (not the spec). */
export const OLDEST_KEY: ReleaseKey = RELEASE_KEYS[1]!;
/** The newest release's key. */
export const NEWEST_KEY: ReleaseKey = RELEASE_KEYS[RELEASE_KEYS.length - 1]!;
