/**
 * Property over raw sockets, not only JSON bodies: random methods, paths, headers, query strings,
 * filters and bodies. Never a 5xx, never a hang (each answer within a deadline), /health answers
 * throughout and no request holds the event loop 100 ms (so /health would answer within 100 ms),
 * and a rejected request leaves the store as it was.
 *
 * The 100 ms is measured as the controller thread's CPU between two turns of its loop
 * (harness/loop-monitor.ts), not as /health's wall-clock time: on a machine loaded by other
 * processes (jest's other workers) the clock runs on while this process waits for a core, which
 * says nothing about the controller.
 */
import fc from "fast-check";
import { monitorLoop, type LoopMonitor } from "../../harness/loop-monitor";
import { ADMIN_TOKEN, PROJECT, READ_ONLY_TOKEN, startTestController, type TestController } from "../helpers/controller";
import { rawRequest } from "../helpers/raw-http";

/** The longest the event loop may be held (the answer time /health must meet). */
const MAX_BLOCK_MS = 100;

let c: TestController;
let ids: string[];
let loop: LoopMonitor;
beforeAll(async () => {
  c = await startTestController();
  ids = [];
  for (let i = 0; i < 3; i++) ids.push((await c.create({ name: `fuzz-${i}`, host_set_ids: ["hsst_1234567890"] })).id);
});
afterAll(() => c.shutdown());
beforeEach(() => (loop = monitorLoop()));
afterEach(() => loop.stop());

const token = fc.stringMatching(/^[A-Za-z0-9_\-.]{0,12}$/);
const text = fc.string({ maxLength: 40 });
const method = fc.oneof(fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "HEAD", "OPTIONS"), fc.stringMatching(/^[A-Z]{1,8}$/));
const segment = fc.oneof(
  fc.constantFrom("ttcp_1234567890", "ttcp_", "p_1234567890", "..", "%2e%2e", "%zz", "%00", "a:b:c", ""),
  fc.constant(null).chain(() => fc.constantFrom(...ids)),
  token,
);
const action = fc.constantFrom("", ":authorize-session", ":set-host-sets", ":add-credential-libraries", ":remove-host-sets", ":set-host-sources", ":nope", ":");
const path = fc.oneof(
  fc.constantFrom("/v1/targets", "/v1/targets/", "/v1/", "/", "/health", "/v1/targets//x", "/V1/TARGETS"),
  fc.tuple(segment, action).map(([s, a]) => `/v1/targets/${s}${a}`),
  token.map((t) => `/v1/${t}`),
);
const filter = fc.oneof(
  fc.constantFrom(
    '"/item/created_time" matches "^(.*)*(.*)*!$"',
    '"/item/name" matches "(?=x)"',
    '"/item/name" == "fuzz-1"',
    "not",
    '"a" in "/item/authorized_actions"',
  ),
  fc.integer({ min: 1, max: 8000 }).map((n) => "(".repeat(n) + '"/item/name" == "x"' + ")".repeat(n % 2 ? n : 0)),
  fc.integer({ min: 1, max: 2000 }).map((n) => "not ".repeat(n) + '"/item/name" == "x"'),
  text,
);
const query = fc.oneof(
  fc.constant(""),
  fc
    .record(
      {
        scope_id: fc.constantFrom(PROJECT, "global", "o_1234567890", "x", ""),
        recursive: fc.constantFrom("true", "false", "yes", ""),
        filter,
        update_mask: fc.constantFrom("name", "attributes", "scope_id,type", "x,,y"),
      },
      { requiredKeys: [] },
    )
    .map((q) => "?" + new URLSearchParams(q as Record<string, string>).toString()),
  text.map((t) => "?" + encodeURIComponent(t)),
);
const authorization = fc.oneof(
  fc.constantFrom(`Bearer ${ADMIN_TOKEN}`, `bearer ${ADMIN_TOKEN}`, `Bearer ${READ_ONLY_TOKEN}`, "Bearer", "Basic abc", `Bearer  ${ADMIN_TOKEN}  `),
  token.map((t) => `Bearer ${t}`),
  fc.constant(undefined),
);
const body = fc.oneof(
  fc.constant(""),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        version: fc.integer({ min: -1, max: 3 }),
        name: text,
        host_set_ids: fc.array(fc.constantFrom("hsst_1234567890", "x", ""), { maxLength: 3 }),
        scope_id: fc.constantFrom(PROJECT, "x"),
        type: fc.constantFrom("tcp", "x"),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString("latin1")),
);
const extraHeader = fc.tuple(fc.stringMatching(/^x-[a-z]{1,10}$/), fc.stringMatching(/^[ -~]{0,30}$/));

/** What the store holds: ids and versions, to see that a rejected request changed nothing. */
const snapshot = () =>
  c.store
    .listTargets("global", true)
    .map((t) => `${t.id}@${t.version}`)
    .join(",");

test("random raw requests: never a 5xx, never a hang, /health stays fast, rejections change nothing", async () => {
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(
      method,
      path,
      query,
      authorization,
      fc.option(fc.constantFrom("application/json", "text/plain", "")),
      fc.array(extraHeader, { maxLength: 3 }),
      body,
      async (m, p, q, auth, type, extra, b) => {
        const payload = Buffer.from(b, "latin1");
        const headers = [`host: fuzz`, `content-length: ${payload.length}`];
        if (auth !== undefined) headers.push(`authorization: ${auth}`);
        if (type) headers.push(`content-type: ${type}`);
        for (const [k, v] of extra) headers.push(`${k}: ${v}`);
        const request = Buffer.concat([Buffer.from(`${m} ${p}${q} HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n`, "latin1"), payload]);
        const before = snapshot();
        const res = await rawRequest(c.apiUrl, request, 2000, m === "HEAD");
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(snapshot()).toBe(before);
        if (++sent % 25 === 0) {
          const health = await fetch(`${c.opsUrl}/health`, { signal: AbortSignal.timeout(2000) });
          expect(health.status).toBe(200);
        }
        expect(loop.longestBlockMs()).toBeLessThan(MAX_BLOCK_MS);
      },
    ),
    { numRuns: 600 },
  );
}, 120_000);

test("random hostile filters on a valid list: answered within the deadline: 200, or a 400 naming filter (431 for an overlong URL)", async () => {
  const hostile = fc.oneof(
    fc.constantFrom('"/item/created_time" matches "^(.*)*(.*)*!$"', '"/item/name" matches "(a+)+$"', '"/item/name" matches "\\\\1"'),
    fc.integer({ min: 1, max: 3000 }).map((n) => "(".repeat(n) + '"/item/name" == "x"' + ")".repeat(n % 3 ? n : 0)),
    fc.integer({ min: 1, max: 1500 }).map((n) => "not ".repeat(n) + '"/item/name" matches "^(.*)*$"'),
    filter,
  );
  await fc.assert(
    fc.asyncProperty(hostile, async (f) => {
      const q = new URLSearchParams({ scope_id: PROJECT, filter: f });
      const res = await rawRequest(c.apiUrl, `GET /v1/targets?${q} HTTP/1.1\r\nhost: fuzz\r\nauthorization: Bearer ${READ_ONLY_TOKEN}\r\n\r\n`, 2000);
      expect([200, 400, 431]).toContain(res.status); // 431: a request line over Node's 16 KiB header limit
      if (res.status === 400) expect(JSON.parse(res.body).details.request_fields.map((x: { name: string }) => x.name)).toEqual(["filter"]);
      expect(loop.longestBlockMs()).toBeLessThan(MAX_BLOCK_MS);
    }),
    { numRuns: 200 },
  );
}, 60_000);
