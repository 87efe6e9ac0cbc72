/**
 * Whose words the controller answers in: this project's clearer messages (the spec's controller)
 * or Boundary's, as each release's validators and repository word them. Every place where the two
 * differ reads one entry of the table the store chose once from its release row (`errors`), so
 * no rule tests which wording it is in.
 */
import { MAX_FILTER_NESTING, type BadPattern } from "../common/filter";
import type { Release } from "../wire/releases";
import { ControllerFault, invalidField, invalidFields, notFound } from "./errors";
import { BAD_ID, type IdUse } from "./ids";
import { Prefix } from "../wire/target";

/** One wording: the messages, and the checks one wording makes and the other does not. */
export interface Dialect {
  /** The release row's name for it. */
  readonly name: Release["errors"];
  /** How a filter's regular expressions are judged: refused when parsed (ours), or only when evaluated (Boundary's bexpr). */
  readonly filterPatterns: BadPattern;
  /** How deep a list's filter may nest: ours, or as deep as go-bexpr's grammar is judged (bexpr-grammar.ts: some 200 parentheses). */
  readonly filterNesting: number;

  // Targets: lists, paths, create and update
  /** A list without `scope_id` is refused (ours); Boundary answers it as a scope not found. */
  readonly listNeedsScope: boolean;
  /** The answer to a scope id no scope has. */
  scopeNotFound(scopeId: string | undefined): ControllerFault;
  /** The answer to a path segment that is not a well-formed Target id; `actionMessage` is the 400's message on an action route. */
  badTargetId(use: IdUse, actionMessage: string | undefined): ControllerFault;
  /** A create body's `version`. */
  readonly versionOnCreate: string;
  /** A PATCH without `version`. */
  readonly versionMissingOnUpdate: string;
  /** An action without `version`. */
  readonly versionMissingOnAction: string;
  /** Boundary checks `scope_id` is a well-formed project id before it asks whether it exists. */
  readonly vetsScopeIdFormat: boolean;
  /** A create without `type`; `vetsUpdate` is the release's (0.8's subtype registry answers it as an unknown type). */
  missingType(vetsUpdate: boolean): string;
  /** A PATCH that sets a required field empty: `name` in Boundary's words has its own. */
  emptyRequired(field: string): string;
  /** A PATCH's port 0 is the proto's zero value, which clears the column where the release does not vet a PATCH (Boundary before 0.8); ours refuses it. */
  readonly zeroPortClears: boolean;
  /** The answer to a name another Target of the project has. */
  nameTaken(name: string, scopeId: string): ControllerFault;
  /**
   * Ours names each field a PATCH may not change and each mask path it cannot apply, and takes
   * `attributes` for all of them; Boundary's mask manager drops what it cannot map.
   */
  readonly namesUnpatchable: boolean;

  // add/set/remove actions
  /** Ours names every malformed id of a field; Boundary's errors are a map by field, naming the first. */
  readonly namesEveryBadId: boolean;
  /** A malformed id of an action's list (`noun` the singular of the route's noun). */
  badListId(id: string, prefixes: string, noun: string): string;
  /** An add or remove that names no id (ours; Boundary's words are the release table's), or undefined. */
  readonly noIds: string | undefined;
  /** The message of a 400 naming several fields (an action body, authorize-session's body in Boundary's validators). */
  readonly fieldErrorsMessage: string;
  /** Mistakes the database refuses (unknown, attached, not attached) are the repository's 500s, and a set of credentials drops ids that name nothing. */
  readonly repositoryAnswers: boolean;

  // authorize-session
  /** The body is checked as Boundary's validateAuthorizeSessionRequest checks it (ours: its own clearer rules). */
  readonly authorizeAsValidator: boolean;
  /** A `host_id` of none of the prefixes the release takes. */
  badHostId(prefixes: readonly string[]): string;

  // field rules and list queries
  /** A `worker_filter` that does not parse, given the expression; undefined if it does. */
  workerFilterProblem(why: string | undefined): string | undefined;
  /** A port out of range in ours; undefined where the release's own words apply. */
  readonly portOutOfRange: string | undefined;
  /** The list query is checked as Boundary's gateway and validateListRequest check it (ours: `recursive` true or false, a filter that parses). */
  readonly listQueryAsGateway: boolean;
  /** The answer to a list token that does not decode. */
  undecodableListToken(): ControllerFault;
}

