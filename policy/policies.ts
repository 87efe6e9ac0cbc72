/**
 * The guardrails for Targets, as CrossGuard policies: five that judge one Target at a time
 * (`Analyze`, on the inputs as Check returned them) and one that judges the stack's Targets together
 * (`AnalyzeStack`, on their outputs). Each message names the Target by its Pulumi name, the value
 * it has and the limit it breaks. A value not known yet (a preview) is never judged.
 */
import type { EnforcementLevel, ResourceValidationPolicy, Severity, StackValidationPolicy } from "@pulumi/policy/policy";
import { spec } from "../wire/target-fields";
import { configSchema, settingValues, type Settings, type Values } from "./settings";
import { effective, targetRoute, text, TARGET_TYPES } from "./target";

/** A policy judging one Target: `judge` says what breaks the rule (the message after `Target "<name>" `), or nothing. */
interface TargetRule<S extends Settings> {
  name: string;
  description: string;
  enforcementLevel: EnforcementLevel;
  severity: Severity;
  remediationSteps: string;
  settings: S;
  judge(props: Record<string, unknown>, settings: Values<S>): string | undefined;
}

const NOT_A_TARGET = `applies only to Targets (${TARGET_TYPES.plugin}, ${TARGET_TYPES.dynamic})`;

/**
 * Says the policy does not apply (the host records it; an older `@pulumi/policy` has no
 * `notApplicable`, and a team's own pack may run one: the policy then just passes).
 */
function notApplicable(args: { notApplicable?: (reason?: string) => never }): void {
  args.notApplicable?.(NOT_A_TARGET);
}

/** A resource policy from a rule: other resources are not applicable; a Target breaking the rule is one violation. */
function targetPolicy<S extends Settings>(rule: TargetRule<S>): ResourceValidationPolicy {
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel: rule.enforcementLevel,
    severity: rule.severity,
    remediationSteps: rule.remediationSteps,
    configSchema: configSchema(rule.settings),
    validateResource: (args, reportViolation) => {
      if (!targetRoute(args.type)) return notApplicable(args);
      const problem = rule.judge(args.props, settingValues(rule.name, rule.settings, args.getConfig<Record<string, unknown>>()));
      if (problem) reportViolation(`Target ${JSON.stringify(args.name)} ${problem}`);
    },
  };
}

const DEFAULT_SESSION_SECONDS = spec("sessionMaxSeconds").default as number;

/** `boundary-target-connection-limit`: a session may open at most `maxConnections` connections (unlimited, -1, is Boundary's default). */
export const connectionLimit = targetPolicy({
  name: "boundary-target-connection-limit",
  description: "A Target must limit the connections of a session (sessionConnectionLimit from 1 to maxConnections; unset or -1 is unlimited).",
  enforcementLevel: "mandatory",
  severity: "high",
  remediationSteps: "Set sessionConnectionLimit on the Target to a number from 1 to the policy's maxConnections.",
  settings: { maxConnections: { minimum: 1, default: 10, description: "The most connections a session of a Target may open." } },
  judge: (props, { maxConnections }) => {
    const limit = effective(props, "sessionConnectionLimit");
    if (!limit) return undefined;
    const fix = `set sessionConnectionLimit from 1 to ${maxConnections}`;
    if (limit.value === -1) {
      const value = limit.unset ? "unset, Boundary's default -1" : "-1";
      return `allows unlimited connections per session (sessionConnectionLimit ${value}); the limit is ${maxConnections} (maxConnections): ${fix}`;
    }
    if (limit.value > maxConnections) {
      const value = `sessionConnectionLimit ${limit.value}`;
      return `allows ${limit.value} connections per session (${value}), above the limit of ${maxConnections} (maxConnections): ${fix}`;
    }
    return undefined;
  },
});

/** `boundary-target-session-duration`: a session may last at most `maxSessionSeconds` (Boundary's default when unset: 28800). */
export const sessionDuration = targetPolicy({
  name: "boundary-target-session-duration",
  description: `A Target's sessions must end within maxSessionSeconds (sessionMaxSeconds; unset is Boundary's default, ${DEFAULT_SESSION_SECONDS}).`,
  enforcementLevel: "mandatory",
  severity: "medium",
  remediationSteps: "Set sessionMaxSeconds on the Target to at most the policy's maxSessionSeconds.",
  settings: {
    maxSessionSeconds: { minimum: 1, default: DEFAULT_SESSION_SECONDS, description: "The longest a session of a Target may last, in seconds." },
  },
  judge: (props, { maxSessionSeconds }) => {
    const max = effective(props, "sessionMaxSeconds");
    if (!max || max.value <= maxSessionSeconds) return undefined;
    const value = max.unset ? `unset, Boundary's default ${max.value}` : String(max.value);
    return (
      `lets a session last ${max.value} seconds (sessionMaxSeconds ${value}), above the limit of ${maxSessionSeconds} seconds ` +
      `(maxSessionSeconds): set sessionMaxSeconds from 1 to ${maxSessionSeconds}`
    );
  },
});

