/**
 * Functions for Pulumi programs: `authorizeSession` and `getTargets`. They run in the program
 * itself (not in the provider host), at every `pulumi preview` and `pulumi up` once their
 * arguments are known, with the stack's `boundary:addr` / `boundary:token` or the BOUNDARY_*
 * environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { SessionAuthorization, Target } from "../wire/target";
import { LIST_FIELDS, associationOf, getPath, type ListField, type TargetFields } from "../wire/target-fields";
import { firstReleaseWhere } from "../wire/releases";
import { createHash } from "node:crypto";
import { BoundaryClient, findTargets, resolveSettings, type BoundaryClientOptions, type TargetIdentity } from "./client";
import { ANSWER_NAMES } from "./client/list-check";
import { PACKAGE, providerOptions } from "./config";
import { FunctionArgumentError } from "./plugin/errors";
import { stateFromTarget, type TargetState } from "./resource/state";

/** authorizeSession's arguments, resolved: the Target's identity and, optionally, the host. */
export type AuthorizeSessionArgs = TargetIdentity & { hostId?: string };

/**
 * authorizeSession's arguments as both routes receive them (a program's object, the plugin's
 * invoke Struct): flat and all optional; `decodeAuthorizeSessionArgs` applies the rule between them.
 * The package schema's function inputs are generated from it.
 */
export const AuthorizeSessionArgsSchema = z.object({
  targetId: z.string().optional().describe("Target id."),
  name: z.string().optional().describe("Target name (with scopeId or scopeName)."),
  scopeId: z.string().optional().describe("Scope id."),
  scopeName: z.string().optional().describe("Scope name."),
  hostId: z.string().optional().describe("A host of the Target's host sets."),
});

/**
 * The one decoder of authorizeSession's arguments: the Target by `targetId`, else by `name` with
 * `scopeId` or `scopeName`. Throws a FunctionArgumentError naming the argument and the rule, before any API call.
 */
export function decodeAuthorizeSessionArgs(raw: unknown): AuthorizeSessionArgs {
  const parsed = AuthorizeSessionArgsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new FunctionArgumentError(`authorizeSession: ${issue.path.join(".") || "the arguments"} ${issue.message}`);
  }
  const { targetId, name, scopeId, scopeName, hostId } = parsed.data;
  const host = hostId === undefined ? {} : { hostId };
  if (targetId) return { targetId, ...host };
  if (!name)
    throw new FunctionArgumentError("authorizeSession: name is required when targetId is not given (the Target by id, or by name with scopeId or scopeName)");
  if (scopeId) return { name, scopeId, ...host };
  if (scopeName) return { name, scopeName, ...host };
  throw new FunctionArgumentError("authorizeSession: scopeId or scopeName is required with name (names are unique within a project only)");
}

/** getTargets' arguments, as both routes receive them; the package schema's function inputs are generated from it. */
export const GetTargetsArgsSchema = z.object({
  scopeId: z.string().describe("Scope id."),
  recursive: z.boolean().optional().describe("Include every project below the scope."),
  filter: z.string().optional().describe('Filter, e.g. `"/item/name" matches "^web"`.'),
  readLists: z
    .boolean()
    .optional()
    .describe(
      "Read each Target found (one more request per Target) to report its id lists (`hostSetIds`, the credential lists and their " +
        "summaries). Without it those are left out: Boundary's list answers do not carry them, and an empty list would be a guess.",
    ),
});

/** The query `pulumi do boundary:index:Target list` takes (the schema's `listInputs`): getTargets' without `readLists` (List returns ids and names only). */
export const ListQuerySchema = GetTargetsArgsSchema.omit({ readLists: true });

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };
/** The target by id, or by name with a scope id or scope name; each field may be an Output. */
export type AuthorizeSessionInputs =
  | Inputs<{ targetId: string; hostId?: string }>
  | Inputs<{ name: string; scopeId: string; hostId?: string }>
  | Inputs<{ name: string; scopeName: string; hostId?: string }>;

const CredentialLibraryView = z
  .object({
    id: z.string().describe("Library id."),
    name: z.string().optional().describe("Name."),
    description: z.string().optional().describe("Description."),
    credentialStoreId: z.string().optional().describe("Credential store id."),
    type: z.string().optional().describe('Source type (`"vault"`, `"static"`, …).'),
    credentialType: z.string().optional().describe("The credential's type (`username_password`, `ssh_private_key`, …), when the source has one."),
  })
  .meta({ id: "CredentialLibrary", description: "The library that brokered a credential." });

const CredentialSecret = z
  .object({
    raw: z.string().describe("Base64 of the provider's bytes."),
    decoded: z.record(z.string(), z.unknown()).optional().describe("The decoded JSON object."),
  })
  .meta({ id: "CredentialSecret", description: "A credential secret." });

