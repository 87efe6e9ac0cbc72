/**
 * authorize-session: picks a worker (the target's worker filter), a host (one of the target's host
 * sets, or the one asked for), gathers credentials from the attached libraries, makes the session's
 * certificate and issues the authorization token Boundary's client decodes. Sessions are
 * remembered with their expiry and connection limit. What differs per release is the release
 * table's (`authorizeSession` of the emulated release).
 */
import { Prefix, type AuthorizeSessionRequest, type Credential, type RequestField, type SessionAuthorization } from "../../wire/target";
import { sessionCertificate } from "./certificate";
import { ControllerFault, invalidField, invalidFields, notFound } from "../errors";
import type { SessionFacts } from "../../wire/releases";
import { matches, parseFilter } from "../../common/filter";
import { ExpiryHeap } from "./expiry-heap";
import type { TargetRecord } from "../record";
import { authorizationToken } from "./session-token";
import { isTargetId } from "../ids";
import { DEV_USER_ID, newId, type Store } from "../store";
import { scopeSummary } from "../view";

/** The fields of each static credential type that its typed `credential` carries (the proto messages of staticToSessionCredential); JSON: all. */
const STATIC_FIELDS: Readonly<Record<string, readonly string[] | "all">> = {
  username_password: ["username", "password"],
  username_password_domain: ["username", "password", "domain"],
  password: ["password"],
  ssh_private_key: ["username", "private_key", "private_key_passphrase"],
  json: "all",
};

/** A session authorize-session made: its id, Target, host, endpoint, connection limit and expiry. */
export interface Session {
  id: string;
  targetId: string;
  /** The host the session connects to; none for a Target with an address (current releases). */
  hostId?: string;
  endpoint: string;
  connectionLimit: number;
  expiresAt: Date;
}

/**
 * The address a client reaches a worker's proxy at. Fixture workers have no address of their own:
 * every one is at the address a `boundary dev` worker's proxy listens on by default.
 */
export const DEV_WORKER_ADDRESS = "127.0.0.1:9202";

/** The most live sessions the controller holds by default; then authorize-session answers 503. */
export const DEFAULT_MAX_SESSIONS = 100_000;

/** The sessions the controller has authorized and not yet forgotten (they expire). */
export class Sessions {
  readonly sessions = new Map<string, Session>();
  private readonly expiries = new ExpiryHeap();

  /** `maxSessions` bounds memory: expired sessions are forgotten first, then new ones are refused. */
  constructor(
    private readonly store: Store,
    private readonly maxSessions = DEFAULT_MAX_SESSIONS,
  ) {}

  /** `pathId` is the `{id}` segment: a target id, or a target name when the body names a scope. */
  authorize(pathId: string, req: AuthorizeSessionRequest): SessionAuthorization {
    const release = this.store.release.authorizeSession;
    const target = this.resolveTarget(pathId, req);
    // up to 0.11 the workers are checked before the hosts; later releases after
    let workers = release.workersFirst ? this.pickWorkers(target, release) : undefined;
    const { hostSetId, host } = this.pickHost(target, req.host_id, release);
    workers ??= this.pickWorkers(target, release);

    const now = new Date();
    this.prune(now);
    this.checkRoom(now);
    // an IPv6 address is bracketed in a URL
    const at = host.address.includes(":") ? `[${host.address}]` : host.address;
    const port = target.attributes?.default_port;
    const endpoint = `tcp://${at}${port ? `:${port}` : ""}`;
    const session: Session = {
      id: newId(Prefix.session),
      targetId: target.id,
      hostId: host.id,
      endpoint,
      connectionLimit: target.session_connection_limit,
      expiresAt: new Date(now.getTime() + target.session_max_seconds * 1000),
    };
    this.sessions.set(session.id, session);
    this.expiries.push(session.expiresAt.getTime(), session.id);

    const scope = scopeSummary(this.store, target.scope_id);
    const answers = (field: string) => release.fields.includes(field);
    const certificate = sessionCertificate({
      sessionId: session.id,
      expiresAt: session.expiresAt,
      workerAddresses: release.certificateNamesWorkers ? workers : [],
      subjectKeyId: release.subjectKeyId,
      now,
    });
    const authorization_token = authorizationToken(
      {
        session_id: session.id,
        target_id: target.id,
        scope,
        created_time: now,
        type: target.type,
        connection_limit: session.connectionLimit,
        endpoint_port: port,
        expiration: session.expiresAt,
        certificate: certificate.der,
        private_key: certificate.privateKey,
        host_id: host.id,
        endpoint,
        worker_info: workers.map((address) => ({ address })),
        default_client_port: target.attributes?.default_client_port ?? undefined,
      },
      release.tokenFields,
    );
    const out: SessionAuthorization = {
      session_id: session.id,
      target_id: target.id,
      scope,
      created_time: now.toISOString(),
      user_id: DEV_USER_ID,
      ...(hostSetId && { host_set_id: hostSetId }),
      ...(host.id && { host_id: host.id }),
      type: target.type,
      authorization_token,
      endpoint,
      // zero values are left out on the wire, as protojson leaves them out
      ...(session.connectionLimit !== 0 && answers("connection_limit") && { connection_limit: session.connectionLimit }),
      ...(port && answers("endpoint_port") && { endpoint_port: port }),
      ...(answers("expiration") && { expiration: session.expiresAt.toISOString() }),
    };
    const credentials = this.credentials(target, release);
    if (credentials.length > 0) out.credentials = credentials;
    return out;
  }

