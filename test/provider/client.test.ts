/** BoundaryClient against the real controller (and a fault proxy in front of it for what it never does). */
import { createServer } from "node:net";
import {
  BoundaryApiError,
  BoundaryClient,
  BoundaryClientError,
  NotFoundError,
  SchemaValidationError,
  TimeoutError,
  TransportError,
  VersionConflictError,
} from "../../provider/client";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy";
import { startPagingProxy } from "../helpers/paging-proxy";
import { startQuotaProxy } from "../helpers/quota-proxy";

let c: TestController;
let client: BoundaryClient;
let proxy: FaultProxy;
let viaProxy: BoundaryClient;
beforeAll(async () => {
  c = await startTestController();
  client = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN, opsAddr: c.opsUrl }, {});
  proxy = await startFaultProxy(c.apiUrl);
  viaProxy = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN }, {});
});
afterEach(() => proxy.intercept(undefined));
afterAll(async () => {
  await Promise.all([client.close(), viaProxy.close(), proxy.close()]);
  await c.shutdown();
});

/** The error a promise rejects with (an API error's fields read as optional: tests check its class first). */
async function failure(p: Promise<unknown>): Promise<Error & Partial<BoundaryApiError>> {
  try {
    await p;
  } catch (err) {
    return err as Error & Partial<BoundaryApiError>;
  }
  throw new Error("expected a rejection");
}

describe("every endpoint", () => {
  test("create, get, update, list, delete", async () => {
    const t = await client.createTarget({ scope_id: PROJECT, name: "client-crud", type: "tcp", attributes: { default_port: 22 } });
    expect(t).toMatchObject({ name: "client-crud", version: 1, attributes: { default_port: 22 } });
    expect(await client.getTarget(t.id)).toEqual(t);
    const u = await client.updateTarget(t.id, 1, ["description", "attributes.default_port"], { description: "d" });
    expect(u).toMatchObject({ version: 2, description: "d", attributes: {} });
    const listed = await client.listTargets({ scopeId: PROJECT, filter: '"/item/name" == "client-crud"' });
    expect(listed.map((x) => x.id)).toEqual([t.id]);
    expect((await client.listTargets({ scopeId: "global", recursive: true })).some((x) => x.id === t.id)).toBe(true);
    await client.deleteTarget(t.id);
    expect(await failure(client.getTarget(t.id))).toBeInstanceOf(NotFoundError);
  });

  test("add, remove and set host sets and credential libraries, threading versions", async () => {
    const t = await client.createTarget({ scope_id: PROJECT, name: "client-assoc", type: "tcp" });
    let x = await client.addHostSets(t.id, t.version, ["hsst_1234567890"]);
    x = await client.addCredentialLibraries(t.id, x.version, ["clvlt_1234567890", "clvlt_1234567891"]);
    x = await client.removeCredentialLibraries(t.id, x.version, ["clvlt_1234567891"]);
    x = await client.setHostSets(t.id, x.version, ["hsst_1234567891"]);
    x = await client.removeHostSets(t.id, x.version, ["hsst_1234567891"]);
    x = await client.setCredentialLibraries(t.id, x.version, []);
    expect(x.version).toBe(7);
    expect(x.host_set_ids).toBeUndefined();
    expect(x.application_credential_library_ids).toBeUndefined();
  });

  test("authorize session by id and by name; health on the ops address", async () => {
    const t = await client.createTarget({
      scope_id: PROJECT,
      name: "client-session",
      type: "tcp",
      host_set_ids: ["hsst_1234567890"],
      application_credential_library_ids: ["clvlt_1234567890"],
    });
    const byId = await client.authorizeSession({ targetId: t.id });
    expect(byId).toMatchObject({ target_id: t.id, endpoint: "tcp://127.0.0.1" });
    expect(byId.credentials![0]!.secret.decoded).toEqual({ username: "dev", password: "dev-password" });
    expect((await client.authorizeSession({ name: "client-session", scopeId: PROJECT }, "hst_1234567890")).host_id).toBe("hst_1234567890");
    expect((await client.authorizeSession({ name: "client-session", scopeName: "Generated project scope" })).target_id).toBe(t.id);
    expect(await client.health()).toEqual({ status: 200, healthy: true });
  });

  test("health reports 503 at once when the controller is shutting down: an answer, not a reason to retry", async () => {
    const d = await startTestController({ gracefulShutdownWaitMs: 1000 });
    const opsProxy = await startFaultProxy(d.opsUrl);
    const ops = new BoundaryClient({ addr: d.apiUrl, opsAddr: opsProxy.url }, {});
    const stopping = d.shutdown();
    try {
      expect(await ops.health()).toEqual({ status: 503, healthy: false });
      expect(opsProxy.seen).toEqual([{ method: "GET", path: "/health", body: "", status: 503 }]);
    } finally {
      await ops.close();
      await opsProxy.close();
      await stopping;
    }
  });
});

