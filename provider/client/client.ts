/**
 * A typed client for Boundary's Target API and the ops health endpoint: undici keep-alive pools,
 * a zod schema for every response, typed errors, bounded retries. Works against real Boundary
 * controllers as well as the local one.
 */
import * as undici from "undici";
import type { z } from "zod";
import {
  ErrorBody,
  SessionAuthorization,
  Target,
  TargetList,
  type CreateTargetRequest,
  type RequestField,
  type UpdateTargetRequest,
} from "../../wire/target";
import type { Association, AssociationOp } from "../../wire/target-fields";
import { BoundaryApiError, BoundaryClientError, SchemaValidationError, TimeoutError, TransportError, apiError } from "./errors";
import { Pacer } from "./pacer";
import { resolveSettings, type ApiGeneration, type BoundaryClientOptions, type ClientSettings } from "./settings";

/** The HTTP methods the Target API uses. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** A Target named by id, or by name within a scope given by id or name. */
export type TargetIdentity = { targetId: string } | { name: string; scopeId: string } | { name: string; scopeName: string };

/** An answer read whole: status, headers and body text. */
interface Answer {
  statusCode: number;
  headers: undici.Dispatcher.ResponseData["headers"];
  text: string;
}

/** The longest Retry-After the client will honour; longer ones fail instead of hanging a deploy. */
const MAX_RETRY_AFTER_MS = 30_000;

/** Ids no controller makes (Boundary's ids are random base62): what the generation probe names. */
const PROBE_TARGET_ID = "ttcp_0000000000";
const PROBE_HOST_SET_ID = "hsst_0000000000";

/**
 * A client of one controller. Every method makes one API call (plus bounded retries of what is
 * safe to retry), parses the answer with the wire schema, and throws a BoundaryClientError
 * subclass on failure. Call `close()` to release keep-alive connections.
 */
export class BoundaryClient {
  readonly settings: ClientSettings;
  private apiPool: undici.Pool | undefined;
  /** Keeps this client inside the server's rate limits (and BOUNDARY_RATE_LIMIT). */
  private readonly pacer: Pacer;
  private opsPool: undici.Pool | undefined;

  /** Resolves settings now (throws ClientSettingsError); connects at the first call. */
  constructor(options: BoundaryClientOptions = {}, env: NodeJS.ProcessEnv = process.env) {
    this.settings = resolveSettings(options, env);
    this.pacer = new Pacer(this.settings.rateLimit);
    this.generation = this.settings.apiGeneration;
  }

  // ---- Targets ----

  /**
   * Targets of a project, or with `recursive` of every project below a scope; `{}` means none. A
   * paginated answer (Boundary ≥ 0.15) is followed page by page, with the same query plus
   * `list_token`, until `response_type` is "complete": never just the first 1,000.
   */
  async listTargets(q: { scopeId: string; recursive?: boolean; filter?: string }): Promise<Target[]> {
    const items: Target[] = [];
    const seen = new Set<string>();
    for (let token: string | undefined; ; ) {
      const params = new URLSearchParams({ scope_id: q.scopeId });
      if (q.recursive) params.set("recursive", "true");
      if (q.filter) params.set("filter", q.filter);
      if (token) params.set("list_token", token);
      const page = await this.call("GET", `/v1/targets?${params}`, undefined, TargetList);
      for (const item of page.items) items.push(item);
      if (page.response_type !== "delta" || !page.list_token) return items;
      if (seen.has(page.list_token)) throw new SchemaValidationError("GET", "/v1/targets", [{ path: ["list_token"], message: "the same list token came back twice" }]);
      seen.add((token = page.list_token));
    }
  }

  /** Creates a Target; the answer is the Target with its id and version 1. */
  createTarget(body: CreateTargetRequest): Promise<Target> {
    return this.track(this.call("POST", "/v1/targets", body, Target));
  }

  /** Reads a Target; a NotFoundError means it does not exist. */
  getTarget(id: string): Promise<Target> {
    return this.track(this.call("GET", `/v1/targets/${encodeURIComponent(id)}`, undefined, Target));
  }