/** A credential brokered for a session. */
export const SessionCredential = z
  .object({
    credentialLibrary: CredentialLibraryView.describe("The library that generated it."),
    secret: CredentialSecret.describe("The secret."),
    credential: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("A typed credential's fields (`username`, `password`, …), as a static or typed source gives them beside the secret."),
  })
  .meta({ id: "SessionCredential", description: "A credential brokered for a session." });
/** A brokered credential's fields. */
export type SessionCredential = z.infer<typeof SessionCredential>;

/** The release that added a field to authorize-session's answer (`0.15` for `endpoint_port`), for its description. */
const sessionFieldSince = (name: string) => firstReleaseWhere((r) => r.authorizeSession.fields.includes(name))!.release;

/** A session authorization as programs (and the plugin's invoke) see it, camelCase. */
export const SessionView = z.object({
  sessionId: z.string().describe("Session id."),
  targetId: z.string().describe("Target id."),
  scopeId: z.string().optional().describe("Scope id."),
  createdTime: z.string().optional().describe("Creation time."),
  userId: z.string().optional().describe("User id."),
  hostSetId: z.string().optional().describe("Host set of the chosen host."),
  hostId: z.string().optional().describe("Chosen host."),
  type: z.string().optional().describe("Session type."),
  endpoint: z.string().optional().describe("Endpoint the worker connects to."),
  endpointPort: z
    .number()
    .int()
    .optional()
    .describe(`Port the worker connects to (Boundary ${sessionFieldSince("endpoint_port")}+).`),
  connectionLimit: z
    .number()
    .int()
    .optional()
    .describe(`Connections the session allows, -1 for unlimited (Boundary ${sessionFieldSince("connection_limit")}+).`),
  expiration: z
    .string()
    .optional()
    .describe(`When the session expires, RFC 3339 (Boundary ${sessionFieldSince("expiration")}+).`),
  sessionRecordingId: z
    .string()
    .optional()
    .describe(`The session's recording, when the Target records sessions (Boundary Enterprise ${sessionFieldSince("session_recording_id")}+).`),
  // it holds the session certificate's private key, which is why no other output carries the key
  authorizationToken: z.string().describe("Bearer credential for the proxy (`boundary connect -authz-token`); holds the session's private key."),
  credentials: z.array(SessionCredential).describe("Brokered credentials."),
});
/** A session authorization's fields, camelCase. */
export type SessionView = z.infer<typeof SessionView>;

/** The fields of a session authorization that are secret, on every route. */
export const SESSION_SECRET_FIELDS = ["authorizationToken", "credentials"] as const satisfies readonly (keyof SessionView)[];
const isSecretField = (k: string): boolean => (SESSION_SECRET_FIELDS as readonly string[]).includes(k);

/** What `authorizeSession` returns: each field of the session as an Output (two of them secret). */
export type AuthorizeSessionResult = { [K in keyof SessionView]-?: pulumi.Output<SessionView[K]> };

/**
 * One client per resolved settings for the life of the process, so a login is made once and its
 * token reused by every evaluation (a client per evaluation would log in each time, leaving a live
 * token behind each). Keyed by a digest of the settings: no key holds a token or a password.
 */
const clients = new Map<string, BoundaryClient>();

/** The provider's settings for functions: explicit options, else stack config, else BOUNDARY_* (read when called). */
function clientFor(options: BoundaryClientOptions | undefined, stack: StackConfig): BoundaryClient {
  const fromStack = providerOptions((key) => stack[key]);
  const merged = { ...fromStack, ...options };
  for (const k of Object.keys(merged) as (keyof BoundaryClientOptions)[])
    if (merged[k] === undefined) merged[k] = fromStack[k as keyof typeof fromStack] as never;
  const key = createHash("sha256")
    .update(JSON.stringify(resolveSettings(merged, process.env)))
    .digest("hex");
  let client = clients.get(key);
  // idle keep-alive connections do not hold the process open (undici unrefs them), so the client is never closed
  if (!client) clients.set(key, (client = new BoundaryClient(merged)));
  return client;
}

/** The stack config keys functions read (the token and the password as secrets). */
type StackConfig = Partial<Record<"addr" | "token" | "apiGeneration" | "authMethodId" | "authMethodLoginName" | "authMethodPassword", string>>;

function stackConfig(): pulumi.Output<StackConfig> {
  const cfg = new pulumi.Config(PACKAGE);
  return pulumi.all({
    addr: cfg.get("addr"),
    token: cfg.getSecret("token"),
    authMethodId: cfg.get("authMethodId"),
    authMethodLoginName: cfg.get("authMethodLoginName"),
    authMethodPassword: cfg.getSecret("authMethodPassword"),
  });
}

/**
 * Authorizes a session on a Target, by id or by name within a scope. Each evaluation creates a
 * real session on the controller, and it is evaluated at every preview and update: use it where a
 * program really needs a session (an endpoint to export, a connection check), not as a lookup.
 * `authorizationToken` and `credentials` are secret outputs.
 */
