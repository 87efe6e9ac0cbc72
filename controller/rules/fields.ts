/**
 * The controller's rule for each Target field, in Boundary's wording, over the shared predicates
 * (`common/rules.ts`) that the provider's `check` uses too. Pure functions: the store combines them
 * with what only it knows (scopes, uniqueness, versions).
 */
import type { FilterOptions, MissingSelector } from "../../common/filter";
import * as shared from "../../common/rules";
import { addressRule } from "./address";
import { bexprRefusal } from "./bexpr-grammar";
import type { Release } from "../../wire/releases";
import type { RequestField } from "../../wire/target";
import { TARGET_FIELDS, spec, type InputField } from "../../wire/target-fields";
import { ControllerFault, invalidFields } from "../errors";
import { dialectOf } from "../dialect";

/** A field rule: what is wrong with a present value in a release, on a create or a PATCH, or undefined. */
type Rule = (value: never, release: Release, use: FieldUse) => string | undefined;

/** Where a value is judged: a create's body or a PATCH's. */
export type FieldUse = "create" | "update";

const NAME = {
  blank: "This field is required.",
  unprintable: "Name contains unprintable characters",
} as const;

/** One rule per input field that has one (association ids are checked by `checkIds`). */
export const FIELD_RULES = {
  name: (v: string) => {
    const problem = shared.nameProblem(v);
    return problem && NAME[problem];
  },
  // up to 0.16 unicode.IsPrint; from 0.17 IsPrint or IsSpace (handlers/verifiers.go)
  description: (v: string, r: Release) =>
    v === ""
      ? "Cannot set empty string as description"
      : shared.descriptionProblem(v, r.descriptions)
        ? "Description contains unprintable characters"
        : undefined,
  // open-source Boundary registers only tcp (ssh and rdp are HCP and Enterprise targets), in every release
  type: (v: string) => (v === "tcp" ? undefined : "Unknown type provided."),
  // Boundary's validators word 0 "This must be greater than zero." (real v0.4.0, v0.12.2, v0.15.5, v0.21.3)
  sessionMaxSeconds: (v: number, r: Release) =>
    shared.isSessionMaxSeconds(v)
      ? undefined
      : v <= 0 && dialectOf(r).repositoryAnswers
        ? "This must be greater than zero."
        : `This must be greater than zero and at most ${shared.MAX_INT32}.`,
  sessionConnectionLimit: (v: number) => (shared.isConnectionLimit(v) ? undefined : "This must be -1 (unlimited) or greater than zero."),
  // Boundary: bexpr.CreateEvaluator's verdict, which compiles no pattern (one RE2 refuses fails each evaluation)
  workerFilter: (v: string, r: Release) => {
    const d = dialectOf(r);
    return d.workerFilterProblem(shared.filterProblem(v, d.filterPatterns));
  },
  // Boundary: 0 in the release's words, above 65535 refused from 0.13 (a uint32 before); what does not decode never gets here (http/gateway-body.ts)
  defaultPort: (v: number, r: Release, use: FieldUse) => {
    const outOfRange = dialectOf(r).portOutOfRange;
    if (outOfRange) return shared.isPort(v) ? undefined : outOfRange;
    if (v === 0) return use === "create" ? r.ports.zeroOnCreate : r.ports.zeroOnUpdate;
    return v > 65535 ? r.ports.aboveMax : undefined;
  },
  // the current release's own messages (v0.21.3's validateCreateRequest / validateUpdateRequest)
  egressWorkerFilter: (v: string, r: Release) =>
    shared.filterProblem(v, dialectOf(r).filterPatterns) ? "Unable to successfully parse egress filter expression." : undefined,
  // an open-source controller refuses any ingress filter (HCP and Enterprise take one)
  ingressWorkerFilter: () => "Ingress Worker Filter field is not supported in OSS",
  // split host and port up to 0.19.2, parsed and normalised from 0.19.3 (address.ts)
  address: (v: string, r: Release) => addressRule(v, r),
  defaultClientPort: (v: number) =>
    v === 0
      ? "This field cannot be set to zero."
      : v > 65535
        ? "Value is greater than maximum port number."
        : shared.isPort(v)
          ? undefined
          : "This must be a port number from 1 to 65535.",
} satisfies Partial<Record<InputField, Rule>>;

/** The request field naming an input field's problem with `value` in a release, or undefined when it is fine. */
export function checkField(field: InputField, value: unknown, release: Release, use: FieldUse = "create"): RequestField | undefined {
  const rule = (FIELD_RULES as Partial<Record<InputField, (v: unknown, r: Release, u: FieldUse) => string | undefined>>)[field] ?? tableRule(field);
  // Boundary trims names and descriptions first (strings.TrimSpace), then judges what is left
  const v = spec(field).trim && typeof value === "string" ? shared.trimSpace(value) : value;
  const why = v === undefined || v === null ? undefined : rule?.(v, release, use);
  return why ? { name: TARGET_FIELDS[field].wire, description: why } : undefined;
}

/**
 * A field without a controller rule of its own is judged by the field table's rule (the provider's
 * `check`): the same predicate, worded as the controller words a field ("This must …"). A field
 * added to the table is checked by both sides before anyone writes Boundary's own words here.
 */