  /** PATCH with an explicit `update_mask`; fields in the mask but absent from `fields` are cleared. */
  updateTarget(id: string, version: number, mask: readonly string[], fields: Omit<UpdateTargetRequest, "version">): Promise<Target> {
    const query = mask.length > 0 ? `?update_mask=${encodeURIComponent(mask.join(","))}` : "";
    return this.track(this.call("PATCH", `/v1/targets/${encodeURIComponent(id)}${query}`, { ...fields, version }, Target));
  }

  /** Deletes a Target. Resolves on 204; a NotFoundError means it was already gone. */
  async deleteTarget(id: string): Promise<void> {
    await this.exchange("DELETE", `/v1/targets/${encodeURIComponent(id)}`, undefined);
  }

  /**
   * An add/set/remove action on one of the Target's id lists: `POST /v1/targets/{id}:{op}-{action}`
   * with `{version, [key]: ids}`. Returns the updated Target; a set equal to the current list
   * changes nothing (no new version).
   */
  changeAssociation(id: string, op: AssociationOp, action: NonNullable<Association["action"]>, key: string, version: number, ids: readonly string[]): Promise<Target> {
    return this.track(this.call("POST", `/v1/targets/${encodeURIComponent(id)}:${op}-${action}`, { version, [key]: [...ids] }, Target));
  }

  /**
   * An add/set/remove on one of the Target's lists, in the controller's generation: v0.4's action
   * and field (`:set-host-sets`, `host_set_ids`) or current ones (`:set-host-sources`,
   * `host_source_ids`), never a body whose field names the server would silently discard. The
   * generation is learned from answers already received; a 405 (the other generation's action:
   * nothing changed) switches it and retries once. `siblings` are the other lists the current
   * action carries (a `:set-credential-sources` replaces the brokered and the injected list); a
   * v0.4 controller has only the first, and refuses siblings that hold ids.
   */
  async associate(
    id: string,
    op: AssociationOp,
    association: Association,
    v04Key: string,
    version: number,
    ids: readonly string[],
    siblings: readonly { association: Association; ids: readonly string[] }[] = [],
  ): Promise<Target> {
    const attempt = (generation: ApiGeneration) => {
      if (generation === "v0.4") {
        const unknown = [association, ...siblings.filter((s) => s.ids.length > 0).map((s) => s.association)].find((a) => !a.action);
        if (unknown) throw new BoundaryClientError(`${unknown.current.wire} needs a controller of the current API; this one speaks v0.4`);
        return this.changeAssociation(id, op, association.action!, v04Key, version, ids);
      }
      const body: Record<string, unknown> = { version };
      for (const s of [{ association, ids }, ...siblings]) {
        body[s.association.current.wire] = [...s.ids];
        // the name releases between v0.4 and the current ones read (the others discard it)
        if (s.association.current.earlier) body[s.association.current.earlier.wire] = [...s.ids];
      }
      return this.track(this.call("POST", `/v1/targets/${encodeURIComponent(id)}:${op}-${association.current.action}`, body, Target));
    };
    // a list v0.4 does not have can only be the current generation's
    const generation = this.generation ?? (association.action ? "v0.4" : "current");
    try {
      return await attempt(generation);
    } catch (err) {
      if (!(err instanceof BoundaryApiError && err.status === 405) || this.settings.apiGeneration) throw err;
      this.generation = generation === "v0.4" ? "current" : "v0.4";
      return attempt(this.generation);
    }
  }

  /** The controller's API generation, as configured or learned from its answers (undefined until known). */
  generation: ApiGeneration | undefined;

  /**
   * The controller's API generation: configured, learned from answers so far, or else asked once
   * with a call that changes nothing: an add of host sources to a Target id that cannot exist.
   * v0.4 controllers have no such action (405, before looking at anything); current ones look for
   * the Target and answer 404 (or 400/403). Controllers 0.5–0.10 have the action and count as current.
   */
  async apiGeneration(): Promise<ApiGeneration> {
    if (this.generation) return this.generation;
    try {
      await this.exchange("POST", `/v1/targets/${PROBE_TARGET_ID}:add-host-sources`, { version: 1, host_source_ids: [PROBE_HOST_SET_ID] });
    } catch (err) {
      if (!(err instanceof BoundaryApiError)) throw err;
      this.generation ??= err.status === 405 ? "v0.4" : "current";
    }
    return (this.generation ??= "current");
  }

