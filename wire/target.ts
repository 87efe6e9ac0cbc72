/**
 * The Target API's wire contract (spec: target-and-health-api.md), as zod schemas.
 *
 * Both sides use these: the controller types its responses with them and validates requests with
 * the request schemas; the client parses every response with the response schemas. The Target's
 * own fields and the request bodies are built from the field table (`target-fields.ts`), and their
 * types are inferred from those schemas. Response objects are loose: a newer Boundary may add
 * fields and a client must not break on them. Request bodies are strict: an unknown key is a
 * client mistake the server names.
 */
import { z } from "zod";
import { FIELD_KINDS, kindOf } from "./field-kinds";
import {
  INPUT_FIELDS,
  LIST_FIELDS,
  REFERENTS,
  associationOf,
  spec,
  type FieldSpec,
  type InputField,
  type EarlierNames,
  type ListField,
  type ListKind,
  type TargetFields,
} from "./target-fields";

/** Id prefixes Boundary uses for the resources this API names. */
export const Prefix = {
  target: "ttcp_",
  project: "p_",
  org: "o_",
  hostSet: "hsst_",
  host: "hst_",
  credentialLibrary: "clvlt_",
  session: "s_",
} as const;

/** A scope as a Target or a session authorization embeds it. */
export const ScopeSummary = z.looseObject({
  id: z.string(),
  type: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  parent_scope_id: z.string().optional(),
});
/** A scope summary's fields. */
export type ScopeSummary = z.infer<typeof ScopeSummary>;

/** A credential library or other credential source, as authorize-session's credentials name their origin. */
export const CredentialLibrarySummary = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  credential_store_id: z.string().optional(),
  type: z.string().optional(),
});
/** A credential source summary's fields. */
export type CredentialLibrarySummary = z.infer<typeof CredentialLibrarySummary>;

/** An alias pointing to a Target, as its views show it (Boundary 0.16+: only the id and value). */
export const AliasSummary = z.looseObject({ id: z.string(), value: z.string() });
/** An alias summary's fields. */
export type AliasSummary = z.infer<typeof AliasSummary>;

/** An alias a create makes with the Target (`with_aliases`, Boundary 0.16+): its value, scope and the host it authorizes sessions for. */
export const WithAlias = z.looseObject({
  value: z.string(),
  scope_id: z.string().optional(),
  attributes: z.looseObject({ authorize_session_arguments: z.looseObject({ host_id: z.string().optional() }).optional() }).optional(),
});
/** A `with_aliases` entry's fields. */
export type WithAlias = z.infer<typeof WithAlias>;

// ---- the id lists' names and summaries, from the field table's association entries ----

type Referents = typeof REFERENTS;
type Assoc<K extends ListField> = TargetFields[K]["association"];
/** What a Target's summary of one `Kind` resource carries: its id, and the fields REFERENTS names. */
type SummaryShape<Kind extends ListKind> = { id: z.ZodString } & {
  [P in keyof Referents[Kind]["summary"] as Referents[Kind]["summary"][P] extends { wire: infer W extends string } ? W : never]: z.ZodOptional<z.ZodString>;
};
type SummaryList<K extends ListField> = z.ZodOptional<z.ZodArray<z.ZodObject<SummaryShape<Assoc<K>["kind"]>, z.core.$loose>>>;
type IdList = z.ZodOptional<z.ZodArray<z.ZodString>>;
type Names<K extends ListField> = Assoc<K>["current"] | (Assoc<K>["current"] extends { earlier: infer E extends EarlierNames } ? E : never);
/** The v0.4 summaries' fields (`host_sets`): output-only, a request carrying one is refused as "read only". */
type V04Summaries = { [K in ListField as Assoc<K> extends { summaries: infer S extends string } ? S : never]: SummaryList<K> };
/** The names later releases gave the lists and their summaries (`host_source_ids`, `host_sources`). */
type LaterNames = { [K in ListField as Names<K>["wire"]]: IdList } & { [K in ListField as Names<K>["summaries"]]: SummaryList<K> };