describe("typed errors", () => {
  test("400 carries status, kind, request fields and a message naming method and path, never the token", async () => {
    const err = await failure(client.createTarget({ scope_id: PROJECT, name: "", type: "tcp" }));
    expect(err).toBeInstanceOf(BoundaryApiError);
    expect(err).toBeInstanceOf(BoundaryClientError);
    expect(err).toMatchObject({ status: 400, kind: "InvalidArgument", code: "BOUNDARY_API_ERROR", method: "POST", path: "/v1/targets" });
    expect(err.requestFields).toEqual([{ name: "name", description: "This field is required." }]);
    expect(err.message).toBe("POST /v1/targets: 400 InvalidArgument: Error in provided request. (name: This field is required.)");
    expect(JSON.stringify({ ...err, message: err.message, stack: err.stack })).not.toContain(ADMIN_TOKEN);
  });

  test("a stale version from our controller (409 Aborted) is a VersionConflictError", async () => {
    const t = await client.createTarget({ scope_id: PROJECT, name: "client-conflict", type: "tcp" });
    await client.updateTarget(t.id, 1, ["description"], { description: "x" });
    const patch = await failure(client.updateTarget(t.id, 1, ["description"], { description: "y" }));
    expect(patch).toBeInstanceOf(VersionConflictError);
    expect(patch).toMatchObject({ status: 409, kind: "Aborted", code: "BOUNDARY_VERSION_CONFLICT" });
    expect(await failure(client.setHostSets(t.id, 1, ["hsst_1234567890"]))).toBeInstanceOf(VersionConflictError);
  });

  test("real Boundary's conflict forms (404 on PATCH, 500 on actions) are VersionConflictErrors too", async () => {
    proxy.intercept((req) =>
      req.method === "PATCH"
        ? { status: 404, body: JSON.stringify({ kind: "NotFound", message: 'Target "ttcp_1234567890" not found or incorrect version provided.' }) }
        : { status: 500, body: JSON.stringify({ kind: "Internal", message: "targets.(Repository).SetTargetHostSets: unable to set: 0 rows updated" }) },
    );
    expect(await failure(viaProxy.updateTarget("ttcp_1234567890", 3, ["name"], { name: "x" }))).toBeInstanceOf(VersionConflictError);
    expect(await failure(viaProxy.setHostSets("ttcp_1234567890", 3, []))).toBeInstanceOf(VersionConflictError);
  });

  test("a plain 404 is a NotFoundError, 401 an API error with kind Unauthenticated", async () => {
    expect(await failure(client.getTarget("ttcp_zzzzzzzzzz"))).toBeInstanceOf(NotFoundError);
    const anon = new BoundaryClient({ addr: c.apiUrl }, {});
    const err = await failure(anon.listTargets({ scopeId: PROJECT }));
    expect(err).toMatchObject({ status: 401, kind: "Unauthenticated" });
    await anon.close();
  });

  test("instanceof holds across two loaded copies of the package (brand check)", () => {
    let Other: typeof import("../../provider/errors");
    jest.isolateModules(() => {
      Other = jest.requireActual("../../provider/errors");
    });
    const foreign = new Other!.VersionConflictError("GET", "/x", 409, "Aborted", "m");
    expect(Other!.VersionConflictError).not.toBe(VersionConflictError);
    expect(foreign).toBeInstanceOf(VersionConflictError);
    expect(foreign).toBeInstanceOf(BoundaryApiError);
    expect(foreign).not.toBeInstanceOf(NotFoundError);
  });

  test("a response that breaks the contract is a SchemaValidationError, not a transport error", async () => {
    proxy.intercept(() => ({ status: 200, body: JSON.stringify({ id: 5, version: "one" }) }));
    const err = await failure(viaProxy.getTarget("ttcp_1234567890"));
    expect(err).toBeInstanceOf(SchemaValidationError);
    expect(err.message).toMatch(/^GET \/v1\/targets\/ttcp_1234567890: unexpected response: id: /);
  });

  test("{} (real Boundary's empty list) is an empty list", async () => {
    proxy.intercept(() => ({ status: 200, body: "{}" }));
    expect(await viaProxy.listTargets({ scopeId: PROJECT })).toEqual([]);
  });
});