  /** Learns from a Target the controller returned which action names the controller offers. */
  private learn(t: Target): Target {
    if (!this.settings.apiGeneration) {
      const actions = t.authorized_actions ?? [];
      if (actions.includes("set-host-sources")) this.generation = "current";
      else if (actions.includes("set-host-sets")) this.generation = "v0.4";
    }
    return t;
  }

  private async track(answer: Promise<Target>): Promise<Target> {
    return this.learn(await answer);
  }

  /** `:add-host-sets`. */
  addHostSets(id: string, version: number, hostSetIds: readonly string[]): Promise<Target> {
    return this.changeAssociation(id, "add", "host-sets", "host_set_ids", version, hostSetIds);
  }
  /** `:remove-host-sets`. */
  removeHostSets(id: string, version: number, hostSetIds: readonly string[]): Promise<Target> {
    return this.changeAssociation(id, "remove", "host-sets", "host_set_ids", version, hostSetIds);
  }
  /** `:set-host-sets`: the Target's host sets become exactly `hostSetIds`. */
  setHostSets(id: string, version: number, hostSetIds: readonly string[]): Promise<Target> {
    return this.changeAssociation(id, "set", "host-sets", "host_set_ids", version, hostSetIds);
  }
  /** `:add-credential-libraries`. */
  addCredentialLibraries(id: string, version: number, ids: readonly string[]): Promise<Target> {
    return this.changeAssociation(id, "add", "credential-libraries", "application_credential_library_ids", version, ids);
  }
  /** `:remove-credential-libraries`. */
  removeCredentialLibraries(id: string, version: number, ids: readonly string[]): Promise<Target> {
    return this.changeAssociation(id, "remove", "credential-libraries", "application_credential_library_ids", version, ids);
  }
  /** `:set-credential-libraries`: the Target's libraries become exactly `ids`. */
  setCredentialLibraries(id: string, version: number, ids: readonly string[]): Promise<Target> {
    return this.changeAssociation(id, "set", "credential-libraries", "application_credential_library_ids", version, ids);
  }

  /** Authorizes a session: creates a real session on the controller each time it is called. */
  authorizeSession(target: TargetIdentity, hostId?: string): Promise<SessionAuthorization> {
    const body: Record<string, string> = {};
    let segment: string;
    if ("targetId" in target) {
      segment = target.targetId;
    } else {
      segment = target.name;
      body.name = target.name;
      if ("scopeId" in target) body.scope_id = target.scopeId;
      else body.scope_name = target.scopeName;
    }
    if (hostId) body.host_id = hostId;
    return this.call("POST", `/v1/targets/${encodeURIComponent(segment)}:authorize-session`, body, SessionAuthorization);
  }

  /** GET /health on the ops listener: 200 healthy, 503 shutting down. Does not throw on 503. */
  async health(): Promise<{ status: number; healthy: boolean }> {
    this.opsPool ??= this.pool(this.settings.opsOrigin);
    // 503 is the answer here (shutting down), not a reason to retry; and /health takes no token
    const res = await this.send(this.opsPool, "GET", "/health", undefined, { auth: false, retry: false });
    return { status: res.statusCode, healthy: res.statusCode === 200 };
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    await Promise.all([this.apiPool?.close(), this.opsPool?.close()]);
    this.apiPool = this.opsPool = undefined;
  }

  // ---- transport ----

  private pool(origin: string): undici.Pool {
    const { caCert, tlsInsecure } = this.settings;
    return new undici.Pool(origin, {
      connections: 8,
      connect: origin.startsWith("https:") ? { ca: caCert, rejectUnauthorized: !tlsInsecure } : undefined,
    });
  }