/** A Target's summary of one resource of a kind: `{id, host_catalog_id}` for a host set. */
function summary(kind: ListKind) {
  const summary: Readonly<Record<string, { wire: string }>> = REFERENTS[kind].summary;
  return z.looseObject({ id: z.string(), ...Object.fromEntries(Object.values(summary).map((f) => [f.wire, z.string().optional()])) });
}

const V04_SUMMARIES: Shape = {};
const LATER_NAMES: Shape = {};
for (const f of LIST_FIELDS) {
  const a = associationOf(f);
  const summaries = z.array(summary(a.kind)).optional();
  if (a.summaries) V04_SUMMARIES[a.summaries] = summaries;
  for (const n of [a.current, ...(a.current.earlier ? [a.current.earlier] : [])]) {
    LATER_NAMES[n.wire] = z.array(z.string()).optional();
    LATER_NAMES[n.summaries] = summaries;
  }
}

/** The output-only fields of a Target: sending one in a request is a "read only field" error. */
const OUTPUT_ONLY = {
  id: z.string(),
  scope: ScopeSummary.optional(),
  created_time: z.string().optional(),
  updated_time: z.string().optional(),
  ...(V04_SUMMARIES as V04Summaries),
  authorized_actions: z.array(z.string()).optional(),
  aliases: z.array(AliasSummary).optional(),
};
/** The keys a request may not carry: the output-only fields. */
export const READ_ONLY_FIELDS = Object.keys(OUTPUT_ONLY) as readonly (keyof typeof OUTPUT_ONLY)[];

/** The keys every Target view carries that are no input's, list's or alias's: the id, scope, times, version and actions. */
export const VIEW_ONLY_KEYS: readonly string[] = [...READ_ONLY_FIELDS.filter((k) => !(k in V04_SUMMARIES) && k !== "aliases"), "version"];

// ---- the table's fields on the wire: the zod shapes are built from the table, and so are their static types ----

type Wire<K extends InputField> = TargetFields[K]["wire"];
type Zod<K extends InputField> = (typeof FIELD_KINDS)[TargetFields[K]["kind"]]["zod"];
/** One field's schema: optional, and nullable when `K` is among `N`. */
type Leaf<K extends InputField, N> = z.ZodOptional<K extends N ? z.ZodNullable<Zod<K>> : Zod<K>>;
type Parent = { [K in InputField]: Wire<K> extends `${infer H}.${string}` ? H : never }[InputField];
type Children<H extends string, N> = { [K in InputField as Wire<K> extends `${H}.${infer R}` ? R : never]: Leaf<K, N> };
/** How a nested level (`attributes`) is wrapped: in a response (loose), a create body (strict) or a PATCH body (strict, null clears it). */
interface Wrap<C extends z.core.$ZodLooseShape> {
  response: z.ZodOptional<z.ZodObject<C, z.core.$loose>>;
  create: z.ZodOptional<z.ZodObject<C, z.core.$strict>>;
  update: z.ZodOptional<z.ZodNullable<z.ZodObject<C, z.core.$strict>>>;
}
type Where<Has> = { [K in InputField]: TargetFields[K] extends Has ? K : never }[InputField];
/** The fields each kind of message may send as null: a create's id lists (null clears) and nested values; a PATCH's also every masked field. */
interface NullableIn {
  response: never;
  create: Where<{ kind: "ids" }> | Where<{ wire: `${string}.${string}` }>;
  update: Where<{ kind: "ids" }> | Where<{ wire: `${string}.${string}` }> | Where<{ mask: true }>;
}
type Message = keyof NullableIn;
/** The zod shape of the table's fields in one kind of message. */
type TableShape<M extends Message> = { [K in InputField as Wire<K> extends `${string}.${string}` ? never : Wire<K>]: Leaf<K, NullableIn[M]> } & {
  [H in Parent]: Wrap<Children<H, NullableIn[M]>>[M];
};

