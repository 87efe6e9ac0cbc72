/**
 * The order of Boundary's checks: the gateway decodes the body, the handler validates the request,
 * `authResult` looks the scope or Target up, and only then `auth.Verify` refuses the caller (TS and
 * auth.go at every tag from v0.4.0 to v0.21.3). The table is what real v0.4.0, v0.15.5 and v0.21.3
 * `boundary dev` servers answered requests with no token, or a well-formed one they never issued
 * (boundary-v0.*-observed.md, "Without a token"); the spec's controller refuses the token first.
 */
import { RELEASE_KEYS, release, type ReleaseKey } from "../../wire/releases";
import { PROJECT, READ_ONLY_TOKEN, useTestController } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";

const UNKNOWN_TARGET = "ttcp_0000000000";
const since = (k: ReleaseKey, first: ReleaseKey) => RELEASE_KEYS.indexOf(k) >= RELEASE_KEYS.indexOf(first);
const NEVER_ISSUED = "at_0000000000_s1NeverIssuedByThisController";

/** One request of the table: what it sends (`{t}` is a Target that exists) and the kind a real release answered. */
type Row = [what: string, method: string, path: string, body: string | undefined, answer: (k: ReleaseKey) => string];

const UNAUTHENTICATED = () => "Unauthenticated";
const ROWS: Row[] = [
  ["a list of a project", "GET", `/v1/targets?scope_id=${PROJECT}`, undefined, UNAUTHENTICATED],
  // TS ListTargets goes on past authResult's 401 for a recursive list from 0.6 (before, only past a 403),
  // and scopeids finds no scope where u_anon may list Targets: 403 (real v0.15.5 and v0.21.3; real v0.4.0: 401)
  [
    "a recursive list from global",
    "GET",
    "/v1/targets?scope_id=global&recursive=true",
    undefined,
    (k) => (since(k, "0.6") ? "PermissionDenied" : "Unauthenticated"),
  ],
  ["a read of a Target that exists", "GET", "/v1/targets/{t}", undefined, UNAUTHENTICATED],
  ["a read of no such Target", "GET", `/v1/targets/${UNKNOWN_TARGET}`, undefined, () => "NotFound"],
  // an id without `_` is an alias value from 0.16 (no such alias: 404), a malformed id before
  ["a read of a malformed id", "GET", "/v1/targets/bogus", undefined, (k) => (release(k).aliases ? "NotFound" : "InvalidArgument")],
  ["a create with a malformed body", "POST", "/v1/targets", '{"type":', () => "Internal"],
  ["a create without a type", "POST", "/v1/targets", JSON.stringify({ scope_id: PROJECT, name: "x" }), () => "InvalidArgument"],
  [
    "a create of an unknown project",
    "POST",
    "/v1/targets",
    JSON.stringify({ scope_id: "p_0000000000", name: "x", type: "tcp", attributes: { default_port: 22 } }),
    () => "NotFound",
  ],
  ["a valid create", "POST", "/v1/targets", JSON.stringify({ scope_id: PROJECT, name: "x", type: "tcp", attributes: { default_port: 22 } }), UNAUTHENTICATED],
  ["a PATCH of no such Target", "PATCH", `/v1/targets/${UNKNOWN_TARGET}`, JSON.stringify({ version: 1, name: "y" }), () => "NotFound"],
  ["a DELETE of no such Target", "DELETE", `/v1/targets/${UNKNOWN_TARGET}`, undefined, () => "NotFound"],
  ["authorize-session of a Target that exists", "POST", "/v1/targets/{t}:authorize-session", "{}", UNAUTHENTICATED],
];

const STATUS: Record<string, number> = { Unauthenticated: 401, PermissionDenied: 403, NotFound: 404, InvalidArgument: 400, Internal: 500 };

describe.each(MATRIX.filter((k) => release(k).checksTokenAt === "last"))("--emulate %s: the token is judged last", (mode) => {
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  let target: string;
  beforeAll(async () => void (target = (await c.create({ name: "exists" })).id));
  const send = (method: string, path: string, body: string | undefined, authorization?: string) =>
    fetch(`${c.apiUrl}${path.replace("{t}", target)}`, {
      method,
      headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
      body,
    });

  describe.each([
    ["no token", undefined],
    ["a token it never issued", `Bearer ${NEVER_ISSUED}`],
    ["a header that is no token", "Bearer not-a-token"],
  ])("with %s", (_who, authorization) => {
    test.each(ROWS)("%s (%s %s)", async (_what, method, path, body, answer) => {
      const res = await send(method, path, body, authorization);
      const kind = answer(mode);
      expect([res.status, ((await res.json()) as { kind: string }).kind]).toEqual([STATUS[kind], kind]);
    });
  });

  test("the recursive list's refusal, whole", async () => {
    const res = await send("GET", "/v1/targets?scope_id=global&recursive=true", undefined, `Bearer ${NEVER_ISSUED}`);
    expect([res.status, await res.json()]).toEqual(
      since(mode, "0.6")
        ? [403, { kind: "PermissionDenied", message: "Forbidden." }]
        : [401, { kind: "Unauthenticated", message: "Unauthenticated, or invalid token." }],
    );
  });

  test("nothing was created or changed by any of them", async () => {
    expect(c.store.size).toBe(1);
    expect(c.store.getTarget(target).version).toBe(1);
  });

  test("a read-only token: the same checks first, then 403 where it lacks the grant", async () => {
    const patch = (id: string) => send("PATCH", `/v1/targets/${id}`, JSON.stringify({ version: 1, name: "y" }), `Bearer ${READ_ONLY_TOKEN}`);
    expect((await patch(UNKNOWN_TARGET)).status).toBe(404);
    const denied = await patch(target);
    expect([denied.status, await denied.json()]).toEqual([403, { kind: "PermissionDenied", message: "Forbidden." }]);
    const noType = await send("POST", "/v1/targets", JSON.stringify({ scope_id: PROJECT, name: "x" }), `Bearer ${READ_ONLY_TOKEN}`);
    expect(noType.status).toBe(400);
    expect((await send("DELETE", `/v1/targets/${UNKNOWN_TARGET}`, undefined, `Bearer ${READ_ONLY_TOKEN}`)).status).toBe(404);
  });
});

describe("the spec's controller refuses the token first", () => {
  const c = useTestController({ rateLimits: "disabled" });
  test.each(ROWS)("%s (%s %s) is 401", async (_what, method, path, body) => {
    const res = await fetch(`${c.apiUrl}${path.replace("{t}", "ttcp_1234567890")}`, { method, headers: { "content-type": "application/json" }, body });
    expect(res.status).toBe(401);
  });
});
