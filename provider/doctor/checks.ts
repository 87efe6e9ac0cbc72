/**
 * What `pulumi-boundary doctor` checks, in order, each one line: the settings; the address answers
 * and is Boundary (TLS, `/v1`, a proxy's path); which release the provider learns and how; the token
 * or the login works; for a scope, what Boundary reports the caller may do with its Targets; the
 * rate limits the controller advertises; and what it could not check. It only reads: a recursive
 * list of Targets from global (without, then with the credentials), a scope's read, a list of its
 * Targets, and the probe of the API generation, which changes nothing. A login's token is left to
 * expire (the local controller serves no `DELETE /v1/auth-tokens/{id}` to revoke it).
 */
import { z } from "zod";
import { BoundaryApiError, BoundaryClient, ENV, LoginRefusedError, UnauthenticatedError, UnexpectedAnswerError, type BoundaryClientOptions } from "../client";
import { firstReleaseWhere, type Release } from "../../wire/releases";

/** The minor release during which the API rate limiter came (the release table's; its earlier patches lack it). */
const LIMITER_SINCE = firstReleaseWhere((r) => r.rateLimiter !== undefined)?.release;

/** One line of the report: `ok`, `warn` (worth knowing, not blocking), `fail` (blocking: the run stops), `skip` (not checked, and why). */
export interface Finding {
  status: "ok" | "warn" | "fail" | "skip";
  check: string;
  text: string;
}

/** A scope as `GET /v1/scopes/{id}` answers it: what the doctor reads of it. */
const ScopeAnswer = z.object({
  id: z.string(),
  type: z.string().optional(),
  authorized_collection_actions: z.record(z.string(), z.array(z.string())).optional(),
});

/** `GET /v1/scopes/{id}`: it changes nothing. */
const readScope = (client: BoundaryClient, id: string) =>
  client.send({ method: "GET", path: `/v1/scopes/${encodeURIComponent(id)}`, body: undefined, answer: ScopeAnswer });

/** The Target actions a pipeline needs, and where Boundary reports each: the scope's collection, or each Target. */
const ON_COLLECTION = ["list", "create"] as const;
const ON_TARGET = ["read", "update", "delete"] as const;

const range = (rs: readonly Release[]) => (rs.length === 1 ? rs[0]!.release : `${rs[0]!.release}–${rs[rs.length - 1]!.release}`);
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Runs the checks with the provider's settings (`options`, then `env`), reporting each finding as it is made; stops after the first `fail`. */
export async function runChecks(
  options: BoundaryClientOptions,
  env: NodeJS.ProcessEnv,
  scopeId: string | undefined,
  report: (f: Finding) => void,
): Promise<boolean> {
  const found: Finding[] = [];
  const say = (status: Finding["status"], check: string, text: string) => {
    found.push({ status, check, text });
    report({ status, check, text });
    return status !== "fail";
  };

  // 1. the settings, before any call
  let client: BoundaryClient;
  try {
    client = new BoundaryClient(options, env);
  } catch (err) {
    return say("fail", "settings", message(err));
  }
  const s = client.settings;
  const address = `${s.origin}${s.basePath}`;
  const auth = s.token
    ? `token from ${s.tokenFrom}`
    : s.login
      ? `login to ${s.login.authMethodId} as ${JSON.stringify(s.login.loginName)}`
      : "no token and no login";
  say("ok", "settings", `address ${address} (from ${s.addrFrom}); ${auth}`);
  if (s.loginIgnored) say("warn", "settings", "a token and a login are both set: the token wins (as in terraform-provider-boundary), the login is not used");

  // 2. the address answers, and what answers is Boundary: a recursive list of Targets from global, which
  // every release answers the same way without a token (its list, or a refusal in Boundary's own error body)
  const anonymous = new BoundaryClient(
    { addr: s.addrFrom === "boundary:addr" ? address : undefined, caCert: s.caCert, tlsInsecure: s.tlsInsecure, timeoutMs: s.timeoutMs, maxRetries: 0 },
    s.addrFrom === "BOUNDARY_ADDR" ? { [ENV.addr]: address } : {},
  );
  let policy: string | undefined;
  try {
    await anonymous.listTargets({ scopeId: "global", recursive: true });
    say("ok", "address", `${address} answers as Boundary's API (it lists Targets without a token)`);
  } catch (err) {
    if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError || err.kind === "Unknown") return say("fail", "address", message(err));
    say("ok", "address", `${address} answers as Boundary's API (${err.status} ${err.kind} without a token, in Boundary's words)`);
  } finally {
    policy = anonymous.rateLimitPolicy;
    await anonymous.close();
  }

  try {
    // 3. the token or the login: a recursive list from global, which any valid token may make on every release
    try {
      await client.listTargets({ scopeId: "global", recursive: true });
      say("ok", "credentials", s.login ? `the login works (${s.login.authMethodId}); its token is kept in memory only` : `the token (${s.tokenFrom}) works`);
    } catch (err) {
      if (err instanceof LoginRefusedError || err instanceof UnauthenticatedError) return say("fail", "credentials", message(err));
      if (!(err instanceof BoundaryApiError && err.status === 403)) return say("fail", "credentials", message(err));
      // some releases answer an unknown token's recursive list as they answer no token (403): reading the
      // global scope tells them apart (401 for a token the controller does not take, 403 for a missing grant)
      const read = await readScope(client, "global").then(
        () => undefined,
        (e: unknown) => e,
      );
      if (read instanceof LoginRefusedError || read instanceof UnauthenticatedError) return say("fail", "credentials", message(read));
      say("ok", "credentials", "the controller takes the credentials (it answered 403 for listing Targets from global: a grant is missing, see below)");
    }
    policy = client.rateLimitPolicy ?? policy;

    // 4. which release: configured, or learned from the answers (and the probe that changes nothing)
    const generation = await client.apiGeneration().catch(() => undefined);
    const how = s.apiGeneration ? `configured (${s.apiGeneration})` : "learned from its answers (the keys of its views, a 405, the probe of an action)";
    say("ok", "release", `Boundary ${range(client.releases)} (API generation ${generation ?? "unknown"}), ${how}`);

    // 5. the grants on Targets in the scope, as Boundary reports them
    if (scopeId === undefined) say("skip", "grants", "no --scope given: the grants on Targets were not checked");
    else if (!(await checkGrants(client, scopeId, say))) return false;

    // 6. the rate limits the controller advertises (Boundary 0.14.3+)
    if (policy) say("ok", "rate limits", `the controller advertises ${policy} (RateLimit-Policy): the provider paces its calls within them`);
    else
      say(
        "ok",
        "rate limits",
        `none advertised (a release without the API rate limiter, which came during ${LIMITER_SINCE}, or api_rate_limit_disable): ` +
          "the provider sends as answers come",
      );
  } finally {
    await client.close();
  }
  say(
    "skip",
    "not checked",
    "whether the token or login outlives a whole run (a login is made again once after a 401), workers, and anything that needs a write",
  );
  return !found.some((f) => f.status === "fail");
}

