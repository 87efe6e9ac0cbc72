/**
 * Routing as each release routes, over raw HTTP (a client library would clean `..` or encode
 * differently): Go's ServeMux 301 for a path with `..`; the rate limiter's empty 405 (0.14.3+) or
 * the gateway's JSON 405 for a method no route takes; `%2F` splitting a path (the gateway's
 * routing 500); a GET of an action path reaching the read route; authorize-session's `{id=**}`
 * (0.13+) so a Target named `foo/bar` is authorized by name; a name only in the path refused;
 * `/health`'s `{}`. Real servers' answers: boundary-v0.{4.0,15.5,21.3}-observed.md.
 */
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { rawRequest } from "../helpers/raw-http";
import { MATRIX, facts } from "../helpers/releases";

const GATEWAY_500 = { kind: "Internal", message: "rpc error: code = NotFound desc = Not Found" };
const GATEWAY_405 = { kind: "Unimplemented", message: "Method Not Allowed" };

/** The spec's controller's 404 for a path it does not route, after the method and path (routing "ours"). */
const NO_ROUTE = ": this controller serves Boundary's Target API under /v1/ (is the address's path right?).\n";

describe.each(MATRIX)("--emulate %s", (mode) => {
  const { r, hosts } = facts(mode);
  const boundary = r.routing !== "ours";
  let c: TestController;
  let id: string;
  beforeAll(async () => {
    c = await startTestController({ emulation: mode, rateLimits: "disabled" });
    id = (await c.create({ name: "routed" })).id;
  });
  afterAll(() => c.shutdown());

  /** One request over a raw socket: status, headers, body parsed as JSON where it is. */
  const raw = async (method: string, path: string, body?: string) => {
    const length = body === undefined ? "" : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
    const res = await rawRequest(
      c.apiUrl,
      `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n${length}Connection: close\r\n\r\n${body ?? ""}`,
    );
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    return { ...res, json };
  };

  test("a path with .. is Go's 301 to the clean path (a GET with its small page); the spec's controller does not clean", async () => {
    const get = await raw("GET", "/v1/targets/../scopes?x=1");
    const post = await raw("POST", "/v1/targets/./", "{}");
    if (r.pathCleaning === "redirect") {
      expect([get.status, get.headers.location, get.body]).toEqual([301, "/v1/scopes?x=1", '<a href="/v1/scopes?x=1">Moved Permanently</a>.\n\n']);
      expect([post.status, post.headers.location, post.body]).toEqual([301, "/v1/targets/", ""]);
      expect((await raw("GET", "/v1")).headers.location).toBe("/v1/");
    } else {
      expect([get.status, get.headers["content-type"], get.body]).toEqual([
        404,
        "text/plain; charset=utf-8",
        `No route for GET /v1/targets/../scopes${NO_ROUTE}`,
      ]);
    }
  });

  test("a method no route takes: the rate limiter's empty 405, the gateway's JSON 405, or the spec's 405 naming the methods", async () => {
    for (const [method, path] of [
      ["PUT", "/v1/targets"],
      ["DELETE", "/v1/targets"],
      ["PATCH", "/v1/targets"],
      ["POST", `/v1/targets/${id}`],
      ["OPTIONS", `/v1/targets/${id}`],
      ["PUT", `/v1/targets/${id}`],
    ] as const) {
      const a = await raw(method, path, "{}");
      expect([method, path, a.status]).toEqual([method, path, 405]);
      if (r.routing === "rate-limiter") expect([a.body, a.headers["content-type"]]).toEqual(["", undefined]);
      else if (r.routing === "gateway") expect(a.json).toEqual(GATEWAY_405);
      else expect(a.headers.allow).toBeDefined();
    }
  });

  test("a GET of an action path is the read route with the whole segment as id: 400 on id (the spec's controller: 405)", async () => {
    for (const action of ["authorize-session", `add-${hosts.noun}`]) {
      const a = await raw("GET", `/v1/targets/${id}:${action}`);
      if (boundary) {
        expect([a.status, a.json]).toEqual([
          400,
          {
            kind: "InvalidArgument",
            message: "Error in provided request.",
            details: { request_fields: [{ name: "id", description: "Invalid formatted identifier." }] },
          },
        ]);
      } else expect([a.status, a.headers.allow]).toEqual([405, "POST"]);
    }
  });

  test("%2F in an id separates path components: the gateway's routing 500 (the spec's controller decodes one segment)", async () => {
    const a = await raw("GET", "/v1/targets/ttcp_abc%2Fdef");
    if (boundary) expect([a.status, a.json]).toEqual([500, GATEWAY_500]);
    else expect([a.status, (a.json as { details: { request_fields: { name: string }[] } }).details.request_fields[0]!.name]).toEqual([400, "id"]);
  });

  test("a Target named foo/bar is authorized by name and scope where authorize-session is {id=**} (0.13+); before, its path is not routed", async () => {
    const fields = r.fields.includes("address") ? { address: "10.1.2.3" } : { host_set_ids: ["hsst_1234567890"] };
    const t = await c.create({ name: "foo/bar", ...fields });
    const body = JSON.stringify({ name: "foo/bar", scope_id: PROJECT });
    const encoded = await raw("POST", "/v1/targets/foo%2Fbar:authorize-session", body);
    const bare = await raw("POST", "/v1/targets/foo/bar:authorize-session", body);
    if (!boundary) {
      expect([encoded.status, (encoded.json as { target_id?: string }).target_id]).toEqual([200, t.id]);
      expect([bare.status, bare.headers["content-type"], bare.body]).toEqual([
        404,
        "text/plain; charset=utf-8",
        `No route for POST /v1/targets/foo/bar:authorize-session${NO_ROUTE}`,
      ]);
    } else if (r.authorizeSessionPath === "rest") {
      for (const a of [encoded, bare]) expect([a.status, (a.json as { target_id?: string }).target_id]).toEqual([200, t.id]);
    } else {
      for (const a of [encoded, bare]) expect([a.status, a.json]).toEqual([500, GATEWAY_500]);
    }
  });

  test("by name, the name must be in the body: a name only in the path, with a scope, is refused on every release", async () => {
    await c.create({ name: "inpath", host_set_ids: ["hsst_1234567890"] });
    const byScopeId = await c.call("POST", "/v1/targets/inpath:authorize-session", { scope_id: PROJECT });
    const byScopeName = await c.call("POST", "/v1/targets/inpath:authorize-session", { scope_name: "Generated project scope" });
    if (!boundary) {
      expect([byScopeId.status, byScopeName.status]).toEqual([200, 200]);
      return;
    }
    const refusal = (scope: string) => ({
      kind: "InvalidArgument",
      message: "Errors in provided fields.",
      details: {
        request_fields: [
          { name: "id", description: "Incorrectly formatted identifier." },
          { name: "scope_id", description: scope },
        ],
      },
    });
    expect([byScopeId.status, byScopeId.body]).toEqual([400, refusal("Scope ID provided when target name was empty.")]);
    expect([byScopeName.status, byScopeName.body]).toEqual([400, refusal("Scope name provided when target name was empty.")]);
  });

  test("/health on the ops listener: Boundary's {} as JSON, or the spec's empty body", async () => {
    const res = await fetch(`${c.opsUrl}/health`);
    const text = await res.text();
    if (r.healthBody === "json") expect([res.status, res.headers.get("content-type"), text]).toEqual([200, "application/json", "{}"]);
    else expect([res.status, text]).toEqual([200, ""]);
  });
});
