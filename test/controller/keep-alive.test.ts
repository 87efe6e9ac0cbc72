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
