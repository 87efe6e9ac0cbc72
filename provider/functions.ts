/**
 * Functions for Pulumi programs: `authorizeSession` and `getTargets`. They run in the program
 * itself (not in the provider host), at every `pulumi preview` and `pulumi up` once their
 * arguments are known, with the stack's `boundary:addr` / `boundary:token` or the BOUNDARY_*
 * environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import type { SessionAuthorization, Target } from "../wire/target";
import { BoundaryClient, type BoundaryClientOptions, type TargetIdentity } from "./client";
import { stateFromTarget, type TargetState } from "./target/state";

export type AuthorizeSessionArgs = TargetIdentity & { hostId?: string };

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };
/** The target by id, or by name with a scope id or scope name; each field may be an Output. */
export type AuthorizeSessionInputs =
  | Inputs<{ targetId: string; hostId?: string }>
  | Inputs<{ name: string; scopeId: string; hostId?: string }>
  | Inputs<{ name: string; scopeName: string; hostId?: string }>;

export interface SessionCredential {
  credentialLibrary: { id: string; name?: string; description?: string; credentialStoreId?: string; type?: string };
  secret: { raw: string; decoded?: Record<string, unknown> };
}

/** What `authorizeSession` returns: each field of the session as an Output (two of them secret). */
export type AuthorizeSessionResult = { [K in keyof SessionView]-?: pulumi.Output<SessionView[K]> };

/** Address and token for functions: explicit options, else stack config, else BOUNDARY_* (read when called). */
function clientFor(options: BoundaryClientOptions | undefined, addr: string | undefined, token: string | undefined): BoundaryClient {
  return new BoundaryClient({ ...options, addr: options?.addr ?? addr, token: options?.token ?? token });
}

function stackConfig(): pulumi.Output<[string | undefined, string | undefined]> {
  const cfg = new pulumi.Config("boundary");
  return pulumi.all([cfg.get("addr"), cfg.getSecret("token")]);
}

/**
 * Authorizes a session on a Target, by id or by name within a scope. Each evaluation creates a
 * real session on the controller, and it is evaluated at every preview and update: use it where a
 * program really needs a session (an endpoint to export, a connection check), not as a lookup.
 * `authorizationToken` and `credentials` are secret outputs.
 */
export function authorizeSession(args: AuthorizeSessionInputs | pulumi.Input<AuthorizeSessionArgs>, options?: BoundaryClientOptions): AuthorizeSessionResult {
  const raw: pulumi.Output<SessionAuthorization> = pulumi.all([pulumi.output(args), stackConfig()]).apply(async ([a, [addr, token]]) => {
    const client = clientFor(options, addr, token);
    try {
      const { hostId, ...identity } = a as AuthorizeSessionArgs;
      return await client.authorizeSession(identity as TargetIdentity, hostId);
    } finally {
      await client.close();
    }
  });
  // The stack token may be secret, which would make every field secret; only two fields are.
  const view = raw.apply((r) => sessionView(r as SessionAuthorization));
  const plain = <K extends keyof SessionView>(k: K) => pulumi.unsecret(view.apply((v) => v[k])) as pulumi.Output<SessionView[K]>;
  return {
    sessionId: plain("sessionId"),
    targetId: plain("targetId"),
    scopeId: plain("scopeId"),
    createdTime: plain("createdTime"),
    userId: plain("userId"),
    hostSetId: plain("hostSetId"),
    hostId: plain("hostId"),
    type: plain("type"),
    endpoint: plain("endpoint"),
    authorizationToken: pulumi.secret(view.apply((v) => v.authorizationToken)),
    credentials: pulumi.secret(view.apply((v) => v.credentials)),
  };
}

/** A session authorization as programs see it (camelCase). */
export interface SessionView {
  sessionId: string;
  targetId: string;
  scopeId?: string;
  createdTime?: string;
  userId?: string;
  hostSetId?: string;
  hostId?: string;
  type?: string;
  /** Where the worker connects, e.g. `tcp://10.0.0.5:22`. */
  endpoint?: string;
  /** A bearer credential for the proxy: a secret output. */
  authorizationToken: string;
  /** Brokered credentials: a secret output. */
  credentials: SessionCredential[];
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
    authorizationToken: r.authorization_token,
    credentials: (r.credentials ?? []).map((c) => ({
      credentialLibrary: {
        id: c.credential_library.id,
        name: c.credential_library.name,
        description: c.credential_library.description,
        credentialStoreId: c.credential_library.credential_store_id,
        type: c.credential_library.type,
      },
      secret: { raw: c.secret.raw, decoded: c.secret.decoded },
    })),
  };
}

/** A listed Target as programs (and the plugin's getTargets) see it: the resource's state shape plus its id. */
export function targetSummary(t: Target): TargetSummary {
  const { __managed, ...state } = stateFromTarget(t, []);
  return { id: t.id, ...state };
}

export interface GetTargetsArgs {
  scopeId: string;
  recursive?: boolean;
  /** A Boundary filter expression, e.g. `"/item/name" matches "^web"`. */
  filter?: string;
}

export type TargetSummary = Omit<TargetState, "__managed"> & { id: string };

/** Looks Targets up (a data source): one list call, evaluated at every preview and update. */
export function getTargets(args: Inputs<GetTargetsArgs> | pulumi.Input<GetTargetsArgs>, options?: BoundaryClientOptions): pulumi.Output<TargetSummary[]> {
  const result = pulumi.all([pulumi.output(args), stackConfig()]).apply(async ([a, [addr, token]]) => {
    const client = clientFor(options, addr, token);
    try {
      return (await client.listTargets(a as GetTargetsArgs)).map(targetSummary);
    } finally {
      await client.close();
    }
  });
  return pulumi.unsecret(result) as pulumi.Output<TargetSummary[]>;
}