type Shape = Record<string, z.ZodType>;

/** Whether a field is nullable in a message (the runtime twin of NullableIn, checked against it by the build: both read the same facts). */
const NULLABLE: Record<Message, (f: FieldSpec) => boolean> = {
  response: () => false,
  create: (f) => f.kind === "ids" || f.wire.includes("."),
  update: (f) => f.kind === "ids" || f.wire.includes(".") || !!f.mask,
};
const WRAP: Record<Message, (s: Shape) => z.ZodType> = {
  response: (s) => z.looseObject(s).optional(),
  create: (s) => z.strictObject(s).optional(),
  update: (s) => z.strictObject(s).nullable().optional(),
};

/**
 * The zod shape of the table's fields in one kind of message: each field under its wire path,
 * paths that share a parent (`attributes`) in one nested object wrapped as the message wraps it.
 */
function tableShape<M extends Message>(message: M): TableShape<M> {
  const nested = new Map<string, Shape>();
  const shape: Shape = {};
  for (const name of INPUT_FIELDS) {
    const f = spec(name);
    const base = kindOf(f.kind).zod;
    const value = (NULLABLE[message](f) ? base.nullable() : base).optional();
    const [head, ...rest] = f.wire.split(".");
    if (rest.length === 0) shape[head!] = value;
    else {
      if (!nested.has(head!)) nested.set(head!, {});
      nested.get(head!)![rest.join(".")] = value;
    }
  }
  for (const [head, inner] of nested) shape[head] = WRAP[message](inner);
  return shape as TableShape<M>;
}

const TARGET_SHAPE = {
  ...OUTPUT_ONLY,
  ...(LATER_NAMES as LaterNames),
  ...tableShape("response"),
  scope_id: z.string(),
  version: z.number().int(),
};

/** A Target's known fields (without the index signature a loose response adds). */
export type TargetFieldsOnWire = z.infer<z.ZodObject<typeof TARGET_SHAPE>>;

/** A Target as the API returns it. Zero values are omitted on the wire, hence the optionals. */
export const Target = z.looseObject(TARGET_SHAPE);
/** A Target's fields, and any a newer Boundary adds. */
export type Target = z.infer<typeof Target>;

/**
 * A list response, or one page of it. v0.4 answers `{items}` (`{}` when empty); from 0.15 lists are
 * paginated: `response_type` is "delta" while more pages follow (ask again with `list_token`) and
 * "complete" on the last; an empty list has no `items` (read it as none). No transform fills it:
 * a page of the exact shape is then taken as parsed, without zod's copy of its 1,000 Targets
 * (wire/exact-check.ts compiles no transform).
 */
export const TargetList = z.looseObject({
  items: z.array(Target).optional(),
  response_type: z.string().optional(),
  list_token: z.string().optional(),
  est_item_count: z.number().optional(),
});
/** A list answer's fields (`items` absent on an empty page). */
export type TargetList = z.infer<typeof TargetList>;

// ---- request bodies ----

/** Create body: every input field (id lists may be null), `version` (rejected unless 0), and the aliases to make with it (0.16+). */
export const CreateTargetRequest = z.strictObject({
  ...tableShape("create"),
  version: z.number().int().optional(),
  with_aliases: z.array(WithAlias).optional(),
});
/** A create body's fields. */
export type CreateTargetRequest = z.infer<typeof CreateTargetRequest>;

/** PATCH body: the same fields; `null` clears a masked field. */
export const UpdateTargetRequest = z.strictObject({
  ...tableShape("update"),
  version: z.number().int().optional(),
});
/** A PATCH body's fields. */
export type UpdateTargetRequest = z.infer<typeof UpdateTargetRequest>;

/** An action body's fields: `id`, `version`, and the id lists under the names the route reads (see `idsUnder`). */
export type ActionRequest = { id?: string; version?: number; [list: string]: string[] | string | number | null | undefined };

