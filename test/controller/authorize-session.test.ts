/**
 * authorize-session by id and by name, hosts, workers, credentials and the token, in every release
 * of the matrix (the token's content: session-token.test.ts).
 */
import { defaultFixtures } from "../../controller";
import { until } from "../helpers/wait";
import { base58Decode } from "../../controller/sessions/base58";
import { PROJECT, startTestController, useTestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";
import { statusOf } from "../../controller/errors";
import { knows, listIn, type ReleaseKey } from "../../wire/releases";

/**
 * How each release answers where they differ, all from its row of the release table: a
 * credential's origin (both names 0.6–0.8), the worker filter (0.12), the host ids it takes, the
 * no-host 404's words; up to 0.11 the workers are checked before the host; a worker error is the
 * handler's 400 up to 0.18 and the server repository's 500 from 0.19. (The rows' values are
 * pinned, release by release, in test/wire/releases.test.ts.)
 */
function expectations(mode: ReleaseKey) {
  const s = facts(mode).r.authorizeSession;
  const answer = (message: string) => ({ status: statusOf(s.noWorkers.kind), body: { kind: s.noWorkers.kind, message } });
  return {
    origins: s.credentialOrigin,
    filter: facts(mode).filter,
    hostIds: s.hostIds,
    // Boundary's verifier words it plainly; the spec's controller names the prefixes
    badHostId:
      facts(mode).r.errors === "ours" ? `Incorrectly formatted identifier: it must start with ${s.hostIds.join(" or ")}.` : "Incorrectly formatted identifier.",
    noHosts: s.noHosts,
    fieldErrors: facts(mode).r.errors === "ours" ? "Error in provided request." : "Errors in provided fields.",
    targetIdAsHostId: s.targetIdAsHostId,
    workersFirst: s.workersFirst,
    filtered: answer(s.noWorkers.filtered),
    noWorkers: answer(s.noWorkers.none),
  };
}

describe.each(MATRIX)("--emulate %s", (mode) => {
  const m = expectations(mode);
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });

  const authorize = (path: string, body: unknown = {}) => c.call("POST", `/v1/targets/${path}:authorize-session`, body);

  test("by id: endpoint with default_port, credentials raw+decoded, and a remembered session", async () => {
    const t = await c.create({
      host_set_ids: ["hsst_1234567890"],
      application_credential_library_ids: ["clvlt_1234567890"],
      attributes: { default_port: 5432 },
      session_max_seconds: 60,
      session_connection_limit: 3,
    });
    const res = await authorize(t.id);
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({
      target_id: t.id,
      scope: { id: PROJECT, type: "project" },
      user_id: "u_1234567890",
      host_set_id: "hsst_1234567890",
      host_id: "hst_1234567890",
      type: "tcp",
      endpoint: "tcp://127.0.0.1:5432",
    });
    expect(s.session_id).toMatch(/^s_[0-9A-Za-z]{10}$/);
    const library = {
      id: "clvlt_1234567890",
      name: "dev database",
      description: "Generated credential library",
      credential_store_id: "csvlt_1234567890",
      type: "vault",
    };
    expect(s.credentials).toEqual([
      {
        ...Object.fromEntries(m.origins.map((name) => [name, library])),
        secret: {
          raw: Buffer.from(JSON.stringify({ username: "dev", password: "dev-password" })).toString("base64"),
          decoded: { username: "dev", password: "dev-password" },
        },
      },
    ]);
    const session = c.sessions.sessions.get(s.session_id)!;
    expect(session.connectionLimit).toBe(3);
    expect(session.expiresAt.getTime() - Date.parse(s.created_time)).toBe(60_000);
  });

  // static credentials from 0.9 (handlers/targets/credentials.go staticToSessionCredential)
  if (listIn(facts(mode).r, "applicationCredentialLibraryIds")?.prefixes.includes("credup_"))
    test("a static credential's source is `static` with its credential_type, and its fields come typed as `credential` beside the secret", async () => {
      const t = await c.create({ host_set_ids: ["hsst_1234567890"], application_credential_library_ids: ["credup_1234567890"] });
      const [credential] = (await authorize(t.id)).body.credentials;
      const source = {
        id: "credup_1234567890",
        name: "dev static login",
        description: "Generated static credential (current releases only)",
        credential_store_id: "csst_1234567890",
        type: "static",
        credential_type: "username_password",
      };
      expect(credential).toEqual({
        ...Object.fromEntries(m.origins.map((name) => [name, source])),
        secret: { raw: expect.any(String), decoded: { username: "static", password: "static-password" } },
        credential: { username: "static", password: "static-password" },
      });
    });

  test("expired sessions are forgotten", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"], session_max_seconds: 1 });
    const first = (await authorize(t.id)).body.session_id;
    const expires = c.sessions.sessions.get(first)!.expiresAt.getTime();
    await until(() => Date.now() > expires, "the first session to expire");
    const second = (await authorize(t.id)).body.session_id;
    expect(c.sessions.sessions.has(first)).toBe(false);
    expect(c.sessions.sessions.has(second)).toBe(true);
  });

  test("the authorization token is base58 and carries no brokered credential", async () => {
    const t = await c.create({
      host_set_ids: ["hsst_1234567890"],
      application_credential_library_ids: ["clvlt_1234567890"],
      attributes: { default_port: 2222 },
    });
    const { authorization_token: token, session_id } = (await authorize(t.id)).body;
    expect(token).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
    const raw = base58Decode(token).toString("latin1");
    expect(raw).toContain(session_id);
    expect(raw).not.toContain("dev-password");
  });

  /** Boundary finds a Target by name only when the body's `name` is the path's segment (TS validateAuthorizeSessionRequest); ours takes the path's. */
  const boundary = facts(mode).r.errors === "boundary";
  const named = (name: string) => (boundary ? { name } : {});

  test("by name with scope_id or scope_name, case-insensitively", async () => {
    const t = await c.create({ name: "Named-Target", host_set_ids: ["hsst_1234567890"] });
    expect((await authorize("named-target", { scope_id: PROJECT, ...named("named-target") })).body.target_id).toBe(t.id);
    expect((await authorize("NAMED-TARGET", { scope_name: "generated PROJECT scope", name: "NAMED-TARGET" })).body.target_id).toBe(t.id);
  });

  if (boundary)
    test("by name without the name in the body is 400: the segment is then an id, and a scope may not be given (Boundary's words)", async () => {
      await c.create({ name: "no-body-name", host_set_ids: ["hsst_1234567890"] });
      const res = await authorize("no-body-name", { scope_id: PROJECT });
      expect(res.body).toEqual({
        kind: "InvalidArgument",
        message: "Errors in provided fields.",
        details: {
          request_fields: [
            { name: "id", description: "Incorrectly formatted identifier." },
            { name: "scope_id", description: "Scope ID provided when target name was empty." },
          ],
        },
      });
      const differing = await authorize("no-body-name", { scope_id: PROJECT, name: "No-Body-Name" });
      expect(differing.body.details.request_fields).toEqual([
        { name: "name", description: "Target name provided but does not match the given ID value from the URL." },
      ]);
    });

  test.each([
    ["neither scope", { name: "named-target" }, ["scope_id", "scope_name"]],
    ["both scopes", { name: "named-target", scope_id: PROJECT, scope_name: "Generated project scope" }, ["scope_id", "scope_name"]],
    ["a body name differing from the path", { scope_id: PROJECT, name: "other" }, ["name"]],
  ])("by name with %s is 400", async (_what, body, fields) => {
    const res = await authorize("named-target", { ...named("named-target"), ...body });
    // from 0.16 a segment without _ and no scope is an alias value: an unknown one is 404
    if (facts(mode).r.aliases && !("scope_id" in body) && !("scope_name" in body)) {
      expect(res.body).toEqual({ kind: "NotFound", message: "Resource not found." });
      return;
    }
    expect(res.status).toBe(400);
    expect(res.body.details.request_fields.map((f: { name: string }) => f.name)).toEqual(fields);
    if (boundary) expect(res.body.message).toBe("Errors in provided fields.");
  });

  test("by id, a scope in the body is 400; an unknown name is 404", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"] });
    const scoped = await authorize(t.id, { scope_id: PROJECT });
    expect(scoped.status).toBe(400);
    if (boundary) expect(scoped.body.details.request_fields).toEqual([{ name: "scope_id", description: "Scope ID provided when target name was empty." }]);
    expect((await authorize("no-such-target", { scope_id: PROJECT, ...named("no-such-target") })).status).toBe(404);
  });

  test("host_id selects a host of the target's host sets; others are 400; no hosts is 404", async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567891"], attributes: { default_port: 2222 } });
    const res = await authorize(t.id, { host_id: "hst_1234567892" });
    expect(res.body).toMatchObject({ host_id: "hst_1234567892", host_set_id: "hsst_1234567891", endpoint: "tcp://127.0.0.3:2222" });
    const notInSets = await authorize(t.id, { host_id: "hst_1234567890" });
    expect(notInSets.status).toBe(400);
    // the validator's message (real v0.4.0 and v0.21.3: "Errors in provided fields.")
    expect(notInSets.body).toEqual({
      kind: "InvalidArgument",
      message: m.fieldErrors,
      details: { request_fields: [{ name: "host_id", description: "The requested host id is not available." }] },
    });
    // a host set's id is a host subtype's prefix: well formed, and no host (real v0.4.0 and v0.21.3)
    const hostSet = await authorize(t.id, { host_id: "hsst_1234567890" });
    expect(hostSet.body.details.request_fields).toEqual([{ name: "host_id", description: "The requested host id is not available." }]);
    // a plugin host's id (h_ from 0.8, hplg_ from 0.10) is well formed where the release takes plugin hosts
    for (const id of ["h_1234567890", "hplg_1234567890", "hx_1234567890"]) {
      const res = await authorize(t.id, { host_id: id });
      expect(res.status).toBe(400);
      const formatted = m.hostIds.some((p) => id.startsWith(p));
      expect(res.body.details.request_fields).toEqual([{ name: "host_id", description: formatted ? "The requested host id is not available." : m.badHostId }]);
    }
    const bare = await c.create();
    const none = await authorize(bare.id);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ kind: "NotFound", message: m.noHosts });
  });

  if (knows(facts(mode).r, "address"))
    test("a Target with an address: host_id is never read (200, whatever it names); 0.12–0.13 answer the Target's own id as the host's", async () => {
      const t = await c.create({ address: "127.0.0.1", attributes: { default_port: 22 } });
      for (const body of [{}, { host_id: "hst_1234567890" }, { host_id: "hsst_1234567890" }, { host_id: "hst_0000000000" }]) {
        const res = await authorize(t.id, body);
        expect(res.status).toBe(200);
        expect(res.body.endpoint).toBe("tcp://127.0.0.1:22");
        expect(res.body).not.toHaveProperty("host_set_id");
        if (m.targetIdAsHostId) expect(res.body.host_id).toBe(t.id);
        else expect(res.body).not.toHaveProperty("host_id");
      }
      // the validator still reads it first: a malformed id is refused
      expect((await authorize(t.id, { host_id: "bogus_1234567890" })).body.details.request_fields).toEqual([{ name: "host_id", description: m.badHostId }]);
    });

  test("the worker filter must leave a worker: otherwise the release's answer", async () => {
    const ok = await c.create({ host_set_ids: ["hsst_1234567890"], [m.filter]: '"dev" in "/tags/type"' });
    expect((await authorize(ok.id)).status).toBe(200);
    const none = await c.create({ host_set_ids: ["hsst_1234567890"], [m.filter]: '"/name" == "prod-worker"' });
    const res = await authorize(none.id);
    expect({ status: res.status, body: res.body }).toEqual(m.filtered);
  });

  test("with neither a host nor a worker, the release's first check answers", async () => {
    const t = await c.create({ [m.filter]: '"/name" == "prod-worker"' });
    const res = await authorize(t.id);
    expect({ status: res.status, body: res.body }).toEqual(m.workersFirst ? m.filtered : { status: 404, body: { kind: "NotFound", message: m.noHosts } });
  });

  test("fixtures may have no workers at all", async () => {
    const f = defaultFixtures();
    f.workers = [];
    const bare = await startTestController({ fixtures: f, emulation: mode });
    try {
      const t = await bare.create({ host_set_ids: ["hsst_1234567890"] });
      const res = await bare.call("POST", `/v1/targets/${t.id}:authorize-session`, {});
      expect({ status: res.status, body: res.body }).toEqual(m.noWorkers);
    } finally {
      await bare.shutdown();
    }
  });
});
