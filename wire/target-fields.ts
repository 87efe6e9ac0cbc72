/**
 * THE table of a Target's fields: one entry per field, holding every fact about it. The wire
 * schemas (`target.ts`), the provider's inputs and state, the reconcile plan, `TargetArgs`, the
 * plugin's package schema and the controller's updatable fields are all derived from it.
 *
 * Adding a plain optional field: one entry here, plus its rule in the controller's `rules/fields.ts`, plus
 * the release that added it in the release table (`release-rows.ts`, which says which releases
 * know, require or replaced each field, and the names and id prefixes of each list per release).
 *
 * Adding an id list: one entry here with its `association` (the names, the kind of resource its
 * ids name, the resource output of its summaries), plus its names and prefixes per release in the
 * release table. The controller's routes, stored record and views, the wire schemas, the state's
 * outputs and the package schema's types all walk the association entries.
 *
 * Keys are the camelCase names a Pulumi program writes; `wire` is the field's dotted path in
 * Boundary's JSON (`attributes.default_port`).
 */
import type { z } from "zod";
import { canonicalAddress, ipv6Literal } from "../common/address";
import * as rules from "../common/rules";
import { FIELD_KINDS, type FieldKind, type ProtoType } from "./field-kinds";

export type { FieldKind } from "./field-kinds";

/**
 * The kinds of resource an id list names, each with what a Target's summary of one carries. The
 * controller seeds them from its fixtures (`fixtures`: the fixture arrays holding them) and checks
 * every attached id against them; Boundary's repository words an action's errors per kind.
 */
export const REFERENTS = {
  host: {
    noun: "Host set",
    fixtures: ["host_sets"],
    /** A summary's fields beyond `id`: the state's (camelCase) name → the wire's, with its doc. */
    summary: { hostCatalogId: { wire: "host_catalog_id", doc: "Host catalog id." } },
    idDoc: "Host set id.",
  },
  credential: {
    noun: "Credential library",
    fixtures: ["credential_libraries", "credentials"],
    summary: { credentialStoreId: { wire: "credential_store_id", doc: "Credential store id." } },
    idDoc: "Library id.",
  },
} as const satisfies Record<string, Referent>;

/** The kind of resource an id list names (a key of REFERENTS): also how Boundary's repository names an action's errors. */
export type ListKind = keyof typeof REFERENTS;

/** What the ids of a list name (see REFERENTS). */
export interface Referent {
  /** For messages: `Host set hsst_1 was not found`. */
  noun: string;
  /** The fixture arrays the controller seeds these resources from. */
  fixtures: readonly string[];
  /** The fields a Target's summary of one carries beyond `id`: state name → wire name and doc. */
  summary: Readonly<Record<string, { wire: string; doc: string }>>;
  /** The package schema's doc of the summary's `id`. */
  idDoc: string;
}

/** A list's resource output: the attached items' summaries (`hostSets`), and its package-schema object type. */
export interface ListOutput {
  /** The output's name in state and in the package schema. */
  name: string;
  /** The package schema's object type of one summary (`HostSetSummary`). */
  type: string;
  /** The output's doc. */
  doc: string;
  /** The object type's doc. */
  itemDoc: string;
}

/** An id list reconciled through a Target action (`:set-host-sets`), compared as a set. */
export interface Association {
  /** The kind of resource its ids name (see REFERENTS). */
  kind: ListKind;
  /** The resource output of its summaries, when it has one. */
  output?: ListOutput;
  /** The v0.4 action's noun (`:add-host-sets`, `:set-host-sets`, `:remove-host-sets`); none for lists v0.4 does not have. */
  action?: "host-sets" | "credential-libraries";
  /**
   * The names current releases use: the action's noun, the list's field and its summaries' field.
   * Which release uses which names, and the id prefixes each takes, is the release table's
   * (`releases.ts`).
   */
  current: { action: "host-sources" | "credential-sources"; wire: string; summaries: string; earlier?: EarlierNames };
  /** The summaries' field on v0.4 controllers (`host_sets`); none for lists v0.4 does not have. */
  summaries?: string;
  /** What one id names, for messages. */
  noun: string;
}

/**
 * The names a list had in the releases between v0.4 and the current ones, when they differ from
 * both (the release table says which releases read and answer them).
 */
export interface EarlierNames {
  /** The id list's field. */
  wire: string;
  /** Its summaries' field. */
  summaries: string;
}

/** The three actions on an id list: add attaches ids (none may be attached yet), remove detaches (all must be), set replaces the list. */
export type AssociationOp = "add" | "set" | "remove";