export function authorizeSession(args: AuthorizeSessionInputs | pulumi.Input<AuthorizeSessionArgs>, options?: BoundaryClientOptions): AuthorizeSessionResult {
  const raw: pulumi.Output<SessionAuthorization> = pulumi.all([pulumi.output(args), stackConfig()]).apply(async ([a, stack]) => {
    const client = clientFor(options, stack);
    const { hostId, ...identity } = decodeAuthorizeSessionArgs(a);
    return await client.authorizeSession(identity, hostId);
  });
  // The stack token may be secret, which would make every field secret; only the secret fields are.
  const view = raw.apply((r) => sessionView(r as SessionAuthorization));
  const field = <K extends keyof SessionView>(k: K) => {
    const value = view.apply((v) => v[k]);
    return (isSecretField(k) ? pulumi.secret(value) : pulumi.unsecret(value)) as pulumi.Output<SessionView[K]>;
  };
  return Object.fromEntries(Object.keys(SessionView.shape).map((k) => [k, field(k as keyof SessionView)])) as AuthorizeSessionResult;
}

/** The one mapper from the API's session authorization to what programs (and the plugin) return. */
export function sessionView(r: SessionAuthorization): SessionView {
  return {
    sessionId: r.session_id,
    targetId: r.target_id,
    scopeId: r.scope?.id,
    createdTime: r.created_time,
    userId: r.user_id,
    hostSetId: r.host_set_id,
    hostId: r.host_id,
    type: r.type,
    endpoint: r.endpoint,
    endpointPort: r.endpoint_port,
    connectionLimit: r.connection_limit,
    expiration: r.expiration,
    sessionRecordingId: r.session_recording_id,
    authorizationToken: r.authorization_token,
    credentials: (r.credentials ?? []).map((c) => {
      const origin = c.credential_source ?? c.credential_library ?? { id: "" };
      return {
        credentialLibrary: {
          id: origin.id ?? "",
          name: origin.name,
          description: origin.description,
          credentialStoreId: origin.credential_store_id,
          type: origin.type,
          credentialType: c.credential_source?.credential_type,
        },
        secret: { raw: c.secret.raw, decoded: c.secret.decoded },
        credential: c.credential,
      };
    }),
  };
}

/**
 * A listed Target as programs (and the plugin's getTargets) see it: the resource's state shape plus
 * its id. From a list item (`read` false), an id list (and its summaries) the item does not carry
 * is left out, never reported empty: Boundary's list items never carry them (its list query does
 * not load them). From a read, a list left out is empty (Boundary omits an empty list).
 */
export function targetSummary(t: Target, read = false): TargetSummary {
  const state: Record<string, unknown> = stateFromTarget(t, []);
  delete state.__managed; // a listed Target is not managed by this program
  for (const f of LIST_FIELDS) {
    if (read || (ANSWER_NAMES.get(f) ?? []).some((name) => getPath(t, name) !== undefined)) continue;
    delete state[f];
    const output = associationOf(f).output;
    if (output) delete state[output.name];
  }
  return { id: t.id, ...state } as TargetSummary;
}

/**
 * getTargets' lookup on a client (both routes: the program's function and the plugin's invoke):
 * the client's `findTargets`, reading each Target with `readLists` so that its id lists are known;
 * a Target deleted meanwhile is left out (`findTargets`' one rule).
 */
export async function getTargetsOn(client: BoundaryClient, args: GetTargetsArgs): Promise<TargetSummary[]> {
  const { readLists, ...query } = args;
  const found = await findTargets(client, query, { read: readLists === true });
  return found.targets.map((t) => targetSummary(t, readLists === true));
}

/** getTargets' arguments: the scope, whether to descend, a Boundary filter expression. */
export type GetTargetsArgs = z.infer<typeof GetTargetsArgsSchema>;

/** The state's fields an answer may not carry: the id lists and their summaries. */
type ListState = ListField | { [K in ListField]: TargetFields[K]["association"] extends { output: { name: infer N extends string } } ? N : never }[ListField];
/** A listed Target: the resource's state without `__managed`, and its id; the id lists only when known (see `targetSummary`). */
export type TargetSummary = Omit<TargetState, "__managed" | ListState> & Partial<Pick<TargetState, ListState>> & { id: string };

/**
 * Looks Targets up (a data source): one list call, evaluated at every preview and update. The id
 * lists (`hostSetIds`, the credential lists, their summaries) are left out of each Target, because
 * Boundary's list answers do not carry them; `readLists: true` reads each Target to report them.
 */
export function getTargets(args: Inputs<GetTargetsArgs> | pulumi.Input<GetTargetsArgs>, options?: BoundaryClientOptions): pulumi.Output<TargetSummary[]> {
  const result = pulumi.all([pulumi.output(args), stackConfig()]).apply(async ([a, stack]) => {
    const client = clientFor(options, stack);
    return await getTargetsOn(client, a as GetTargetsArgs);
  });
  return pulumi.unsecret(result) as pulumi.Output<TargetSummary[]>;
}
