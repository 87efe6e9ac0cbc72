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
import { INPUT_FIELDS, TARGET_FIELDS, type FieldSpec, type InputField, type TargetFields } from "./target-fields";

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

export const ScopeSummary = z.looseObject({
  id: z.string(),
  type: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  parent_scope_id: z.string().optional(),
});
export type ScopeSummary = z.infer<typeof ScopeSummary>;

export const HostSetSummary = z.looseObject({
  id: z.string(),
  host_catalog_id: z.string().optional(),
});
export type HostSetSummary = z.infer<typeof HostSetSummary>;

export const CredentialLibrarySummary = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  credential_store_id: z.string().optional(),
  type: z.string().optional(),
});
export type CredentialLibrarySummary = z.infer<typeof CredentialLibrarySummary>;

/** An alias pointing to a Target, as its views show it (Boundary 0.16+: only the id and value). */
export const AliasSummary = z.looseObject({ id: z.string(), value: z.string() });
export type AliasSummary = z.infer<typeof AliasSummary>;

/** An alias a create makes with the Target (`with_aliases`, Boundary 0.16+): its value, scope and the host it authorizes sessions for. */
export const WithAlias = z.looseObject({
  value: z.string(),
  scope_id: z.string().optional(),
  attributes: z.looseObject({ authorize_session_arguments: z.looseObject({ host_id: z.string().optional() }).optional() }).optional(),
});
export type WithAlias = z.infer<typeof WithAlias>;

/** The output-only fields of a Target: sending one in a request is a "read only field" error. */
const OUTPUT_ONLY = {
  id: z.string(),
  scope: ScopeSummary.optional(),
  created_time: z.string().optional(),
  updated_time: z.string().optional(),
  host_sets: z.array(HostSetSummary).optional(),
  application_credential_libraries: z.array(CredentialLibrarySummary).optional(),
  authorized_actions: z.array(z.string()).optional(),
  aliases: z.array(AliasSummary).optional(),
};
export const READ_ONLY_FIELDS = Object.keys(OUTPUT_ONLY) as readonly (keyof typeof OUTPUT_ONLY)[];
/** The names current controllers (Boundary ≥ 0.11) use for the id lists and their summaries. */
const CURRENT_NAMES = {
  host_source_ids: z.array(z.string()).optional(),
  host_sources: z.array(HostSetSummary).optional(),
  brokered_credential_source_ids: z.array(z.string()).optional(),
  brokered_credential_sources: z.array(CredentialLibrarySummary).optional(),
  injected_application_credential_sources: z.array(CredentialLibrarySummary).optional(),
  // the brokered list's names in 0.5–0.13 (the field table's `earlier`)
  application_credential_source_ids: z.array(z.string()).optional(),
  application_credential_sources: z.array(CredentialLibrarySummary).optional(),
};
const OutputOnly = z.object({ ...OUTPUT_ONLY, ...CURRENT_NAMES });

// ---- the table's fields on the wire (types computed from the same table as the schemas) ----

type WireValue<F extends FieldSpec> = F["kind"] extends "ids" ? string[] : F["kind"] extends "integer" ? number : string;
/** `"a.b"` with value T → `{ a?: { b?: T } }`; `N` is added to the value, `P` to each parent (`null` in bodies). */
type AtPath<Path extends string, T, N, P> = Path extends `${infer H}.${infer R}` ? { [K in H]?: AtPath<R, T, N, P> | P } : { [K in Path]?: T | N };
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** The table's fields as wire keys: `Nullable` fields also accept null, and so do parents when `P` is null. */
type WireFields<Nullable extends InputField = never, P = never> = Intersect<
  { [K in InputField]: AtPath<TargetFields[K]["wire"], WireValue<TargetFields[K]>, K extends Nullable ? null : never, P> }[InputField]
>;
type Where<Has> = { [K in InputField]: TargetFields[K] extends Has ? K : never }[InputField];
/** Fields a body may send as null: id lists (null clears), nested values, and on PATCH every masked field. */
type NullableOnCreate = Where<{ kind: "ids" }> | Where<{ wire: `${string}.${string}` }>;
type NullableOnUpdate = NullableOnCreate | Where<{ mask: true }>;

type Shape = Record<string, z.ZodType>;

/**
 * A zod object for the table's fields: `value` gives each field's schema, `object` wraps each
 * nested level (`attributes`). Paths that share a parent share one nested object.
 */
function tableShape(value: (f: FieldSpec) => z.ZodType, object: (shape: Shape) => z.ZodType, only: (f: FieldSpec) => boolean = () => true): Shape {
  const nested = new Map<string, Shape>();
  const shape: Shape = {};
  for (const name of INPUT_FIELDS) {
    const f: FieldSpec = TARGET_FIELDS[name];
    if (!only(f)) continue;
    const [head, ...rest] = f.wire.split(".");
    if (rest.length === 0) shape[head!] = value(f);
    else {
      if (!nested.has(head!)) nested.set(head!, {});
      nested.get(head!)![rest.join(".")] = value(f);
    }
  }
  for (const [head, inner] of nested) shape[head] = object(inner);
  return shape;
}

