/**
 * What a client has learned about its controller, as the release table (`wire/releases.ts`) lets
 * it: which releases it may be. It starts from the configured ones (`BOUNDARY_API_GENERATION`, or
 * every release) and narrows with every answer (`releasesAnswering`: a view's keys), a 405 (an
 * action the controller does not route) and the probes. Shared by every view of a client (one per
 * operation), so what one operation learns the next one knows. The knowledge does no I/O: the
 * client feeds it, and the two probes here ask through the client's `send`.
 */
import { RELEASES, generationRouting, releasesAnswering, routesNoun, type ListRoute, type Release } from "../../wire/releases";
import type { Target } from "../../wire/target";
import * as api from "./api";
import type { WireCall } from "./api";
import { BoundaryApiError, UnexpectedAnswerError } from "./errors";
import type { ApiGeneration } from "./settings";

/** The releases a configured generation means: v0.4's API (the spec's and 0.4), or the current actions' (0.5 and later); all when unset. */
export function configuredReleases(generation: ApiGeneration | undefined): readonly Release[] {
  return generation ? RELEASES.filter((r) => r.generation === generation) : RELEASES;
}

/** The releases one controller may be, narrowed as its answers come (see the module comment). */
export class ControllerKnowledge {
  /** The releases it may be, oldest first. */
  releases: readonly Release[];
  /** Whether v0.4's `:add-host-sets` route is gone (Boundary 0.11 and later), once asked. */
  hostSetActionsGone: boolean | undefined = undefined;
  /** Whether it takes an IPv6 address in brackets (0.12.0–0.19.2) or only without (0.19.3+), once a refusal told (`address-spelling.ts`). */
  ipv6Brackets: boolean | undefined = undefined;

  /** Knowledge starting from `configured`, what the configuration says the controller is. */
  constructor(readonly configured: readonly Release[]) {
    this.releases = configured;
  }

  /** The controller's API generation, when every release it may be shares one (undefined until known). */
  get generation(): ApiGeneration | undefined {
    const generations = new Set(this.releases.map((r) => r.generation));
    return generations.size === 1 ? [...generations][0] : undefined;
  }

  /** Keeps the releases that agree with what was seen (unless none does: then what was seen tells nothing new). */
  narrow(agrees: (r: Release) => boolean): void {
    const rest = this.releases.filter(agrees);
    if (rest.length > 0) this.releases = rest;
  }

  /**
   * A 405 to the action `noun`: the controller does not route it. Rules out the releases that do,
   * and says whether any release is left to try another action on (false: the 405 stands).
   */
  notRouted(noun: ListRoute["noun"]): boolean {
    const rest = this.releases.filter((r) => !routesNoun(r, noun));
    if (rest.length === 0) return false;
    this.releases = rest;
    return true;
  }

  /**
   * Learns from a Target the controller returned which releases could have answered it; an answer
   * no release it may be gives means it changed (an upgrade): then start again from the configured ones.
   */
  learn(t: Target): Target {
    // what an answer tells is its keys and authorized actions: the same shape again, on the releases
    // it left, tells nothing new (every answer of a run usually has one shape; this runs on each)
    const keys = Object.keys(t);
    const actions: readonly unknown[] = Array.isArray(t.authorized_actions) ? t.authorized_actions : [];
    const last = this.learnt;
    if (last && this.releases === last.releases && sameItems(keys, last.keys) && sameItems(actions, last.actions)) return t;
    const narrowed = releasesAnswering(t, this.releases);
    if (narrowed.length > 0) this.releases = narrowed;
    else {
      const again = releasesAnswering(t, this.configured);
      if (again.length > 0) this.releases = again;
    }
    this.learnt = { keys, actions: [...actions], releases: this.releases };
    return t;
  }

  /** The shape of the last answer learnt from (its keys and authorized actions), and the releases it left. */
  private learnt: { keys: readonly string[]; actions: readonly unknown[]; releases: readonly Release[] } | undefined;
}

/** The same items in the same order (compared in place: this runs on every answer). */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Ids no controller makes (Boundary's ids are random base62): what the probes name. */
const PROBE_TARGET_ID = "ttcp_0000000000";
const PROBE_HOST_SET_ID = "hsst_0000000000";

/** How a probe sends its call: the client's `send`. */
type Send = (call: WireCall<Target>) => Promise<Target>;

/**
 * The controller's API generation: configured, learned from answers so far, or else asked once
 * with a call that changes nothing: an add of host sources to a Target id that cannot exist.
 * v0.4 controllers have no such action (405, before looking at anything); 0.5 and later look for
 * the Target and answer 404 (or 400/403).
 */
export async function probeGeneration(knowledge: ControllerKnowledge, send: Send): Promise<ApiGeneration> {
  if (knowledge.generation) return knowledge.generation;
  let routed = true;
  try {
    await send(api.targetAction(PROBE_TARGET_ID, "add", "host-sources", { version: 1, host_source_ids: [PROBE_HOST_SET_ID] }));
  } catch (err) {
    // a stranger's answer (a proxy's page, a path the controller does not serve) tells nothing
    if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError) throw err;
    routed = err.status !== 405;
  }
  knowledge.narrow((r) => routesNoun(r, "host-sources") === routed);
  return knowledge.generation ?? generationRouting(routed);
}

/**
 * Whether v0.4's host-set actions are gone from this controller (Boundary 0.11 removed them),
 * asked once with a call that changes nothing: an add of host sets to a Target id that cannot
 * exist. Only a 405 (the route is gone, answered before anything is looked at) says yes; an answer
 * from the action itself (404, 400, 403) says no; anything else leaves it unknown (undefined).
 * The answer narrows the releases the controller may be to those that do (not) route the action.
 */
export async function probeHostSetActionsGone(knowledge: ControllerKnowledge, send: Send): Promise<boolean | undefined> {
  if (knowledge.hostSetActionsGone !== undefined) return knowledge.hostSetActionsGone;
  let gone: boolean | undefined;
  try {
    await send(api.targetAction(PROBE_TARGET_ID, "add", "host-sets", { version: 1, host_set_ids: [PROBE_HOST_SET_ID] }));
  } catch (err) {
    if (!(err instanceof BoundaryApiError)) return undefined;
    // a 405 says the route is gone; the action itself answering (Boundary's error body) says it exists
    gone = err.status === 405 ? true : err instanceof UnexpectedAnswerError || err.kind === "Unknown" ? undefined : false;
  }
  if (gone === undefined) return undefined;
  knowledge.narrow((r) => routesNoun(r, "host-sets") !== gone);
  return (knowledge.hostSetActionsGone = gone);
}