function tableRule(field: InputField): ((v: unknown) => string | undefined) | undefined {
  const check = spec(field).check as ((v: unknown) => string | undefined) | undefined;
  return (
    check &&
    ((v) => {
      const why = check(v);
      return why && `This ${why}.`;
    })
  );
}

/** The most ids one request may name in a list. */
export const MAX_IDS_PER_REQUEST = 1000;

/**
 * Checks a list of ids for the action endpoints and create: at most MAX_IDS_PER_REQUEST, each with
 * one of `prefixes`. Returns the de-duplicated, sorted list and the offending ids as request fields.
 */
export function checkIds(
  field: string,
  prefixes: readonly string[],
  ids: readonly string[] | null | undefined,
  malformed: (id: string) => string = (id) => `Incorrectly formatted identifier ${JSON.stringify(id)}: it must start with ${shared.oneOf(prefixes)}.`,
): { ids: string[]; errors: RequestField[] } {
  if ((ids?.length ?? 0) > MAX_IDS_PER_REQUEST) {
    return { ids: [], errors: [{ name: field, description: `At most ${MAX_IDS_PER_REQUEST} identifiers per request; this one has ${ids!.length}.` }] };
  }
  const errors: RequestField[] = [];
  for (const id of ids ?? []) {
    if (!shared.hasAnyIdPrefix(id, prefixes)) {
      errors.push({ name: field, description: malformed(id) });
    }
  }
  return { ids: [...new Set(ids ?? [])].sort(), errors };
}

/** `recursive` on a list: absent, empty, "true" or "false". */
export function checkRecursive(v: string | null | undefined): RequestField | undefined {
  return v === null || v === undefined || ["true", "false", ""].includes(v) ? undefined : { name: "recursive", description: "This must be true or false." };
}

/** handlers.ValidId: `prefix_` and then only letters and digits. */
export function validId(id: string | undefined, prefix: string): boolean {
  return id !== undefined && id.startsWith(`${prefix}_`) && /^[A-Za-z0-9]*$/.test(id.slice(prefix.length + 1));
}

/** Go's strconv.ParseBool, which the gateway decodes `recursive` with: the value, or undefined when it does not parse. */
export function parseBool(v: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(v)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(v)) return false;
  return undefined;
}

/** What a list asks for, as the query string carries it. */
export interface ListQuery {
  scopeId?: string;
  recursive?: string | null;
  filter?: string | null;
}

/**
 * A list's query rules, and whether it is recursive. Ours: `recursive` true or false, a filter
 * that parses. Boundary's: the gateway decodes `recursive` with strconv.ParseBool (what does not
 * parse is its 500); then TS validateListRequest: a project scope id unless recursive, a filter
 * go-bexpr parses (which compiles no pattern).
 */
export function checkListQuery(r: Release, q: ListQuery): boolean {
  if (!dialectOf(r).listQueryAsGateway) {
    const bad = checkRecursive(q.recursive);
    if (bad) throw invalidFields([bad]);
    const why = q.filter ? shared.filterProblem(q.filter) : undefined;
    if (why) throw invalidFields([{ name: "filter", description: `Unable to parse the filter: ${why}.` }]);
    return q.recursive === "true";
  }
  const recursive = q.recursive ? parseBool(q.recursive) : false;
  if (recursive === undefined) {
    const why = `strconv.ParseBool: parsing ${JSON.stringify(q.recursive)}: invalid syntax`;
    throw new ControllerFault("Internal", `rpc error: code = InvalidArgument desc = parsing field "recursive": ${why}`);
  }
  const fields: RequestField[] = [];
  if (!recursive && !validId(q.scopeId, "p"))
    fields.push({ name: "scope_id", description: "This field must be a valid project scope ID or the list operation must be recursive." });
  // go-bexpr's grammar of the release judges first, in its parser's words; ours where it takes what we refuse
  const why = q.filter ? (bexprRefusal(q.filter, r.bexprGrammar) ?? shared.filterProblem(q.filter, listFilter(r).parse)) : undefined;
  if (why)
    fields.push({
      name: "filter",
      description: `This field could not be parsed. handlers.NewFilter: couldn't build filter: parameter violation: error #100: ${why}`,
    });
  if (fields.length > 0) throw invalidFields(fields, "Improperly formatted identifier.");
  return recursive;
}

/**
 * How a list's filter is read on a release: parsed as the dialect parses (Boundary's: a bad pattern
 * fails only when evaluated, as deep as go-bexpr nests), and a key missing from a map judged as the
 * release's go-bexpr judges it (an error up to v0.1.10, the operator's answer from v0.1.12).
 */
export function listFilter(r: Release): { parse: FilterOptions; missing: MissingSelector } {
  const d = dialectOf(r);
  const byOperator = d.name === "boundary" && (r.bexprGrammar === "v0.1.12" || r.bexprGrammar === "v0.1.13");
  const parse = { badPattern: d.filterPatterns, maxNesting: d.filterNesting, pointerColon: d.name !== "boundary" || r.bexprGrammar !== "v0.1.8" };
  return { parse, missing: byOperator ? "disposition" : "error" };
}