/** Everything known about one input field of a Target. */
export interface FieldSpec {
  /** The shape of its value (`field-kinds.ts`): decides its wire, input, state, protobuf and package-schema types. */
  kind: FieldKind;
  /** Dotted path in the wire Target and in request bodies. */
  wire: string;
  /** Its protobuf type in Boundary's Target message, where not its kind's (`FIELD_KINDS[kind].proto`). */
  proto?: ProtoType;
  /** The allowed values, for `enum`. */
  values?: readonly string[];
  /** Every Target has it, and a create body must carry it. */
  required?: boolean;
  /** A program may leave it out: the provider then generates it (Pulumi's autonaming). */
  autoname?: boolean;
  /** A change needs a new Target: Boundary cannot change it in place. */
  replaces?: boolean;
  /** Changed in place by a PATCH naming the wire path in `update_mask`. */
  mask?: boolean;
  /** Changed in place through the add/set/remove actions instead of PATCH. */
  association?: Association;
  /** The controller's value when the field is unset, or cleared under the mask. */
  default?: string | number | readonly string[];
  /** The shared rule, worded for a Pulumi user; undefined when the value is fine. */
  check?: (value: never) => string | undefined;
  /** Stored trimmed of surrounding white space (Boundary trims it): the provider trims it in check too. */
  trim?: boolean;
  /** The form the controller stores a value in: two values of one form are no change (an address's spellings). */
  canonical?: (value: string) => string;
  /** Input fields Boundary refuses together with this one, and why (worded for a Pulumi user). */
  excludes?: { fields: readonly string[]; why: string };
  /** Holds a credential: kept secret in state and logs. */
  secret?: boolean;
  /** Documentation for the program's input (TSDoc, package schema, README). */
  doc: string;
}

const field = <const F extends FieldSpec>(f: F) => f;

const NAME_PROBLEMS = {
  blank: "must not be empty",
  unprintable: "must contain printable characters only (no tab, no-break space, zero-width or bidirectional control)",
} as const;

/** The rule of every worker filter: Boundary's filter language. */
const filterCheck = (v: string) => {
  const why = rules.filterProblem(v);
  return why && `is not a valid filter: ${why}`;
};

const ADDRESS_PROBLEMS = {
  length: `must be ${rules.ADDRESS_LENGTH.min} to ${rules.ADDRESS_LENGTH.max} characters long`,
  port: "must not carry a port: set defaultPort instead",
  brackets: "may be in brackets only when it is an IPv6 address",
  unparsable:
    "must be a host name or an IP address: no white space, control characters or {|}\\^`, and a colon only in an IPv6 address (Boundary 0.19.3+ refuses them)",
} as const;

