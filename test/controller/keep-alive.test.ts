/**
 * Answers keep their connection: a GET answered at once (before Node has marked the bodiless
 * request complete) must not be taken for an answer given before its body was read, which closes
 * the connection; a request that does carry an unread body still gets `Connection: close`.
 */
import * as net from "node:net";
import { ADMIN_TOKEN, useTestController } from "../helpers/controller";

const c = useTestController();

/** Sends `requests` one after another on one socket; resolves with everything the server sent before closing or going quiet. */
function overOneSocket(requests: string[]): Promise<string> {
  const { hostname, port } = new URL(c.apiUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(requests.join("")));
    let text = "";
    let quiet: NodeJS.Timeout | undefined;
    socket.on("data", (d) => {
      text += d;
      clearTimeout(quiet);
      quiet = setTimeout(() => (socket.destroy(), resolve(text)), 300);
    });
    socket.on("close", () => (clearTimeout(quiet), resolve(text)));
    socket.on("error", reject);
  });
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`;

test("three GETs on one connection: three answers, none closing it", async () => {
  const t = await c.create();
  const text = await overOneSocket([get(`/v1/targets/${t.id}`), get("/v1/targets?scope_id=p_1234567890"), get(`/v1/targets/${t.id}`)]);
  expect(text.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(3);
  expect(text.match(/\r\nConnection: keep-alive\r\n/g)).toHaveLength(3);
  expect(text).not.toMatch(/connection: close/i);
});

test("a GET that carries a body it does not read is answered with Connection: close", async () => {
  const body = "x".repeat(10);
  const text = await overOneSocket([
    `GET /v1/targets/ttcp_1234567890 HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\ncontent-length: 100\r\n\r\n${body}`,
  ]);
  expect(text).toMatch(/^HTTP\/1\.1 404/);
  expect(text).toMatch(/\r\nconnection: close\r\n/i);
});

// Node ends a request without Content-Length or Transfer-Encoding at once (server.ts: optimizeEmptyRequests),
// without the stream's `end` event: whatever reads a body must not wait for one that never comes
test("a POST with no body and no length is answered (its empty body read as {}), and the connection serves the next request", async () => {
  const t = await c.create();
  const text = await overOneSocket([
    `POST /v1/targets HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`,
    `PATCH /v1/targets/${t.id} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`,
    get(`/v1/targets/${t.id}`),
  ]);
  const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  expect(statuses).toEqual([400, 400, 200]);
  expect(text).not.toMatch(/connection: close/i);
});

test("a bodiless GET's answer carries the headers it always has, in their order", async () => {
  const t = await c.create();
  const text = await overOneSocket([get(`/v1/targets/${t.id}`)]);
  const head = text.slice(0, text.indexOf("\r\n\r\n")).split("\r\n");
  expect(head[0]).toBe("HTTP/1.1 200 OK");
  expect(head.slice(1).map((h) => h.slice(0, h.indexOf(":")))).toEqual(["content-type", "content-length", "cache-control", "Date", "Connection", "Keep-Alive"]);
});