const responseValue = (f: FieldSpec): z.ZodType =>
  (f.kind === "ids" ? z.array(z.string()) : f.kind === "integer" ? z.number().int() : z.string()).optional();

/** A Target's known fields (without the index signature a loose response adds). */
export type TargetFieldsOnWire = z.infer<typeof OutputOnly> & WireFields & { scope_id: string; version: number };

/** A Target as the API returns it. Zero values are omitted on the wire, hence the optionals. */
export const Target = z.looseObject({
  ...OUTPUT_ONLY,
  ...CURRENT_NAMES,
  ...tableShape(responseValue, (s) => z.looseObject(s).optional()),
  scope_id: z.string(),
  version: z.number().int(),
}) as unknown as z.ZodType<TargetFieldsOnWire & { [key: string]: unknown }>;
export type Target = z.infer<typeof Target>;

/**
 * A list response, or one page of it. v0.4 answers `{items}` (`{}` when empty); from 0.15 lists are
 * paginated: `response_type` is "delta" while more pages follow (ask again with `list_token`) and
 * "complete" on the last; an empty list has no `items`.
 */
export const TargetList = z.looseObject({
  items: z.array(Target).optional().transform((items) => items ?? []),
  response_type: z.string().optional(),
  list_token: z.string().optional(),
  est_item_count: z.number().optional(),
});
export type TargetList = z.infer<typeof TargetList>;

// ---- request bodies ----

const requestValue = (nullable: (f: FieldSpec) => boolean) => (f: FieldSpec): z.ZodType => {
  const base = f.kind === "ids" ? z.array(z.string()) : f.kind === "integer" ? z.number().int() : z.string();
  return (nullable(f) ? base.nullable() : base).optional();
};

/** Create body: every input field (id lists may be null), `version` (rejected unless 0), and the aliases to make with it (0.16+). */
export const CreateTargetRequest = z
  .object({
    ...tableShape(requestValue((f) => f.kind === "ids" || f.wire.includes(".")), (s) => z.object(s).strict().optional()),
    version: z.number().int().optional(),
    with_aliases: z.array(WithAlias).optional(),
  })
  .strict() as unknown as z.ZodType<WireFields<NullableOnCreate> & { version?: number; with_aliases?: WithAlias[] }>;
export type CreateTargetRequest = z.infer<typeof CreateTargetRequest>;

/** PATCH body: the same fields; `null` clears a masked field. */
export const UpdateTargetRequest = z
  .object({
    ...tableShape(requestValue((f) => !!f.mask || f.kind === "ids"), (s) => z.object(s).strict().nullable().optional()),
    version: z.number().int().optional(),
  })
  .strict() as unknown as z.ZodType<WireFields<NullableOnUpdate, null> & { version?: number }>;
export type UpdateTargetRequest = z.infer<typeof UpdateTargetRequest>;

/**
 * Body of an add/set/remove action: the version and the id lists under `names` (the fields the
 * release's route reads, see the release table). `strict` names unknown keys in a 400; otherwise
 * they are discarded, as Boundary's marshaler does (an old name is silently dropped).
 */
export function actionRequest(names: readonly string[], strict: boolean): z.ZodType<{ id?: string; version?: number } & Record<string, string[] | null | undefined>> {
  const shape = z.object({ id: z.string().optional(), version: z.number().int().optional(), ...Object.fromEntries(names.map((n) => [n, z.array(z.string()).nullable().optional()])) });
  return (strict ? shape.strict() : shape) as unknown as z.ZodType<{ id?: string; version?: number } & Record<string, string[] | null | undefined>>;
}

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
export type AuthorizeSessionRequest = z.infer<typeof AuthorizeSessionRequest>;

/** A brokered credential: `credential_library` up to Boundary 0.8, `credential_source` from 0.6 (both in 0.6–0.8). */
export const Credential = z.looseObject({
  credential_library: CredentialLibrarySummary.optional(),
  credential_source: CredentialLibrarySummary.optional(),
  secret: z.looseObject({
    raw: z.string(),
    decoded: z.record(z.string(), z.unknown()).optional(),
  }),
});
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
export type SessionAuthorization = z.infer<typeof SessionAuthorization>;

/** One offending field of a request, as Boundary names it in `details.request_fields`. */
export const RequestField = z.looseObject({ name: z.string(), description: z.string() });
export type RequestField = z.infer<typeof RequestField>;

/** Boundary's error body. `kind` is a gRPC code name such as `InvalidArgument`. */
export const ErrorBody = z.looseObject({
  kind: z.string(),
  message: z.string(),
  op: z.string().optional(),
  details: z.looseObject({ request_fields: z.array(RequestField).optional() }).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
