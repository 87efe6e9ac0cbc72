/**
 * The controller bench's client (bench/load.ts): how it frames answers (a count off by one answer
 * would shift every figure after it), and a run against a real node:http server over loopback;
 * and the bench's order of rounds.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AnswerReader, load, requestBytes } from "../../bench/load";
import { bareFirst } from "../../bench/controller";

const answer = (status: string, body: string, extra = "") =>
  `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}date: x\r\n\r\n${body}`;

describe("AnswerReader", () => {
  it("counts whole answers however the reads split them: a header cut in two, a body over several reads, answers sharing a read", () => {
    const bytes = Buffer.from(answer("200 OK", '{"a":1}') + answer("200 OK", "x".repeat(5000)) + answer("200 OK", "") + answer("200 OK", "[]"));
    for (const size of [1, 7, 64, 1000, bytes.length]) {
      let count = 0;
      const reader = new AnswerReader([200], () => count++);
      const seen: number[] = [];
      for (let at = 0; at < bytes.length; at += size) {
        reader.push(bytes.subarray(at, at + size));
        seen.push(count);
      }
      expect(count).toBe(4);
      // never early: the first answer is whole only once its 7 body bytes came
      const firstWhole = bytes.indexOf("}") + 1;
      expect(seen[Math.ceil(firstWhole / size) - 2] ?? 0).toBe(0);
    }
  });

  it("stops at a status it was not told to take, and at an answer without a length it could frame", () => {
    expect(() => new AnswerReader([200], () => {}).push(Buffer.from(answer("400 Bad Request", "{}")))).toThrow(/HTTP\/1.1 400 Bad Request/);
    const chunked = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
    expect(() => new AnswerReader([200], () => {}).push(Buffer.from(chunked))).toThrow(/without a content-length/);
    let count = 0;
    new AnswerReader([200, 201], () => count++).push(Buffer.from(answer("201 Created", "{}")));
    expect(count).toBe(1);
  });
});

describe("load", () => {
  let server: Server;
  let url: string;
  let seen: string[];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString();
        seen.push(`${req.method} ${req.url} ${req.headers.authorization} ${req.headers["content-type"] ?? ""}${body}`);
        res.writeHead(req.url === "/fail" ? 500 : 200, { "content-length": Buffer.byteLength(body || "{}") });
        res.end(body || "{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => (seen = []));
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("keeps every connection busy for the run's time and counts the answers the server sent", async () => {
    const get = requestBytes(url, "GET", "/v1/targets/ttcp_1", { authorization: "Bearer at_1" });
    const r = await load(url, { connections: 4, seconds: 0.3, request: () => get });
    expect(r.requests).toBeGreaterThan(20);
    // each answered request was seen by the server; at most one per connection was still on its way at the end
    expect(seen.length).toBeGreaterThanOrEqual(r.requests);
    expect(seen.length).toBeLessThanOrEqual(r.requests + 4);
    expect(new Set(seen)).toEqual(new Set(["GET /v1/targets/ttcp_1 Bearer at_1 "]));
    expect(r.seconds).toBeGreaterThanOrEqual(0.29);
    expect(r.clientMicrosPerRequest).toBeGreaterThan(0);
  });

  it("sends each request the factory makes, a body with its length", async () => {
    const r = await load(url, {
      connections: 2,
      seconds: 0.2,
      request: (n) => requestBytes(url, "POST", "/v1/targets", { authorization: "Bearer at_1" }, JSON.stringify({ name: `t-${n}` })),
    });
    expect(r.requests).toBeGreaterThan(5);
    // (a GET of the test before may still arrive: its connections were cut mid-request)
    const posts = seen.filter((s) => s.startsWith("POST"));
    expect(posts.length).toBeGreaterThanOrEqual(r.requests);
    expect(new Set(posts)).toEqual(new Set(posts.map((_, n) => `POST /v1/targets Bearer at_1 application/json{"name":"t-${n}"}`)));
  });

  it("rejects, naming the answer, when the server answers a status the run does not take", async () => {
    const fail = requestBytes(url, "GET", "/fail", {});
    await expect(load(url, { connections: 2, seconds: 5, request: () => fail })).rejects.toThrow(/HTTP\/1.1 500 Internal Server Error/);
  });
});

describe("the controller bench's rounds", () => {
  it("alternate which server goes first (A B, B A, …), so a drift in the machine's load falls on both sides alike", () => {
    expect([0, 1, 2, 3].map(bareFirst)).toEqual([true, false, true, false]);
  });
});
