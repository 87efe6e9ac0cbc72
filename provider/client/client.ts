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
import { RELEASES, listIn, releasesAnswering, routesNoun, type ListField, type ListRoute, type Release } from "../../wire/releases";
import { INPUT_FIELDS, spec, type Association, type AssociationOp } from "../../wire/target-fields";
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
    this.configured = configuredReleases(this.settings.apiGeneration);
    this.releases = this.configured;
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
   * An add/set/remove on one of the Target's lists, through an action the controller routes: the
   * one every release it may be routes, else v0.4's (`:set-host-sets`, `host_set_ids`) first. A
   * body carries the list under every name those releases read for that action (0.5–0.13 read
   * `application_credential_source_ids`, later ones `brokered_…`), never under a name the server
   * would silently discard. A 405 (an action the controller does not route: nothing changed)
   * rules out the releases that route it, and the call is made once more through the other.
   * `siblings` are the other lists the current action carries (a `:set-credential-sources`
   * replaces the brokered and the injected list); v0.4's actions carry only the first, and refuse
   * siblings that hold ids.
   */
  async associate(
    id: string,
    op: AssociationOp,
    association: Association,
    _v04Key: string,
    version: number,
    ids: readonly string[],
    siblings: readonly { association: Association; ids: readonly string[] }[] = [],
  ): Promise<Target> {
    const lists = [{ association, ids }, ...siblings].map((s) => ({ field: listFieldOf(s.association), ids: s.ids }));
    const attempt = (noun: ListRoute["noun"]) => {
      const body: Record<string, unknown> = { version };
      for (const l of lists) {
        const names = readNames(this.releases, l.field, noun);
        if (names.length === 0 && l.ids.length > 0) throw new BoundaryClientError(`${spec(l.field).wire}: no action of this controller (${noun}) carries it; it needs a controller of the current API`);
        for (const name of names) body[name] = [...l.ids];
      }
      return this.track(this.call("POST", `/v1/targets/${encodeURIComponent(id)}:${op}-${noun}`, body, Target));
    };
    const noun = nounFor(this.releases, lists[0]!.field);
    try {
      return await attempt(noun);
    } catch (err) {
      if (!(err instanceof BoundaryApiError && err.status === 405)) throw err;
      const rest = this.releases.filter((r) => !routesNoun(r, noun));
      if (rest.length === 0) throw err;
      this.releases = rest;
      return attempt(nounFor(rest, lists[0]!.field));
    }
  }

  /** What the configuration says the controller is (every release, when it says nothing). */
  private readonly configured: readonly Release[];

  /**
   * The releases the controller may be, oldest first: the configured ones, narrowed by every
   * answer received (the release table's `releasesAnswering`), a 405 and the probe.
   */
  releases: readonly Release[];

  /** The controller's API generation, when every release it may be shares one (undefined until known). */
  get generation(): ApiGeneration | undefined {
    const generations = new Set(this.releases.map((r) => r.generation));
    return generations.size === 1 ? [...generations][0] : undefined;
  }

  /**
   * The controller's API generation: configured, learned from answers so far, or else asked once
   * with a call that changes nothing: an add of host sources to a Target id that cannot exist.
   * v0.4 controllers have no such action (405, before looking at anything); 0.5 and later look for
   * the Target and answer 404 (or 400/403).
   */
  async apiGeneration(): Promise<ApiGeneration> {
    if (this.generation) return this.generation;
    let routed = true;
    try {
      await this.exchange("POST", `/v1/targets/${PROBE_TARGET_ID}:add-host-sources`, { version: 1, host_source_ids: [PROBE_HOST_SET_ID] });
    } catch (err) {
      if (!(err instanceof BoundaryApiError)) throw err;
      routed = err.status !== 405;
    }
    const rest = this.releases.filter((r) => routesNoun(r, "host-sources") === routed);
    if (rest.length > 0) this.releases = rest;
    return this.generation ?? (routed ? "current" : "v0.4");
  }

  /** Learns from a Target the controller returned which releases could have answered it. */
  private learn(t: Target): Target {
    const narrowed = releasesAnswering(t, this.releases);
    // an answer no release it may be gives means it changed (an upgrade): start again from the configured ones
    this.releases = narrowed.length > 0 ? narrowed : releasesAnswering(t, this.configured).length > 0 ? releasesAnswering(t, this.configured) : this.releases;
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

/** The releases a configured generation means: v0.4's API (the spec's and 0.4), or the current actions' (0.5 and later); all when unset. */
function configuredReleases(generation: ApiGeneration | undefined): readonly Release[] {
  return generation ? RELEASES.filter((r) => r.generation === generation) : RELEASES;
}

/** The list field an association belongs to. */
function listFieldOf(a: Association): ListField {
  return INPUT_FIELDS.find((f) => spec(f).association === a) as ListField;
}

/** The action to change a list through: the current one if every candidate routes it, else v0.4's (the spec's default) if some route that. */
function nounFor(releases: readonly Release[], field: ListField): ListRoute["noun"] {
  const nouns = releases.map((r) => (listIn(r, field)?.routes ?? []).map((x) => x.noun));
  const a = spec(field).association!;
  if (nouns.every((ns) => ns.includes(a.current.action))) return a.current.action;
  return a.action && nouns.some((ns) => ns.includes(a.action!)) ? a.action : a.current.action;
}

/** Every name the candidates' route of `noun` reads for a list (what the body carries it under). */
function readNames(releases: readonly Release[], field: ListField, noun: ListRoute["noun"]): string[] {
  return [...new Set(releases.flatMap((r) => (listIn(r, field)?.routes ?? []).filter((x) => x.noun === noun).flatMap((x) => x.reads)))];
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
