/**
 * `pulumi-boundary/policy`: the CrossGuard policies for Targets, to run as the package's own pack
 * (`policy-pack/`, which builds its pack from these) or to put into a team's own pack next to its
 * other policies. Importing this module starts nothing: a pack starts its analyzer server when it
 * constructs its `PolicyPack`.
 *
 * ```ts
 * import { PolicyPack } from "@pulumi/policy";
 * import { targetPolicies } from "pulumi-boundary/policy";
 * new PolicyPack("access-guardrails", { policies: [...targetPolicies, ...ourOtherPolicies] });
 * ```
 */
export { connectionLimit, description, hostSources, sessionDuration, targetPolicies, uniqueNames, workerFilter } from "./policies";
export { PolicySettingError } from "./errors";
export { TARGET_TYPES, targetRoute } from "./target";

/** The name and description the package's own pack serves its policies under. */
export const POLICY_PACK = {
  name: "pulumi-boundary-targets",
  description: "Guardrails for HashiCorp Boundary Targets: session limits, worker filters, host sources, descriptions, unique names.",
} as const;
