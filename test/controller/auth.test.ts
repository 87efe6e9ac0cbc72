/** Bearer tokens, against every release of the matrix: 401 without one, the read-only token may list and read only. */
import fc from "fast-check";
import type { IncomingMessage } from "node:http";
import { Authenticator, bearerToken } from "../../controller/http/auth";
import { PROJECT, READ_ONLY_TOKEN, startTestController, type TestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";

describe.each(MATRIX)("--emulate %s", (mode) => {
  const { hosts, creds } = facts(mode);
  let c: TestController;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field
  let t: any;
  beforeAll(async () => {
    c = await startTestController({ emulation: mode, rateLimits: "disabled" });
    t = await c.create({ host_set_ids: ["hsst_1234567890"] });
  });
  afterAll(() => c.shutdown());

  test.each([
    ["no Authorization header", null],
    ["an unknown token", "at_zzzzzzzzzz_s1nope"],
    ["an empty bearer", ""],
  ])("%s is 401 with Boundary's message", async (_what, token) => {
    const res = await c.call("GET", `/v1/targets/${t.id}`, undefined, token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ kind: "Unauthenticated", message: "Unauthenticated, or invalid token." });
  });

  test("the scheme is case-insensitive", async () => {
    const res = await fetch(`${c.apiUrl}/v1/targets/${t.id}`, { headers: { authorization: `bEaReR ${READ_ONLY_TOKEN}` } });
    expect(res.status).toBe(200);
  });

  test("the read-only token lists and reads, and its authorized_actions say so", async () => {
    const one = await c.call("GET", `/v1/targets/${t.id}`, undefined, READ_ONLY_TOKEN);
    expect(one.status).toBe(200);
    expect(one.body.authorized_actions).toEqual(["no-op", "read"]);
    const all = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`, undefined, READ_ONLY_TOKEN);
    expect(all.body.items[0].authorized_actions).toEqual(["no-op", "read"]);
    const filtered = await c.call(
      "GET",
      `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent('"update" in "/item/authorized_actions"')}`,
      undefined,
      READ_ONLY_TOKEN,
    );
    expect(filtered.body.items ?? []).toEqual([]);
  });

  // the actions a read-only token is refused, by the names the release uses
  const [setHosts, setHostsBody, addCreds, addCredsBody] = [
    `set-${hosts.noun}`,
    { [hosts.field]: [] },
    `add-${creds.noun}`,
    { [creds.field]: ["clvlt_1234567890"] },
  ];
  test.each([
    ["POST", "/v1/targets", { scope_id: PROJECT, name: "ro", type: "tcp", attributes: { default_port: 22 } }],
    ["PATCH", "/v1/targets/{id}", { version: 1, description: "x" }],
    ["DELETE", "/v1/targets/{id}", undefined],
    ["POST", `/v1/targets/{id}:${setHosts}`, { version: 1, ...setHostsBody }],
    ["POST", `/v1/targets/{id}:${addCreds}`, { version: 1, ...addCredsBody }],
    ["POST", "/v1/targets/{id}:authorize-session", {}],
  ])("the read-only token is refused %s %s with 403", async (method, path, body) => {
    const res = await c.call(method, path.replace("{id}", t.id), body, READ_ONLY_TOKEN);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ kind: "PermissionDenied", message: "Forbidden." });
    expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(t.version);
  });
});

test("the Bearer header is read as /^bearer\\s+(\\S+)\\s*$/i reads it (without the regex on every request)", () => {
  const byRegex = (h: string) => /^bearer\s+(\S+)\s*$/i.exec(h)?.[1];
  const scheme = fc.constantFrom("Bearer", "bearer", "BEARER", "BeArEr", "Bear", "bearerx", "Basic", "");
  const space = fc.constantFrom("", " ", "  ", "\t", "\n", "\u00a0", " \t");
  const header = fc.oneof(
    fc.string(),
    fc.tuple(scheme, space, fc.string(), space, fc.string({ maxLength: 3 })).map((parts) => parts.join("")),
  );
  fc.assert(
    fc.property(header, (h) => expect(bearerToken(h)).toBe(byRegex(h))),
    { numRuns: 5000 },
  );
});

test("a configured token is known exactly when bearerToken reads it from the header, whatever the tokens hold (the shortcut for `Bearer <token>` agrees)", () => {
  const token = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom("at_1 2", " at", "at\t", "at_1234567890_s1"));
  const scheme = fc.constantFrom("Bearer ", "bearer ", "Bearer  ", "Bearer\t", "");
  fc.assert(
    fc.property(token, fc.option(token), fc.string({ maxLength: 3 }), scheme, (admin, readOnly, extra, prefix) => {
      const auth = new Authenticator(admin, readOnly ?? undefined);
      for (const presented of [admin, readOnly ?? "", admin + extra, extra]) {
        const header = prefix + presented;
        const read = bearerToken(header);
        const expected = read === undefined ? undefined : read === admin ? "admin" : readOnly !== null && read === readOnly ? "read-only" : undefined;
        expect(auth.identify({ headers: { authorization: header } } as IncomingMessage)?.grant).toBe(expected);
      }
    }),
    { numRuns: 3000 },
  );
});
