/**
 * Finds the Targets of a live scope through the provider's own client: the same settings
 * (BOUNDARY_ADDR, BOUNDARY_TOKEN, …), every release's list (v0.4's single answer, 0.15's pages and
 * list tokens), and the same pacing under Boundary's rate limits. It only reads, through the client's
 * `findTargets`: one list (page by page), and with `read` one GET per Target (lists carry no
 * association ids); a Target deleted between the list and its read is left out, as getTargets leaves it, and named
 * in the summary.
 */
import { filterProblem } from "../../common/rules";
import type { Target } from "../../wire/target";
import { BoundaryApiError, BoundaryClient, UnexpectedAnswerError, findTargets, type BoundaryClientOptions } from "../client";
import { refusal, said } from "./refusal";
import { inputsFromState, stateFromTarget } from "../resource/state";
import { ImportInputError, type Discovery, type FoundTarget, type Skipped } from "./discovery";
import { ordered } from "./terraform";

/** What to list: Boundary's list query. */
export interface ScopeQuery {
  scopeId: string;
  recursive: boolean;
  filter?: string;
  /** Also read each Target for its inputs (a generated program needs them; the bulk-import file does not). */
  read: boolean;
}

/**
 * The Targets of `q.scopeId` (with `recursive`, of every project below it). Throws ImportInputError
 * for a malformed scope id or filter (before any call), a scope that does not exist, a token that is
 * refused or lacks the list grant, or a filter the controller refuses.
 */
export async function discoverScope(q: ScopeQuery, options: BoundaryClientOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Discovery> {
  if (!/^(global|[op]_[0-9A-Za-z]+)$/.test(q.scopeId)) {
    throw new ImportInputError(`--scope ${JSON.stringify(q.scopeId)}: not a scope id: give "global", an org (o_…) or a project (p_…) id`);
  }
  const why = q.filter === undefined ? undefined : filterProblem(q.filter);
  if (why) throw new ImportInputError(`--filter: ${why}: write Boundary's filter language, e.g. '"/item/name" matches "^web"'`);
  if (!q.recursive && !q.scopeId.startsWith("p_")) {
    // Targets live in projects: Boundary refuses a list of global or an org that is not recursive
    throw new ImportInputError(
      `--scope ${q.scopeId}: Targets live in projects: add --recursive to list every project below ` +
        `${q.scopeId === "global" ? "global" : "that org"}, or give a project id (p_…)`,
    );
  }
  const client = new BoundaryClient(options, env);
  try {
    let listed: Target[];
    let gone: string[];
    try {
      ({ targets: listed, gone } = await findTargets(client, { scopeId: q.scopeId, recursive: q.recursive, filter: q.filter }, { read: q.read }));
    } catch (err) {
      throw listFailure(q, err);
    }
    // listed, then gone when read: named, as --live names a Target the controller no longer has
    const skipped: Skipped[] = gone.map((id) => ({
      what: id,
      why: "listed, then gone when read (deleted meanwhile): left out; run again to see the scope as it is now",
    }));
    // a project's names are unique, so one project's Targets are named by name alone
    const qualify = q.recursive || !q.scopeId.startsWith("p_");
    const targets: FoundTarget[] = [];
    for (const t of listed) {
      const projectId = t.scope_id ?? t.scope?.id ?? "";
      const project = t.scope?.name || projectId;
      const found: FoundTarget = { id: t.id, source: `${projectId}/${t.name ?? t.id}`, projectId, nameParts: [...(qualify ? [project] : []), t.name ?? ""] };
      if (q.read) found.inputs = ordered(inputsFromState(stateFromTarget(t, []), true));
      targets.push(found);
    }
    if (targets.length === 0) {
      // what an empty answer can mean depends on the query: say only what applies
      const why = q.recursive
        ? "Boundary answers a recursive list without the grant with an empty list"
        : "Boundary leaves out of a project's list each Target the token has no grant on";
      const filtered = q.filter ? ", or --filter matches none of them" : "";
      const deleted = gone.length ? `; ${gone.length} listed were deleted before they could be read (${gone.join(", ")})` : "";
      throw new ImportInputError(
        `--scope ${q.scopeId}${q.recursive ? " --recursive" : ""}${q.filter ? " --filter" : ""}: no Target found${deleted}. ` +
          `Either there is none to import${filtered}, ` +
          `or the token may not list them (${why}): ` +
          `check the token's grants (list and read on targets${q.recursive ? " in every project below the scope" : ""})`,
      );
    }
    return {
      origin: `scope ${q.scopeId}${q.recursive ? " (recursive)" : ""}${q.filter ? ` filtered by ${q.filter}` : ""}`,
      targets,
      skipped,
      unexpressed: [],
    };
  } finally {
    await client.close();
  }
}

/** A list's failure as the input it is about and what to do; anything else is passed on. */
function listFailure(q: ScopeQuery, err: unknown): Error {
  // a read's failure (with `read`) is passed on as it is: only the list's answer is about the scope
  if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError || !/^\/v1\/targets(\?|$)/.test(err.path)) return err as Error;
  const refused = refusal(
    err,
    (said) => `--scope ${q.scopeId}: the token may not list Targets there ${said}: use a token whose role grants list and read on targets in that scope`,
  );
  if (refused) return refused;
  if (err.status === 404)
    return new ImportInputError(`--scope ${q.scopeId}: no such scope ${said(err)}: give an existing scope id (\`boundary scopes list -recursive\` lists them)`);
  if (err.status === 400 && q.filter !== undefined) {
    return new ImportInputError(
      `--filter ${JSON.stringify(q.filter)}: refused ${said(err)}: write Boundary's filter language, e.g. '"/item/name" matches "^web"'`,
    );
  }
  return err;
}
