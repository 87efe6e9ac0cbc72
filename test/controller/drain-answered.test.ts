/**
 * The API listener's drain counts a request from its handler's start to the moment the chain has
 * handed the whole answer to Node (`started` / `answered`, no listener per answer), so at shutdown
 * a connection is closed only when no answer is in flight on it and none is still in its socket's
 * buffer: a slow client still gets every byte.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import * as net from "node:net";
import type { AddressInfo } from "node:net";
import { Drain } from "../../controller/drain";

/** A listener whose handler counts its requests as the API chain does; `answer` decides when and what. */
async function listener(answer: (req: IncomingMessage, res: ServerResponse, answered: () => void) => void) {
  const server = createServer((req, res) => {
    drain.started(req);
    answer(req, res, () => drain.answered(req));
  });
  const drain = new Drain(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { drain, port: (server.address() as AddressInfo).port };
}

/** Sends one GET on a raw socket; resolves with every byte the server sent until it closed. */
function rawGet(port: number, readAfterMs = 0): { sent: Promise<void>; received: Promise<Buffer> } {
  const socket = net.connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  const sent = new Promise<void>((resolve) => socket.once("connect", () => socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n", () => resolve())));
  if (readAfterMs > 0) {
    socket.pause();
    setTimeout(() => socket.resume(), readAfterMs);
  }
  socket.on("data", (c: Buffer) => chunks.push(c));
  const received = new Promise<Buffer>((resolve) => socket.once("close", () => resolve(Buffer.concat(chunks))));
  return { sent, received };
}

test("a request whose answer is not handed over yet keeps its connection through the close", async () => {
  let arrived!: () => void;
  const inHandler = new Promise<void>((r) => (arrived = r));
  const { drain, port } = await listener((_req, res, answered) => {
    arrived();
    setTimeout(() => {
      res.writeHead(200, { "content-length": 2, connection: "close" });
      res.end("ok");
      answered();
    }, 400);
  });
  const get = rawGet(port);
  await inHandler;
  await drain.close(50, 5000);
  const text = (await get.received).toString();
  expect(text).toMatch(/^HTTP\/1\.1 200 OK/);
  expect(text.endsWith("\r\n\r\nok")).toBe(true);
});

test("an answer handed over whole but still in the socket's buffer is not cut by the idle close", async () => {
  const body = Buffer.alloc(16 * 1024 * 1024, "x");
  let handedOver!: () => void;
  const over = new Promise<void>((r) => (handedOver = r));
  const { drain, port } = await listener((_req, res, answered) => {
    res.writeHead(200, { "content-length": body.length });
    res.end(body);
    answered();
    handedOver();
  });
  // the client reads nothing for a while: most of the 16 MiB waits in the server's socket buffer
  const get = rawGet(port, 600);
  await over;
  const closed = drain.close(50, 10_000);
  const received = await get.received;
  await closed;
  const head = received.indexOf("\r\n\r\n") + 4;
  expect(received.length - head).toBe(body.length);
});
