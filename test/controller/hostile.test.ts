/**
 * The controller under hostile input, one test per finding of the adversarial run: a list filter
 * cannot freeze it, client mistakes are never 5xx, answers stay small, refused bodies are not read
 * to the end, sessions are bounded and indexed, ambiguous names are refused, 405s say what is allowed.
 */
import * as net from "node:net";
import { PROJECT, READ_ONLY_TOKEN, startTestController, type TestController } from "../helpers/controller";
import { rawRequest } from "../helpers/raw-http";
import { until } from "../helpers/wait";

let c: TestController;
beforeAll(async () => {
  c = await startTestController();
  for (let i = 0; i < 5; i++) await c.create({ name: `hostile-${i}` });
});
afterAll(() => c.shutdown());

const list = (filter: string, token?: string) => c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent(filter)}`, undefined, token);
const fieldNames = (body: { details?: { request_fields?: { name: string }[] } }) => body.details?.request_fields?.map((f) => f.name);

test("1. a backtracking filter, with the read-only token, answers at once and /health keeps answering", async () => {
  const started = Date.now();
  const res = await list('"/item/created_time" matches "^(.*)*(.*)*!$"', READ_ONLY_TOKEN);
  expect(res.status).toBe(200);
  expect(res.body.items).toEqual([]);
  expect(Date.now() - started).toBeLessThan(2000);
  const health = await fetch(`${c.opsUrl}/health`, { signal: AbortSignal.timeout(100) });
  expect(health.status).toBe(200);
});

test("1. a pattern RE2 rejects is a 400 naming filter", async () => {
  const res = await list('"/item/name" matches "(?=hostile)"');
  expect(res.status).toBe(400);
  expect(fieldNames(res.body)).toEqual(["filter"]);
  expect(res.body.details.request_fields[0].description).toContain("invalid or unsupported Perl syntax");
});

test.each([
  ["3,000 nested parentheses", "(".repeat(3000) + '"/item/name" == "x"' + ")".repeat(3000)],
  ["7,000 unclosed parentheses", "(".repeat(7000)],
  ["deep nesting within the length limit", "(".repeat(1000) + '"/item/name" == "x"' + ")".repeat(1000)],
])("2. %s: a 400 naming filter, not a 500", async (_what, filter) => {
  const res = await list(filter);
  expect(res.status).toBe(400);
  expect(fieldNames(res.body)).toEqual(["filter"]);
});

test("2. :set-host-sets with 150,000 ids is a 400 naming host_set_ids, not a 500", async () => {
  const t = await c.create({ name: "many-ids" });
  const res = await c.call("POST", `/v1/targets/${t.id}:set-host-sets`, { version: 1, host_set_ids: Array.from({ length: 150_000 }, () => "h") });
  expect(res.status).toBe(400);
  expect(res.body.details.request_fields).toEqual([{ name: "host_set_ids", description: "At most 1000 identifiers per request; this one has 150000." }]);
});

test("3. a 0.9 MiB create with 240,000 bad ids gets a small answer", async () => {
  const body = JSON.stringify({ scope_id: PROJECT, name: "x", type: "tcp", host_set_ids: Array.from({ length: 240_000 }, () => "x") });
  expect(body.length).toBeGreaterThan(900_000);
  const res = await c.call("POST", "/v1/targets", body);
  expect(res.status).toBe(400);
  expect(res.text.length).toBeLessThan(1024);
});

test("3. an error body names at most 20 fields, then how many more", async () => {
  const body = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`unknown_${i}`, i]));
  const res = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "x", type: "tcp", ...body });
  expect(res.status).toBe(400);
  const fields = res.body.details.request_fields;
  expect(fields).toHaveLength(21);
  expect(fields[20]).toEqual({ name: "(more)", description: "80 more fields were refused." });
});

/** Streams a body of `declared` bytes; resolves with the answer and how much the server took before closing. */
function streamBody(headers: string, declared: number): Promise<{ status: number; written: number }> {
  const { hostname, port } = new URL(c.apiUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunk = Buffer.alloc(1024 * 1024, 120);
    let written = 0;
    let answer = "";
    let closed = false;
    socket.on("data", (d) => (answer += d));
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]);
      if (!status) reject(new Error(`no answer before the close (${written} bytes written)`));
      else resolve({ status, written });
    });
    socket.write(`POST /v1/targets HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n${headers}\r\n`);
    const pump = () => {
      while (!closed && written < declared) {
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
    };
    pump();
  });
}

test.each([
  ["401 (no token)", "", 401],
  ["413 (a body over 1 MiB, declared)", "authorization: Bearer at_1234567890_s1AdminTokenForTestsOnly\r\n", 413],
])("4. after a %s the server answers and closes, instead of reading 256 MiB", async (_what, headers, status) => {
  const res = await streamBody(headers, 256 * 1024 * 1024);
  expect(res.status).toBe(status);
  expect(res.written).toBeLessThan(64 * 1024 * 1024);
});

test("4. a body that grows past 1 MiB undeclared (chunked) is a 413, and the connection closes", async () => {
  const { hostname, port } = new URL(c.apiUrl);
  const socket = net.connect(Number(port), hostname);
  let answer = "";
  socket.on("data", (d) => (answer += d));
  socket.on("error", () => {});
  socket.write("POST /v1/targets HTTP/1.1\r\nhost: x\r\nauthorization: Bearer at_1234567890_s1AdminTokenForTestsOnly\r\ntransfer-encoding: chunked\r\n\r\n");
  const chunk = Buffer.alloc(256 * 1024, 120);
  let written = 0;
  const closed = new Promise((r) => socket.on("close", r));
  const pump = () => {
    while (!socket.destroyed && written < 64 * 1024 * 1024) {
      written += chunk.length;
      if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once("drain", pump);
    }
  };
  pump();
  await closed;
  expect(answer).toMatch(/^HTTP\/1\.1 413/);
  expect(answer.toLowerCase()).toContain("connection: close");
  expect(written).toBeLessThan(32 * 1024 * 1024);
});

describe("7. sessions are indexed, swept and bounded", () => {
  test("full of live sessions: 503 Unavailable with Retry-After, until one expires", async () => {
    const small = await startTestController({ maxSessions: 2 });
    try {
      const t = await small.create({ host_set_ids: ["hsst_1234567890"], session_max_seconds: 1 });
      const authorize = () => small.call("POST", `/v1/targets/${t.id}:authorize-session`, {});
      expect((await authorize()).status).toBe(200);
      expect((await authorize()).status).toBe(200);
      const full = await authorize();
      expect(full.status).toBe(503);
      expect(full.body.kind).toBe("Unavailable");
      expect(Number(full.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // the oldest expire, and room comes back
      await until(async () => (await authorize()).status === 200, "a session to expire", 4000);
      expect(small.sessions.sessions.size).toBeLessThanOrEqual(2);
    } finally {
      await small.shutdown();
    }
  });
});

test("8. a name two targets share case-insensitively is a 400 naming name, never the wrong target", async () => {
  await c.create({ name: "CaseName", host_set_ids: ["hsst_1234567890"] });
  await c.create({ name: "casename", host_set_ids: ["hsst_1234567890"] });
  const res = await c.call("POST", `/v1/targets/casename:authorize-session`, { name: "casename", scope_id: PROJECT });
  expect(res.status).toBe(400);
  expect(res.body.details.request_fields).toEqual([
    { name: "name", description: 'More than one target matches "casename" case-insensitively ("CaseName", "casename"); name the target by its id.' },
  ]);
});

test("12. a 405 says which methods the path allows", async () => {
  const res = await c.call("PUT", "/v1/targets");
  expect(res.status).toBe(405);
  expect(res.headers.get("allow")).toBe("GET, POST");
  const item = await rawRequest(c.apiUrl, "POST /v1/targets/ttcp_1234567890 HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n");
  expect(item.status).toBe(405);
  expect(item.headers.allow).toBe("GET, PATCH, DELETE");
});