/** Boundary's answer to a second resource with a unique field's value, with no field named (handlers/errors.go genericUniquenessMsg). */
export const UNIQUENESS = "Invalid request.  Request attempted to make second resource with the same field value that must be unique.";

/** Boundary's answer to a token its base58 and proto decoding refuse (handlers.ParseListToken, 0.15–0.21). */
const UNDECODABLE = "handlers.ParseListToken: unknown, unknown: error #0: proto: cannot parse invalid wire-format data";

/** This project's words: each names the field, the rule and what to do. */
export const OURS: Dialect = {
  name: "ours",
  filterPatterns: "refused",
  filterNesting: MAX_FILTER_NESTING,
  listNeedsScope: true,
  scopeNotFound: (scopeId) => notFound(`Scope ${JSON.stringify(scopeId)} not found.`),
  badTargetId: () => invalidField("id", `Incorrectly formatted identifier: it must be ${Prefix.target} followed by letters and digits.`),
  versionOnCreate: "This is a read only field.",
  versionMissingOnUpdate: "This field is required: it must be the target's current version.",
  versionMissingOnAction: "This field is required: it must be the target's current version.",
  vetsScopeIdFormat: false,
  missingType: () => "This field is required.",
  emptyRequired: () => "This field is required.",
  zeroPortClears: false,
  nameTaken: (name, scopeId) => invalidField("name", `A target named ${JSON.stringify(name)} already exists in scope ${scopeId}.`),
  namesUnpatchable: true,
  namesEveryBadId: true,
  badListId: (id, prefixes) => `Incorrectly formatted identifier ${JSON.stringify(id)}: it must start with ${prefixes}.`,
  noIds: "This must contain at least one identifier.",
  fieldErrorsMessage: "Error in provided request.",
  repositoryAnswers: false,
  authorizeAsValidator: false,
  badHostId: (prefixes) => `Incorrectly formatted identifier: it must start with ${prefixes.join(" or ")}.`,
  workerFilterProblem: (why) => why && `Unable to parse the worker filter: ${why}.`,
  portOutOfRange: "This must be a port number from 1 to 65535.",
  listQueryAsGateway: false,
  undecodableListToken: () => new ControllerFault("invalid list token", "list token is not valid"),
};

/** Boundary's words, as its handlers, validators and repository answer (v0.4.0 to v0.21.3; what differs per release is the release table's). */
export const BOUNDARY: Dialect = {
  name: "boundary",
  filterPatterns: "evaluation",
  filterNesting: 256,
  listNeedsScope: false,
  scopeNotFound: () => notFound(),
  badTargetId: (use, actionMessage) => invalidFields([{ name: "id", description: BAD_ID[use] }], actionMessage),
  versionOnCreate: "Cannot specify this field in a create request.",
  versionMissingOnUpdate: "Existing resource version is required for an update.",
  versionMissingOnAction: "Required field.",
  vetsScopeIdFormat: true,
  missingType: (vetsUpdate) => (vetsUpdate ? "Unknown type provided." : "This is a required field."),
  emptyRequired: (field) => (field === "name" ? "This field cannot be set to empty." : "This field is required."),
  zeroPortClears: true,
  // the database's unique constraint, which names no field (handlers/errors.go)
  nameTaken: () => new ControllerFault("InvalidArgument", UNIQUENESS),
  namesUnpatchable: false,
  namesEveryBadId: false,
  badListId: (id, _prefixes, noun) => `Incorrectly formatted ${noun} identifier ${JSON.stringify(id)}.`,
  noIds: undefined,
  fieldErrorsMessage: "Errors in provided fields.",
  repositoryAnswers: true,
  authorizeAsValidator: true,
  badHostId: () => "Incorrectly formatted identifier.",
  workerFilterProblem: (why) => (why ? "Unable to successfully parse filter expression." : undefined),
  portOutOfRange: undefined,
  listQueryAsGateway: true,
  undecodableListToken: () => new ControllerFault("Internal", UNDECODABLE),
};

/** The wording a release row answers in: chosen once, by the store (and by pure rules given only the row). */
export function dialectOf(r: Pick<Release, "errors">): Dialect {
  return r.errors === "ours" ? OURS : BOUNDARY;
}
