/**
 * What a client has learned about its controller, as the release table (`wire/releases.ts`) lets
 * it: which releases it may be. It starts from the configured ones (`BOUNDARY_API_GENERATION`, or
 * every release) and narrows with every answer (`releasesAnswering`: a view's keys), a 405 (an
 * action the controller does not route) and the probes. Shared by every view of a client (one per
 * operation), so what one operation learns the next one knows. No I/O here: the client feeds it.
 */
import { RELEASES, releasesAnswering, routesNoun, type ListRoute, type Release } from "../../wire/releases";
import type { Target } from "../../wire/target";
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
    const narrowed = releasesAnswering(t, this.releases);
    const again = releasesAnswering(t, this.configured);
    this.releases = narrowed.length > 0 ? narrowed : again.length > 0 ? again : this.releases;
    return t;
  }
}
