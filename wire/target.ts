/**
 * The Target API's wire contract (spec: target-and-health-api.md), as zod schemas.
 *
 * Both sides use these: the controller types its responses with them and validates requests with
 * the request schemas; the client parses every response with the response schemas. Types are
 * inferred (`z.infer`) so there is no hand-kept twin. Response objects are `looseObject`: a newer
 * Boundary may add fields and a client must not break on them.
 */
import { z } from "zod";

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

/** tcp attributes: the only kind of Target Boundary has at v0.4. */
export const TcpAttributes = z.looseObject({
  default_port: z.number().int().optional(),
});
export type TcpAttributes = z.infer<typeof TcpAttributes>;

/** A Target as the API returns it. Zero values are omitted on the wire, hence the optionals. */
export const Target = z.looseObject({
  id: z.string(),
  scope_id: z.string(),
  scope: ScopeSummary.optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  created_time: z.string().optional(),
  updated_time: z.string().optional(),
  version: z.number().int(),
  type: z.string().optional(),
  host_set_ids: z.array(z.string()).optional(),
  host_sets: z.array(HostSetSummary).optional(),
  session_max_seconds: z.number().int().optional(),
  session_connection_limit: z.number().int().optional(),
  worker_filter: z.string().optional(),
  application_credential_library_ids: z.array(z.string()).optional(),
  application_credential_libraries: z.array(CredentialLibrarySummary).optional(),
  attributes: TcpAttributes.optional(),
  authorized_actions: z.array(z.string()).optional(),
});
export type Target = z.infer<typeof Target>;

/** List response. Real Boundary answers `{}` for an empty list; ours always sends `items`. */
export const TargetList = z.looseObject({
  items: z.array(Target).optional().transform((items) => items ?? []),
});
export type TargetList = z.infer<typeof TargetList>;

export const Credential = z.looseObject({
  credential_library: CredentialLibrarySummary,
  secret: z.looseObject({
    raw: z.string(),
    decoded: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type Credential = z.infer<typeof Credential>;

export const SessionAuthorization = z.looseObject({
  session_id: z.string(),
  target_id: z.string(),
  scope: ScopeSummary.optional(),
  created_time: z.string().optional(),
  user_id: z.string().optional(),
  host_set_id: z.string().optional(),
  host_id: z.string().optional(),
  type: z.string().optional(),
  authorization_token: z.string(),
  endpoint: z.string().optional(),
  credentials: z.array(Credential).optional(),
});
export type SessionAuthorization = z.infer<typeof SessionAuthorization>;

/** Boundary's error body. `kind` is a gRPC code name such as `InvalidArgument`. */
export const ErrorBody = z.looseObject({
  kind: z.string(),
  message: z.string(),
  op: z.string().optional(),
  details: z
    .looseObject({
      request_fields: z
        .array(z.looseObject({ name: z.string(), description: z.string() }))
        .optional(),
    })
    .optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
export type RequestField = { name: string; description: string };

// ---- request bodies (strict: an unknown key is a client mistake the server names) ----

const idList = z.array(z.string()).nullable();

/** Fields a client may write on create; every other Target field is output only. */
export const TargetWritable = z
  .object({
    scope_id: z.string(),
    name: z.string(),
    description: z.string(),
    version: z.number().int(),
    type: z.string(),
    host_set_ids: idList,
    session_max_seconds: z.number().int(),
    session_connection_limit: z.number().int(),
    worker_filter: z.string(),
    application_credential_library_ids: idList,
    attributes: z.object({ default_port: z.number().int().nullable().optional() }).strict(),
  })
  .partial()
  .strict();
export type TargetWritable = z.infer<typeof TargetWritable>;

/** Create body: `scope_id`, `name` and `type` are required (checked with a clear message later). */
export const CreateTargetRequest = TargetWritable;
export type CreateTargetRequest = TargetWritable;

/** PATCH body: the same fields; `null` clears a masked field. */
export const UpdateTargetRequest = z
  .object({
    ...TargetWritable.shape,
    description: z.string().nullable(),
    name: z.string().nullable(),
    session_max_seconds: z.number().int().nullable(),
    session_connection_limit: z.number().int().nullable(),
    worker_filter: z.string().nullable(),
    attributes: z.object({ default_port: z.number().int().nullable().optional() }).strict().nullable(),
  })
  .partial()
  .strict();
export type UpdateTargetRequest = z.infer<typeof UpdateTargetRequest>;

export const HostSetsRequest = z
  .object({ id: z.string().optional(), version: z.number().int().optional(), host_set_ids: idList.optional() })
  .strict();
export type HostSetsRequest = z.infer<typeof HostSetsRequest>;

export const CredentialLibrariesRequest = z
  .object({
    id: z.string().optional(),
    version: z.number().int().optional(),
    application_credential_library_ids: idList.optional(),
  })
  .strict();
export type CredentialLibrariesRequest = z.infer<typeof CredentialLibrariesRequest>;

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

/** Fields of a Target that are output only: sending one is a "read only field" error. */
export const READ_ONLY_FIELDS = [
  "id",
  "scope",
  "created_time",
  "updated_time",
  "host_sets",
  "application_credential_libraries",
  "authorized_actions",
] as const;

/** Actions on a Target, in Boundary's order (it reports `authorized_actions` in this order). */
export const TARGET_ACTIONS = [
  "no-op",
  "read",
  "update",
  "delete",
  "add-host-sets",
  "set-host-sets",
  "remove-host-sets",
  "add-credential-libraries",
  "set-credential-libraries",
  "remove-credential-libraries",
  "authorize-session",
] as const;
export type TargetAction = (typeof TARGET_ACTIONS)[number];

/** Defaults a real controller applies when a field is unset or cleared. */
export const TARGET_DEFAULTS = { session_max_seconds: 28800, session_connection_limit: -1 } as const;