/** The input fields of a Target, in the order plans and schemas list them. */
export const TARGET_FIELDS = {
  scopeId: field({
    kind: "string",
    wire: "scope_id",
    proto: { kind: "string" },
    required: true,
    replaces: true,
    check: (v: string) => (/^p_[0-9A-Za-z]+$/.test(v) ? undefined : "must be a project scope id (p_…): targets live in projects"),
    doc: "Project scope (`p_…`); changing it **replaces** the Target (created in the new project before the old one is deleted)",
  }),
  name: field({
    kind: "string",
    wire: "name",
    required: true,
    autoname: true,
    trim: true,
    mask: true,
    check: (v: string) => {
      const problem = rules.nameProblem(v);
      return problem && NAME_PROBLEMS[problem];
    },
    doc:
      "Unique per project. Left out, the provider names the Target after the resource, `web-3f9a2c1` (Pulumi's autonaming, honouring " +
      "the stack's autonaming settings): stable across updates, fresh on a replacement, so create-before-delete never meets the old " +
      "name. A name you set is used verbatim: a replacement that keeps it in its project deletes the old Target first (Diff says so); " +
      "`pulumi up --replace`, which asks no Diff, needs the `deleteBeforeReplace: true` option",
  }),
  description: field({
    kind: "string",
    wire: "description",
    trim: true,
    mask: true,
    // the newest releases' rule (IsPrint or IsSpace): the release table refuses new lines and tabs for releases before 0.17
    check: (v: string) => (rules.descriptionProblem(v, "print-or-space") ? "must contain printable characters or white space only" : undefined),
    doc: "Description.",
  }),
  type: field({
    kind: "enum",
    wire: "type",
    values: ["tcp", "ssh", "rdp"],
    replaces: true,
    default: "tcp",
    doc:
      '`"tcp"` is the default; `"ssh"` (**Boundary 0.10+**) and `"rdp"` (**0.20+**) where the controller offers them (HCP and ' +
      'Enterprise: an open-source controller answers "Unknown type provided.", passed on naming the field); changing it **replaces** ' +
      "the Target",
  }),
  hostSetIds: field({
    kind: "ids",
    wire: "host_set_ids",
    association: {
      kind: "host",
      output: { name: "hostSets", type: "HostSetSummary", doc: "The attached host sets.", itemDoc: "A host set attached to a Target." },
      action: "host-sets",
      summaries: "host_sets",
      current: { action: "host-sources", wire: "host_source_ids", summaries: "host_sources" },
      noun: "host set",
    },
    default: [],
    doc:
      "`hsst_…`, and on current controllers plugin host sets `hsplg_…` (`hs_…` before 0.10); a set (order never causes a diff); " +
      "reconciled with `:set-host-sets`, or `:set-host-sources` (`host_source_ids`) on current controllers",
  }),
  applicationCredentialLibraryIds: field({
    kind: "ids",
    wire: "application_credential_library_ids",
    association: {
      kind: "credential",
      output: {
        name: "applicationCredentialLibraries",
        type: "CredentialLibrarySummary",
        doc: "The attached credential libraries.",
        itemDoc: "A credential library attached to a Target.",
      },
      action: "credential-libraries",
      summaries: "application_credential_libraries",
      current: {
        action: "credential-sources",
        wire: "brokered_credential_source_ids",
        summaries: "brokered_credential_sources",
        earlier: { wire: "application_credential_source_ids", summaries: "application_credential_sources" },
      },
      noun: "credential library",
    },
    default: [],
    doc:
      "Brokered sources: `clvlt_…`, and on current controllers `clvllt_…` and static credentials (`credup_…`, `credupd_…`, " +
      "`credp_…`, `credspk_…`, `credjson_…`); a set; reconciled with `:set-credential-libraries`, or `:set-credential-sources` on " +
      "current controllers (one call carrying both credential lists)",
  }),
  injectedApplicationCredentialSourceIds: field({
    kind: "ids",
    wire: "injected_application_credential_source_ids",
    association: {
      kind: "credential",
      // one action changes both credential lists: `:set-credential-sources` replaces both
      current: { action: "credential-sources", wire: "injected_application_credential_source_ids", summaries: "injected_application_credential_sources" },
      noun: "credential source",
    },
    default: [],
    doc:
      "Credential sources the worker injects into the session (`clvlt_…`, `clvsclt_…`, `clvllt_…`, `credup_…`, `credupd_…`, " +
      "`credspk_…`); a set; changed in the same `:set-credential-sources` as the brokered list, so neither ever clears the other. " +
      "HCP and Enterprise, on ssh and rdp Targets: an open-source controller refuses any on a tcp Target (its 500 is passed on)",
  }),
  sessionMaxSeconds: field({
    kind: "integer",
    wire: "session_max_seconds",
    proto: { wrapper: "uint32" },
    mask: true,
    default: 28800,
    check: (v: number) => (rules.isSessionMaxSeconds(v) ? undefined : `must be greater than zero and at most ${rules.MAX_INT32}`),
    doc: "> 0; controller default 28800",
  }),
  sessionConnectionLimit: field({
    kind: "integer",
    wire: "session_connection_limit",
    mask: true,
    default: -1,
    check: (v: number) => (rules.isConnectionLimit(v) ? undefined : "must be -1 (unlimited) or greater than zero"),
    doc: "-1 (unlimited) or > 0",
  }),
  workerFilter: field({
    kind: "string",
    wire: "worker_filter",
    mask: true,
    check: filterCheck,
    excludes: {
      fields: ["egressWorkerFilter", "ingressWorkerFilter"],
      why: "egressWorkerFilter and ingressWorkerFilter replace it (Boundary 0.12): move its expression to egressWorkerFilter",
    },
    doc:
      "Boundary filter expression, checked before any API call. Replaced by `egressWorkerFilter` in 0.12: a current controller keeps " +
      "and updates an existing one, but a new one is refused before any call, pointing to `egressWorkerFilter`; excludes the two " +
      "newer filters",
  }),
  egressWorkerFilter: field({
    kind: "string",
    wire: "egress_worker_filter",
    mask: true,
    check: filterCheck,
    doc: "Filter expression selecting the workers that reach the host",
  }),
  ingressWorkerFilter: field({
    kind: "string",
    wire: "ingress_worker_filter",
    mask: true,
    check: filterCheck,
    doc: "HCP and Enterprise: an open-source controller refuses any (its 400 is passed on, naming the field)",
  }),
  address: field({
    kind: "string",
    wire: "address",
    mask: true,
    trim: true,
    // an IPv6 address with or without brackets: the client sends the spelling the controller's release takes
    check: (v: string) => {
      const problem = rules.addressProblem(ipv6Literal(v) ?? v);
      return problem && ADDRESS_PROBLEMS[problem];
    },
    canonical: canonicalAddress,
    excludes: { fields: ["hostSetIds"], why: "a Target connects either to its address or to the hosts of its host sets, not both" },
    // brackets are taken too, and an address is compared as Boundary stores it (docs/fidelity-provider.md)
    doc: "Host name or IP address (IPv6 without brackets), no port (`defaultPort` carries it); excludes `hostSetIds` (checked before any " + "call)",
  }),
  defaultPort: field({
    kind: "integer",
    wire: "attributes.default_port",
    mask: true,
    check: (v: number) => (rules.isPort(v) ? undefined : "must be a port from 1 to 65535"),
    doc: "The tcp `attributes.default_port`, 1–65535; required by Boundary 0.9 and later",
  }),
  defaultClientPort: field({
    kind: "integer",
    wire: "attributes.default_client_port",
    mask: true,
    check: (v: number) => (rules.isPort(v) ? undefined : "must be a port from 1 to 65535"),
    doc: "`attributes.default_client_port`, the local port `boundary connect` listens on, 1–65535",
  }),
} as const satisfies Record<string, FieldSpec>;