  /** Forgets sessions past their expiry, earliest first: each costs O(log n), nothing is scanned. */
  private prune(now: Date): void {
    const t = now.getTime();
    for (let top = this.expiries.peek(); top && top.at <= t; top = this.expiries.peek()) {
      this.expiries.pop();
      this.sessions.delete(top.id);
    }
  }

  /** Full of live sessions: 503 until the earliest one expires. */
  private checkRoom(now: Date): void {
    if (this.sessions.size < this.maxSessions) return;
    const seconds = Math.max(1, Math.ceil(((this.expiries.peek()?.at ?? now.getTime()) - now.getTime()) / 1000));
    throw new ControllerFault("Unavailable", `The controller holds ${this.maxSessions} live sessions, its limit; try again when one expires.`, [], {
      "retry-after": String(seconds),
    });
  }

  private resolveTarget(pathId: string, req: AuthorizeSessionRequest): TargetRecord {
    if (this.store.dialect.authorizeAsValidator) {
      const fields = authorizeFields(pathId, req);
      if (fields.length > 0) throw invalidFields(fields, this.store.dialect.fieldErrorsMessage);
      return req.name ? this.store.findTargetByName(pathId, { id: req.scope_id, name: req.scope_name }) : this.store.getTarget(pathId);
    }
    if (pathId.startsWith(Prefix.target)) {
      const fields = [];
      if (req.scope_id) fields.push({ name: "scope_id", description: "This must be empty when the target is named by id." });
      if (req.scope_name) fields.push({ name: "scope_name", description: "This must be empty when the target is named by id." });
      if (req.id && req.id !== pathId) fields.push({ name: "id", description: "This must equal the id in the path." });
      if (fields.length > 0) throw invalidFields(fields);
      return this.store.getTarget(pathId);
    }
    if (req.name !== undefined && req.name.toLowerCase() !== pathId.toLowerCase()) {
      throw invalidField("name", "This must equal the target name in the path.");
    }
    if (!!req.scope_id === !!req.scope_name) {
      throw invalidFields([
        { name: "scope_id", description: "Exactly one of scope_id and scope_name is required when the target is named by name." },
        { name: "scope_name", description: "Exactly one of scope_id and scope_name is required when the target is named by name." },
      ]);
    }
    return this.store.findTargetByName(pathId, { id: req.scope_id, name: req.scope_name });
  }

  /** The addresses of the workers the Target's filter leaves (one per worker); none left is the release's answer. */
  private pickWorkers(target: TargetRecord, release: SessionFacts): string[] {
    // current releases: the egress filter, or a legacy filter a Target kept
    const expression = target.egress_worker_filter ?? target.worker_filter;
    const filter = expression ? parseFilter(expression, "evaluation") : undefined;
    const available = this.store.seed.workers.filter((w) => !filter || matches(filter, { name: w.name, tags: w.tags }));
    if (available.length === 0) {
      const { kind, none, filtered } = release.noWorkers;
      throw new ControllerFault(kind, this.store.seed.workers.length > 0 ? filtered : none);
    }
    return available.map(() => DEV_WORKER_ADDRESS);
  }