describe("retries and timeouts", () => {
  test("429 with Retry-After is retried after the wait, for any method", async () => {
    let limited = 0;
    proxy.intercept((req) => (req.method === "POST" && limited++ === 0 ? { status: 429, headers: { "retry-after": "1" } } : undefined));
    const started = Date.now();
    const t = await viaProxy.createTarget({ scope_id: PROJECT, name: "after-429", type: "tcp" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(t.name).toBe("after-429");
    expect(proxy.seen.filter((s) => s.method === "POST" && s.path === "/v1/targets").length).toBeGreaterThanOrEqual(2);
    // exactly one target exists: the 429 was not processed
    expect((await client.listTargets({ scopeId: PROJECT, filter: '"/item/name" == "after-429"' })).length).toBe(1);
  });

  test("503 is retried; retries are bounded by BOUNDARY_MAX_RETRIES", async () => {
    proxy.intercept(() => ({ status: 503, headers: { "retry-after": "0" } }));
    const before = proxy.seen.length;
    const limited = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN }, { BOUNDARY_MAX_RETRIES: "1" });
    const err = await failure(limited.listTargets({ scopeId: PROJECT }));
    expect(err).toMatchObject({ status: 503 });
    expect(proxy.seen.length - before).toBe(2);
    await limited.close();
  });

  test("a stopping controller's 500 `context canceled` is sent again for a DELETE (it was not applied), never for a create", async () => {
    const canceled = (what: string) => ({
      status: 500,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "Internal", message: `targets.(Service).${what}: db.DoTx: context canceled` }),
    });
    const t = await client.createTarget({ scope_id: PROJECT, name: "deleted-while-stopping", type: "tcp" });
    let deletes = 0;
    proxy.intercept((req) => (req.method === "DELETE" && deletes++ === 0 ? canceled("DeleteTarget") : undefined));
    await viaProxy.deleteTarget(t.id);
    expect(deletes).toBe(2);
    expect(await failure(client.getTarget(t.id))).toBeInstanceOf(NotFoundError);

    // a create so answered may or may not have been applied: it goes up as the controller's answer, sent once
    proxy.intercept((req) => (req.method === "POST" ? canceled("CreateTarget") : undefined));
    const before = proxy.seen.length;
    expect(await failure(viaProxy.createTarget({ scope_id: PROJECT, name: "created-while-stopping", type: "tcp" }))).toMatchObject({ status: 500 });
    expect(proxy.seen.length - before).toBe(1);
    // another 500 is not taken for a stopping controller
    deletes = 0;
    proxy.intercept((req) =>
      req.method === "DELETE" && deletes++ === 0 ? { ...canceled("DeleteTarget"), body: '{"kind":"Internal","message":"boom"}' } : undefined,
    );
    const u = await client.createTarget({ scope_id: PROJECT, name: "deleted-on-boom", type: "tcp" });
    expect(await failure(viaProxy.deleteTarget(u.id))).toMatchObject({ status: 500 });
    expect(deletes).toBe(1);
  });

  test("BOUNDARY_CLIENT_TIMEOUT bounds a request that never answers", async () => {
    proxy.intercept(() => ({ status: 0, hang: true }));
    const impatient = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN }, { BOUNDARY_CLIENT_TIMEOUT: "200ms", BOUNDARY_MAX_RETRIES: "0" });
    const err = await failure(impatient.getTarget("ttcp_1234567890"));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toBe("GET /v1/targets/ttcp_1234567890: no answer within 200 ms (BOUNDARY_CLIENT_TIMEOUT)");
    await impatient.close();
  });

  test("a controller that restarts: idempotent calls retry until it is back; a create is not retried", async () => {
    const d = await startTestController();
    const port = Number(new URL(d.apiUrl).port);
    const local = new BoundaryClient({ addr: d.apiUrl, token: ADMIN_TOKEN }, { BOUNDARY_MAX_RETRIES: "4" });
    const t = await local.createTarget({ scope_id: PROJECT, name: "survives-restart", type: "tcp" });
    await d.shutdown();
    // while down: a create fails at once (it might have been processed), a read waits for the restart
    expect(await failure(local.createTarget({ scope_id: PROJECT, name: "while-down", type: "tcp" }))).toBeInstanceOf(TransportError);
    let restarted: TestController | undefined;
    setTimeout(async () => {
      restarted = await startTestController({ api: { host: "127.0.0.1", port }, store: d.store });
    }, 300);
    expect((await local.getTarget(t.id)).name).toBe("survives-restart");
    await local.close();
    await restarted!.shutdown();
  });

  test("a port with nothing listening is a TransportError naming the call", async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    await new Promise((r) => server.close(r));
    const nowhere = new BoundaryClient({ addr: `http://127.0.0.1:${port}`, token: ADMIN_TOKEN }, { BOUNDARY_MAX_RETRIES: "0" });
    const err = await failure(nowhere.listTargets({ scopeId: PROJECT }));
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toMatch(/^GET \/v1\/targets: ECONNREFUSED/);
    expect(err.message).not.toContain(ADMIN_TOKEN);
  });
});