  /** One API call whose answer is parsed with `schema`. */
  private async call<S extends z.ZodType>(method: HttpMethod, path: string, body: unknown, schema: S): Promise<z.infer<S>> {
    const text = await this.exchange(method, path, body);
    const shownPath = path.split("?")[0]!;
    let json: unknown;
    try {
      json = text === "" ? {} : JSON.parse(text);
    } catch {
      throw new SchemaValidationError(method, shownPath, [{ path: [], message: "the body is not JSON" }]);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new SchemaValidationError(method, shownPath, parsed.error.issues);
    return parsed.data;
  }

  /** One API call: the answer's text, or the typed error of an error status (its text scrubbed of credentials). */
  private async exchange(method: HttpMethod, path: string, body: unknown): Promise<string> {
    this.apiPool ??= this.pool(this.settings.origin);
    const res = await this.send(this.apiPool, method, this.settings.basePath + path, body, { auth: true, retry: true });
    if (res.statusCode >= 400) throw errorFrom(method, path.split("?")[0]!, res.statusCode, this.scrub(res.text), res.headers);
    return res.text;
  }

  /**
   * Sends with retries and reads the whole answer: 429 and 503 for any method (the server did not
   * process the request), honouring Retry-After; connection failures, timeouts and bodies that
   * stall before they end only for idempotent GET and DELETE. The timeout covers the body too.
   */
  private async send(pool: undici.Pool, method: HttpMethod, path: string, body: unknown, opts: { auth: boolean; retry: boolean }): Promise<Answer> {
    const { timeoutMs, token } = this.settings;
    const maxRetries = opts.retry ? this.settings.maxRetries : 0;
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (opts.auth && token) headers.authorization = `Bearer ${token}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const shownPath = path.split("?")[0]!;
    const idempotent = method === "GET" || method === "DELETE";
    // lists have their own, smaller quota on the server
    const kind = method === "GET" && /\/v1\/targets(\?|$)/.test(path) ? "list" : "other";
    for (let attempt = 0; ; attempt++) {
      let answer: Answer;
      await this.pacer.acquire(kind);
      let rateLimit: string | string[] | undefined;
      try {
        const res = await pool.request({ method, path, headers, body: payload, signal: AbortSignal.timeout(timeoutMs) });
        rateLimit = res.headers["ratelimit"];
        if ((res.statusCode === 429 || res.statusCode === 503) && attempt < maxRetries) {
          const wait = retryAfter(res.headers["retry-after"]) ?? backoff(attempt);
          if (wait <= MAX_RETRY_AFTER_MS) {
            this.pacer.release(kind, rateLimit);
            await res.body.dump();
            await sleep(wait);
            continue;
          }
        }
        answer = { statusCode: res.statusCode, headers: res.headers, text: await res.body.text() };
      } catch (err) {
        this.pacer.release(kind, rateLimit);
        const e = transportError(method, shownPath, err, timeoutMs, this.scrub);
        if (idempotent && attempt < maxRetries) {
          await sleep(backoff(attempt));
          continue;
        }
        throw e;
      }
      this.pacer.release(kind, rateLimit);
      return answer;
    }
  }

  /** Removes the token, and any bearer credential, from text that may reach an error message. */
  private readonly scrub = (text: string): string => {
    const token = this.settings.token;
    const masked = token ? text.split(token).join("[redacted]") : text;
    return masked.replace(/(bearer\s+)[^\s"',;]+/gi, "$1[redacted]").replace(/(authorization["']?\s*[:=]\s*["']?)(?!bearer)[^\s"',;]+/gi, "$1[redacted]");
  };

}

function errorFrom(method: string, path: string, status: number, text: string, raw: undici.Dispatcher.ResponseData["headers"]): BoundaryClientError {
  const headers = Object.fromEntries(Object.entries(raw).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v]])));
  let kind = "Unknown";
  let message = text.slice(0, 200) || `HTTP ${status}`;
  let fields: RequestField[] = [];
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success) {
      kind = parsed.data.kind;
      message = parsed.data.message;
      fields = parsed.data.details?.request_fields ?? [];
    }
  } catch {
    // not JSON (a proxy's page, a 429 without body): keep the text
  }
  return apiError(method, path, status, kind, message, fields, headers);
}

function transportError(method: string, path: string, err: unknown, timeoutMs: number, scrub: (text: string) => string): TransportError {
  const e = err as { name?: string; code?: string; message?: string };
  if (e?.name === "TimeoutError" || e?.name === "AbortError" || e?.code === "UND_ERR_ABORTED") {
    return new TimeoutError(method, path, `no answer within ${timeoutMs} ms (BOUNDARY_CLIENT_TIMEOUT)`, { cause: err });
  }
  return new TransportError(method, path, scrub(`${e?.code ?? e?.name ?? "error"}: ${e?.message ?? String(err)}`), { cause: err });
}

/** Retry-After in ms: delta-seconds or an HTTP date. */
function retryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Jittered exponential backoff: ~200 ms, ~400 ms, ~800 ms … */
function backoff(attempt: number): number {
  return Math.round(200 * 2 ** attempt * (0.5 + Math.random()));
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
