/**
 * The releases the per-release suites run against, and how a test speaks to each, both from the
 * release table (`wire/releases.ts`): no suite keeps a table of modes of its own.
 *
 * `npm test` runs the matrix below; `npm run test:releases` sets PB_RELEASES=all and runs every
 * row of the table (PB_RELEASES may also list releases: `PB_RELEASES=0.9,0.13`).
 */
import { RELEASE_KEYS, knows, listIn, release, requires, type ListField, type Release, type ReleaseKey } from "../../wire/releases";

/** The releases `npm test` covers: the spec, and the releases where the API changed most. */
export const DEFAULT_MATRIX: readonly ReleaseKey[] = ["spec", "0.4", "0.8", "0.10", "0.12", "0.14", "0.15", "0.21"];

/** The releases this run covers (PB_RELEASES: `all`, or a comma-separated list). */
export const MATRIX: readonly ReleaseKey[] = (() => {
  const asked = process.env.PB_RELEASES;
  if (!asked) return DEFAULT_MATRIX;
  if (asked === "all") return RELEASE_KEYS;
  const keys = asked.split(",").map((k) => k.trim()) as ReleaseKey[];
  for (const k of keys) if (!RELEASE_KEYS.includes(k)) throw new Error(`PB_RELEASES: ${k} is not a release of the table (${RELEASE_KEYS.join(", ")})`);
  return keys;
})();

/** How a test changes one list on a release: the newest action it routes and the field that action reads. */
export interface ListSpeech {
  noun: string;
  field: string;
  /** Every name the release's views carry the list under. */
  answers: readonly string[];
}

/** The newest route a release has for a list (the one current clients use), and the last name it reads. */
export function speech(r: Release, field: ListField): ListSpeech | undefined {
  const list = listIn(r, field);
  const route = list?.routes[list.routes.length - 1];
  return list && route && { noun: route.noun, field: route.reads[route.reads.length - 1]!, answers: list.answers };
}

/** What a test needs of a release, all from its row. */
export function facts(key: ReleaseKey) {
  const r = release(key);
  return {
    r,
    hosts: speech(r, "hostSetIds")!,
    creds: speech(r, "applicationCredentialLibraryIds")!,
    injected: speech(r, "injectedApplicationCredentialSourceIds"),
    /** The worker filter a new Target takes: the egress filter where the legacy one was replaced. */
    filter: knows(r, "egressWorkerFilter") ? "egress_worker_filter" : "worker_filter",
    /** A create body's required fields beyond the spec's. */
    required: requires(r, "defaultPort") ? { attributes: { default_port: 22 } } : {},
    connectionLimit: (r.defaults.sessionConnectionLimit as number | undefined) ?? -1,
    /** A stale PATCH, and a stale action. */
    stale: r.errors === "ours" ? { update: [409, "Aborted"], action: [409, "Aborted"] } : { update: [404, "NotFound"], action: [500, "Internal"] },
    /** An attached id added again, or an id of another project. */
    mistake: r.errors === "ours" ? [400, "InvalidArgument"] : [500, "Internal"],
  } as const;
}