describe("settings", () => {
  test("BOUNDARY_ADDR and BOUNDARY_TOKEN are read when the client is made; bad values name the variable", () => {
    const s = new BoundaryClient({}, { BOUNDARY_ADDR: "https://boundary.example:9200/", BOUNDARY_TOKEN: "at_x" }).settings;
    expect(s).toMatchObject({
      origin: "https://boundary.example:9200",
      opsOrigin: "https://boundary.example:9203",
      token: "at_x",
      maxRetries: 2,
      timeoutMs: 60000,
    });
    expect(() => new BoundaryClient({}, { BOUNDARY_ADDR: "nope" })).toThrow('BOUNDARY_ADDR: "nope" is not a URL');
    expect(() => new BoundaryClient({}, { BOUNDARY_CLIENT_TIMEOUT: "soon" })).toThrow('BOUNDARY_CLIENT_TIMEOUT: invalid duration "soon"');
    expect(() => new BoundaryClient({}, { BOUNDARY_MAX_RETRIES: "-1" })).toThrow("BOUNDARY_MAX_RETRIES");
    expect(new BoundaryClient({}, {}).settings.origin).toBe("http://127.0.0.1:9200");
  });
});

describe("the client's own errors", () => {
  test("an error body that echoes the request's headers never puts the token in a message", async () => {
    const echo = `upstream refused: Authorization: Bearer ${ADMIN_TOKEN}; authorization=${ADMIN_TOKEN}; token ${ADMIN_TOKEN}`;
    const cases = [
      { status: 502, body: echo },
      { status: 500, body: JSON.stringify({ kind: "Internal", message: echo, details: { request_fields: [{ name: "authorization", description: echo }] } }) },
    ];
    for (const fault of cases) {
      proxy.intercept(() => fault);
      const err = await viaProxy.getTarget("ttcp_1234567890").catch((e: unknown) => e);
      proxy.intercept(undefined);
      expect(err).toBeInstanceOf(BoundaryApiError);
      const everything = JSON.stringify({
        message: (err as Error).message,
        fields: (err as BoundaryApiError).requestFields,
        api: (err as BoundaryApiError).apiMessage,
      });
      expect(everything).not.toContain(ADMIN_TOKEN);
      expect(everything).toContain("[redacted]");
    }
  });

  test("a body that stalls after the headers is a TimeoutError naming method and path, and a GET is retried", async () => {
    let attempts = 0;
    proxy.intercept((req) => (req.method === "GET" && ++attempts ? { status: 200, stallBody: true } : undefined));
    const impatient = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN, timeoutMs: 200, maxRetries: 2 }, {});
    try {
      const err = await impatient.getTarget("ttcp_1234567890").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TimeoutError);
      expect((err as Error).message).toBe("GET /v1/targets/ttcp_1234567890: no answer within 200 ms (BOUNDARY_CLIENT_TIMEOUT)");
      expect(attempts).toBe(3);
    } finally {
      proxy.intercept(undefined);
      await impatient.close();
    }
  });
});