/** The caller's actions on the scope's Targets: list and create from the scope, read/update/delete from a Target; a missing one fails. */
async function checkGrants(
  client: BoundaryClient,
  scopeId: string,
  say: (status: Finding["status"], check: string, text: string) => boolean,
): Promise<boolean> {
  let collection: readonly string[] | undefined;
  try {
    const scope = await readScope(client, scopeId);
    if (scope.type !== undefined && scope.type !== "project")
      return say(
        "warn",
        "grants",
        `${scopeId} is ${scope.type === "org" ? "an org" : "the global"} scope: Targets live in projects; give a project (p_…) to check them`,
      );
    collection = scope.authorized_collection_actions?.targets ?? [];
  } catch (err) {
    if (err instanceof BoundaryApiError && err.status === 404)
      return say("fail", "grants", `no scope ${scopeId} on this controller: give an existing one (--scope)`);
    if (!(err instanceof BoundaryApiError && err.status === 403)) return say("fail", "grants", message(err));
    say("warn", "grants", `the credentials may not read scope ${scopeId}, where Boundary reports the grants on its Targets: list and create not checked`);
  }
  if (collection) {
    const missing = ON_COLLECTION.filter((a) => !collection!.includes(a));
    if (missing.length > 0)
      return say(
        "fail",
        "grants",
        `in ${scopeId} the credentials may not ${missing.join(" or ")} Targets (Boundary reports ${JSON.stringify(collection)}): add the grant to their role`,
      );
    say("ok", "grants", `in ${scopeId} the credentials may list and create Targets (the scope's authorized_collection_actions)`);
  }
  let one: { id: string; authorized_actions?: readonly string[] } | undefined;
  try {
    one = (await client.listTargets({ scopeId }))[0];
  } catch (err) {
    return say("fail", "grants", message(err));
  }
  if (!one) return say("skip", "grants", `read, update and delete: no Target in ${scopeId} to read them from (Boundary reports them per Target)`);
  const held = one.authorized_actions ?? [];
  const missing = ON_TARGET.filter((a) => !held.includes(a));
  if (missing.length > 0)
    return say(
      "fail",
      "grants",
      `on Target ${one.id} the credentials may not ${missing.join(" or ")} (Boundary reports ${JSON.stringify(held)}): add the grant to their role`,
    );
  return say("ok", "grants", `on Target ${one.id} the credentials may read, update and delete (its authorized_actions)`);
}