/** `boundary-target-worker-filter`: a Target names the workers that may proxy its sessions. */
export const workerFilter = targetPolicy({
  name: "boundary-target-worker-filter",
  description: "A Target must name the workers that may reach its hosts (egressWorkerFilter, or workerFilter before Boundary 0.12).",
  enforcementLevel: "advisory",
  severity: "medium",
  remediationSteps: "Set egressWorkerFilter on the Target to a filter selecting the workers that may reach its hosts.",
  settings: {},
  judge: (props) => {
    const egress = text(props, "egressWorkerFilter");
    const legacy = text(props, "workerFilter");
    // either one set is enough: an unknown one may be it
    if (egress !== "" || legacy !== "") return undefined;
    return (
      "sets no worker filter (egressWorkerFilter and workerFilter unset): any worker may proxy its sessions; the policy requires one: " +
      "set egressWorkerFilter"
    );
  },
});

/** `boundary-target-host-sources`: a Target reaches hosts through host sets, not a direct address. */
export const hostSources = targetPolicy({
  name: "boundary-target-host-sources",
  description: "A Target must reach its hosts through host sets (hostSetIds), not a direct address.",
  enforcementLevel: "advisory",
  severity: "low",
  remediationSteps: "Put the host in a host set, attach the set with hostSetIds, and remove address.",
  settings: {},
  judge: (props) => {
    const address = text(props, "address");
    if (!address) return undefined;
    return (
      `connects to a direct address (address ${JSON.stringify(address)}) instead of host sets; the policy allows host sets only: ` +
      "attach a host set with hostSetIds and remove address"
    );
  },
});

/** `boundary-target-description`: a Target says what it is for, in at least `minLength` characters. */
export const description = targetPolicy({
  name: "boundary-target-description",
  description: "A Target must have a description, so that reviewers know what it grants access to.",
  enforcementLevel: "advisory",
  severity: "low",
  remediationSteps: "Set description on the Target to say what it reaches and who it is for.",
  settings: { minLength: { minimum: 1, default: 1, description: "The fewest characters a Target's description may have (after trimming)." } },
  judge: (props, { minLength }) => {
    const d = text(props, "description");
    if (d === undefined) return undefined;
    const length = [...d].length;
    if (length >= minLength) return undefined;
    const value = d === "" ? "an empty description (description unset or blank)" : `a description of ${length} characters (${JSON.stringify(d)})`;
    return `has ${value}; the policy requires at least ${minLength} (minLength): describe what it reaches and who it is for`;
  },
});

/** `boundary-target-unique-names`: no two Targets of the stack share a name in one project (Boundary would refuse the second). */
export const uniqueNames: StackValidationPolicy = {
  name: "boundary-target-unique-names",
  description: "No two Targets of the stack may have the same name in the same project (Boundary refuses the second).",
  enforcementLevel: "mandatory",
  severity: "high",
  remediationSteps: "Rename one of the Targets, or leave name out so that the provider names it after the resource.",
  configSchema: configSchema({}),
  validateStack: (args, reportViolation) => {
    if (!args.resources.some((r) => targetRoute(r.type))) return notApplicable(args);
    const first = new Map<string, string>();
    for (const r of args.resources) {
      if (!targetRoute(r.type)) continue;
      const name = text(r.props, "name");
      const scopeId = text(r.props, "scopeId");
      // a name or project not known yet (a preview) is compared with nothing: the others still are
      if (!name || !scopeId) continue;
      const key = `${scopeId}\n${name}`;
      const holder = first.get(key);
      if (holder === undefined) first.set(key, r.name);
      else {
        reportViolation(
          `Target ${JSON.stringify(r.name)} has the name ${JSON.stringify(name)} in project ${scopeId}, as Target ${JSON.stringify(holder)} has; ` +
            "the limit is one Target per name in a project: rename one of them",
          r.urn,
        );
      }
    }
  },
};

/** Every policy for Targets, in the order the pack lists them. */
export const targetPolicies: readonly (ResourceValidationPolicy | StackValidationPolicy)[] = [
  connectionLimit,
  sessionDuration,
  workerFilter,
  hostSources,
  description,
  uniqueNames,
];