describe("paginated lists (Boundary ≥ 0.15)", () => {
  test("2,500 Targets arrive whole: pages followed with list_token until complete", async () => {
    const many = await startTestController();
    for (let i = 0; i < 2500; i++) many.store.createTarget({ scope_id: PROJECT, name: `paged-${i}`, type: "tcp" });
    const paging = await startPagingProxy(many.apiUrl, 1000);
    const paged = new BoundaryClient({ addr: paging.url, token: ADMIN_TOKEN }, {});
    try {
      const items = await paged.listTargets({ scopeId: PROJECT });
      expect(items).toHaveLength(2500);
      expect(new Set(items.map((t) => t.id)).size).toBe(2500);
      expect(paging.pages).toEqual([undefined, "page:1000", "page:2000"]);
    } finally {
      await paged.close();
      await paging.close();
      await many.shutdown();
    }
  });

  test("an empty paginated list (no items key) and v0.4's {} are both no Targets", async () => {
    const empty = await startTestController({ emulation: "0.4" });
    const paging = await startPagingProxy(empty.apiUrl, 1000);
    const clients = [new BoundaryClient({ addr: empty.apiUrl, token: ADMIN_TOKEN }, {}), new BoundaryClient({ addr: paging.url, token: ADMIN_TOKEN }, {})];
    try {
      for (const cl of clients) expect(await cl.listTargets({ scopeId: PROJECT })).toEqual([]);
    } finally {
      await Promise.all(clients.map((cl) => cl.close()));
      await paging.close();
      await empty.shutdown();
    }
  });
});

describe("rate limits (Boundary ≥ 0.14.3)", () => {
  // (a quota the client reaches at once on a loaded machine: each read costs this process the client's, the proxy's and the controller's work)
  test("400 reads, 16 at a time, under a quota of 100 per second: no failed read, (nearly) no 429", async () => {
    const quota = await startQuotaProxy(c.apiUrl, 100, 1000);
    const paced = new BoundaryClient({ addr: quota.url, token: ADMIN_TOKEN }, {});
    const t = await client.createTarget({ scope_id: PROJECT, name: "paced", type: "tcp" });
    try {
      let next = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = next++; i < 400; i = next++) expect((await paced.getTarget(t.id)).id).toBe(t.id);
        }),
      );
      // the quota itself allows 400 reads in just over 3 s; pacing waits for the windows
      expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
      expect(quota.refused()).toBeLessThanOrEqual(16);
    } finally {
      await paced.close();
      await quota.close();
    }
  }, 30_000);

  test("BOUNDARY_RATE_LIMIT caps the client at that many requests per second", async () => {
    const capped = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN }, { BOUNDARY_RATE_LIMIT: "20" });
    const t = await client.createTarget({ scope_id: PROJECT, name: "capped", type: "tcp" });
    try {
      const started = Date.now();
      await Promise.all(Array.from({ length: 60 }, () => capped.getTarget(t.id)));
      // a burst of 20, then 20 per second: 60 requests take about two seconds
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
      expect(() => new BoundaryClient({}, { BOUNDARY_RATE_LIMIT: "fast" })).toThrow('BOUNDARY_RATE_LIMIT: "fast" must be a number of requests per second > 0');
    } finally {
      await capped.close();
    }
  });
});