/** The table's type: each entry's literal facts, for types derived from the table. */
export type TargetFields = typeof TARGET_FIELDS;
/** The name of an input field, as a program writes it. */
export type InputField = keyof TargetFields;
/** Every input field, in table order. */
export const INPUT_FIELDS = Object.keys(TARGET_FIELDS) as InputField[];

/** An id list: a field with an association (reconciled through the add/set/remove actions). */
export type ListField = { [K in InputField]: TargetFields[K] extends { association: Association } ? K : never }[InputField];
/** Every id list, in table order. */
export const LIST_FIELDS = INPUT_FIELDS.filter((f): f is ListField => !!spec(f).association);
/** A list's wire field as the store keeps it and the spec names it (`host_set_ids`). */
export type ListWire = TargetFields[ListField]["wire"];

/** An action's noun (`:set-host-sets`, `:set-host-sources`): an association's v0.4 or current action. */
export type ListNoun = NonNullable<Association["action"]> | Association["current"]["action"];

/** A list's association facts. */
export function associationOf(f: ListField): Association {
  return TARGET_FIELDS[f].association;
}

/** The TypeScript type of a field's value: its values (an enum's), or its kind's. */
export type ValueOf<F extends FieldSpec> = F extends { values: readonly (infer V)[] } ? V : z.infer<(typeof FIELD_KINDS)[F["kind"]]["zod"]>;

/** The fields a program must set: required, and not named by the provider. */
export type RequiredField = {
  [K in InputField]: TargetFields[K] extends { required: true } ? (TargetFields[K] extends { autoname: true } ? never : K) : never;
}[InputField];

/** True when a program must set the field. */
export function programMustSet(f: InputField): boolean {
  return !!spec(f).required && !spec(f).autoname;
}

/** The keys of a dotted path, split once per path (paths come from the table: a handful). */
const SEGMENTS = new Map<string, readonly string[]>();
/** The keys of a dotted wire path (`attributes.default_port` → `["attributes", "default_port"]`), for `getAt`. */
export function segments(path: string): readonly string[] {
  let s = SEGMENTS.get(path);
  if (!s) SEGMENTS.set(path, (s = path.split(".")));
  return s;
}

/** Reads a dotted wire path (`attributes.default_port`) from a wire object. */
export function getPath(o: unknown, path: string): unknown {
  return getAt(o, segments(path));
}

/**
 * Reads a path given as its keys (`segments`) from a wire object: for a reader that keeps the keys
 * (the state's, on every field of every answer) and so skips even the lookup of the split.
 */
export function getAt(o: unknown, keys: readonly string[]): unknown {
  // by index, not for…of: every field of every answer is read through here, mostly before V8 optimises it
  let cur = o;
  for (let i = 0; i < keys.length; i++) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[keys[i]!];
  }
  return cur;
}

/** Writes a dotted wire path, creating the objects on the way. */
export function setPath(o: Record<string, unknown>, path: string, value: unknown): void {
  const keys = segments(path);
  let cur = o;
  for (const key of keys.slice(0, -1)) cur = (cur[key] ??= {}) as Record<string, unknown>;
  cur[keys[keys.length - 1]!] = value;
}

/** Removes a dotted wire path; parents stay (Boundary sends `attributes: {}` when empty). */
export function deletePath(o: Record<string, unknown>, path: string): void {
  const keys = segments(path);
  const parent = keys.length === 1 ? o : getPath(o, keys.slice(0, -1).join("."));
  if (parent && typeof parent === "object") delete (parent as Record<string, unknown>)[keys[keys.length - 1]!];
}

/** The update_mask paths a PATCH may name, from the table. */
export const MASK_PATHS: readonly string[] = INPUT_FIELDS.filter((f) => (TARGET_FIELDS[f] as FieldSpec).mask).map((f) => TARGET_FIELDS[f].wire);

/** The field spec by input name, typed as the general shape (for code that walks the table). */
export function spec(f: InputField): FieldSpec {
  return TARGET_FIELDS[f];
}
