/**
 * The one way to find the Targets of a scope: getTargets (`functions.ts`), the plugin's List (a
 * release that answers the whole list at once), the importer (`estate/scope.ts`) and create's
 * lookups by name all call `findTargets`. One list, followed page by page (`targetPages`), and
 * with `read` one GET per Target found, a few at a time (list items carry no id lists).
 *
 * One rule for a Target that disappears meanwhile (listed, then gone when read: deleted by someone
 * else in between): it is left out, as a list made a moment later would leave it out, and its id
 * is named in `gone`. Any other failure of a read fails the lookup.
 */
import type { Target } from "../../wire/target";
import type { ListQuery } from "./api";
import type { BoundaryClient } from "./client";
import { NotFoundError } from "./errors";

/** What to find: Boundary's list query (a scope, whether to descend, a filter). */
export type TargetQuery = Omit<ListQuery, "listToken" | "pageSize">;

/** What a lookup found. */
export interface FoundTargets {
  /** The Targets, listed, or read when `read` was asked. */
  targets: Target[];
  /** The controller's clock when the list's first page answered (its `Date` header, ms since the epoch). */
  controllerTime: number | undefined;
  /** The ids listed that were gone when read (see the module comment). */
  gone: string[];
}

/** How many reads run at once with `read`. */
const READS_AT_ONCE = 8;

/** The Targets `query` finds; with `read`, each as a read answers it (see the module comment). */
export async function findTargets(client: BoundaryClient, query: TargetQuery, { read = false }: { read?: boolean } = {}): Promise<FoundTargets> {
  const { targets: listed, controllerTime } = await client.listTargetsAnswered(query);
  if (!read) return { targets: listed, controllerTime, gone: [] };
  const targets: Target[] = [];
  const gone: string[] = [];
  for (let i = 0; i < listed.length; i += READS_AT_ONCE) {
    const batch = listed
      .slice(i, i + READS_AT_ONCE)
      .map((t) => client.getTarget(t.id).catch((err) => (err instanceof NotFoundError ? t.id : Promise.reject(err))));
    for (const got of await Promise.all(batch)) {
      if (typeof got === "string") gone.push(got);
      else targets.push(got);
    }
  }
  return { targets, controllerTime, gone };
}