/**
 * Body of an add/set/remove action: the version and the id lists under `names` (the fields the
 * release's route reads, see the release table). `strict` names unknown keys in a 400; otherwise
 * they are discarded, as Boundary's marshaler does (an old name is silently dropped).
 */
export function actionRequest(names: readonly string[], strict: boolean): z.ZodType<ActionRequest> {
  const lists = Object.fromEntries(names.map((n) => [n, z.array(z.string()).nullable().optional()]));
  const shape = { ...lists, id: z.string().optional(), version: z.number().int().optional() };
  return strict ? z.strictObject(shape) : z.object(shape);
}

/** The ids a decoded action body carries under one of its list names: the list, null (sent as null) or undefined (not sent). */
export function idsUnder(body: ActionRequest, name: string): string[] | null | undefined {
  const v = body[name];
  return Array.isArray(v) || v === null ? v : undefined;
}

/** authorize-session's body: the Target by id (in the path) or by name with a scope, and optionally the host. */
export const AuthorizeSessionRequest = z
  .object({
    id: z.string(),
    name: z.string(),
    scope_id: z.string(),
    scope_name: z.string(),
    host_id: z.string(),
  })
  .partial()
  .strict();
/** authorize-session's body fields. */
export type AuthorizeSessionRequest = z.infer<typeof AuthorizeSessionRequest>;

/** A brokered credential: `credential_library` up to Boundary 0.8, `credential_source` from 0.6 (both in 0.6–0.8). */
export const Credential = z.looseObject({
  credential_library: CredentialLibrarySummary.optional(),
  // a static credential's source: `type: "static"` and the credential's type (0.10+); the id is empty (left out) for one generated
  credential_source: CredentialLibrarySummary.extend({ id: z.string().optional(), credential_type: z.string().optional() }).optional(),
  /** A typed credential's fields (`username`, `password`, …) beside its secret (0.10+): secret too. */
  credential: z.record(z.string(), z.unknown()).optional(),
  secret: z.looseObject({
    raw: z.string(),
    decoded: z.record(z.string(), z.unknown()).optional(),
  }),
});
/** A brokered credential's fields. */
export type Credential = z.infer<typeof Credential>;

/**
 * authorize-session's answer. `connection_limit`, `endpoint_port` and `expiration` come from
 * Boundary 0.15.0, `session_recording_id` from 0.16.0 and only when the session is recorded (an
 * Enterprise feature); zero values are left out, as protojson leaves them out.
 */
export const SessionAuthorization = z.looseObject({
  session_id: z.string(),
  target_id: z.string(),
  scope: ScopeSummary.optional(),
  created_time: z.string().optional(),
  user_id: z.string().optional(),
  host_set_id: z.string().optional(),
  host_id: z.string().optional(),
  type: z.string().optional(),
  /** Base58 of the marshaled protobuf `SessionAuthorizationData` (certificate and private key included): secret. */
  authorization_token: z.string(),
  /** -1 is unlimited. */
  connection_limit: z.number().int().optional(),
  endpoint: z.string().optional(),
  endpoint_port: z.number().int().optional(),
  expiration: z.string().optional(),
  credentials: z.array(Credential).optional(),
  session_recording_id: z.string().optional(),
});
/** authorize-session's answer fields. */
export type SessionAuthorization = z.infer<typeof SessionAuthorization>;

/** One offending field of a request, as Boundary names it in `details.request_fields`. */
export const RequestField = z.looseObject({ name: z.string(), description: z.string() });
/** One offending field: its name and what is wrong. */
export type RequestField = z.infer<typeof RequestField>;

/** Boundary's error body. `kind` is a gRPC code name such as `InvalidArgument`. */
export const ErrorBody = z.looseObject({
  kind: z.string(),
  message: z.string(),
  op: z.string().optional(),
  details: z.looseObject({ request_fields: z.array(RequestField).optional() }).optional(),
});
/** Boundary's error body fields. */
export type ErrorBody = z.infer<typeof ErrorBody>;