  /** The host a session connects to: one of the host sets' hosts, or the Target's own address (current releases). */
  private pickHost(target: TargetRecord, hostId: string | undefined, release: SessionFacts): { hostSetId?: string; host: { id?: string; address: string } } {
    // the validator's words ("Errors in provided fields."), for a malformed id and for one no host set offers
    const refuse = (why: string) => invalidFields([{ name: "host_id", description: why }], this.store.dialect.fieldErrorsMessage);
    // TS validateAuthorizeSessionRequest: any prefix of the host subtypes' resources (a host set's too), plugin ones where the release takes them
    if (hostId !== undefined && !release.hostIds.some((p) => hostId.startsWith(p))) throw refuse(this.store.dialect.badHostId(release.hostIds));
    // TS AuthorizeSession: a Target with an address takes the address branch and never reads host_id (0.12–0.13 answer its own id as the host's)
    if (target.address) return { host: { address: target.address, ...(release.targetIdAsHostId && { id: target.id }) } };
    const candidates = target.host_set_ids.flatMap((hostSetId) => (this.store.seed.hostSet(hostSetId)?.hosts ?? []).map((host) => ({ hostSetId, host })));
    if (hostId !== undefined) {
      const chosen = candidates.find((c) => c.host.id === hostId);
      if (!chosen) throw refuse("The requested host id is not available.");
      return chosen;
    }
    if (candidates.length === 0) throw notFound(release.noHosts);
    return candidates[Math.floor(Math.random() * candidates.length)]!;
  }

  private credentials(target: TargetRecord, release: SessionFacts): Credential[] {
    return target.application_credential_library_ids.flatMap((id) => {
      const lib = this.store.seed.credentialSource(id);
      if (!lib) return [];
      const raw = Buffer.from(JSON.stringify(lib.secret)).toString("base64");
      const source = { id: lib.id, name: lib.name, description: lib.description, credential_store_id: lib.credential_store_id, type: lib.type };
      const fields = STATIC_FIELDS[lib.type];
      // a static credential (0.9+, handlers/targets/credentials.go staticToSessionCredential): its source is `static` with its
      // credential type, and its fields are answered as a typed `credential` beside the secret
      const typed = lib.id.startsWith("cred") && fields && { ...source, type: "static", credential_type: lib.type };
      const credential = typed && (fields === "all" ? lib.secret : Object.fromEntries(fields.filter((k) => k in lib.secret).map((k) => [k, lib.secret[k]])));
      // under each name the release answers it (0.6–0.8 both)
      const origin = Object.fromEntries(release.credentialOrigin.map((name) => [name, typed || source]));
      return [{ ...origin, secret: { raw, decoded: lib.secret }, ...(credential && { credential }) } as Credential];
    });
  }
}

/**
 * TS validateAuthorizeSessionRequest (v0.4.0 to v0.21.3): without a name in the body the path
 * segment must be a Target id and no scope may be given; with one, the segment must be that name
 * and exactly one of scope_id and scope_name given.
 */
function authorizeFields(pathId: string, req: AuthorizeSessionRequest): RequestField[] {
  const fields: Record<string, string> = {};
  if (!req.name) {
    if (!isTargetId(pathId)) fields.id = "Incorrectly formatted identifier.";
    if (req.scope_id) fields.scope_id = "Scope ID provided when target name was empty.";
    if (req.scope_name) fields.scope_id = "Scope name provided when target name was empty.";
  } else {
    if (req.name !== pathId) fields.name = "Target name provided but does not match the given ID value from the URL.";
    const why =
      !req.scope_id && !req.scope_name
        ? "Scope ID or scope name must be provided"
        : req.scope_id && req.scope_name
          ? "Scope ID and scope name cannot both be provided"
          : "";
    if (why) fields.scope_id = fields.scope_name = `${why} when target name is used.`;
  }
  return Object.entries(fields).map(([name, description]) => ({ name, description }));
}
