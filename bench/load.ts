/**
 * The controller bench's load generator: HTTP/1.1 keep-alive connections, each sending its next
 * request as soon as the last answer is whole (no pipelining, as a pipeline's clients do), counting
 * the answers that came within the run's time.
 *
 * Why not autocannon: on this 2-core machine it spent 75–100 µs of its own CPU per GET, more than
 * either server it measured (55–70 µs), so the client set the pace, and its own swings moved
 * both sides' figures. This one does only what the measure needs (write the request, frame the
 * answer by its Content-Length, check its status) at 35–45 µs per GET, so the server is what
 * the requests per second measure. Both servers of a comparison meet the same client.
 */
import * as net from "node:net";
import { performance } from "node:perf_hooks";

/** What a load run measured. */
export interface LoadResult {
  /** Answers whole within the run's time. */
  requests: number;
  /** The run's time, s (from the first request sent). */
  seconds: number;
  /** This process's CPU per answer, µs: the client's own cost (the machine's two cores are shared with the server). */
  clientMicrosPerRequest: number;
}

/** A load run's shape. */
export interface LoadOptions {
  connections: number;
  seconds: number;
  /** The n-th request's bytes (n counts from 0 over the run's connections): one request, whole. */
  request: (n: number) => Buffer;
  /** Status codes taken as answers (any other stops the run with an error). Default: 200. */
  statuses?: readonly number[];
}

/** `GET path` (or another method, with a JSON body) to `url`'s host, with `headers`, as one request's bytes. */
export function requestBytes(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Buffer {
  const host = new URL(url).host;
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== undefined) lines.push("content-type: application/json", `content-length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body ?? ""}`);
}

const HEADER_END = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

/**
 * Reads a connection's answers as they come: each one's header (status, Content-Length), then that
 * many bytes of body. Calls `answered` once per whole answer; throws on an unexpected status or an
 * answer it cannot frame (no Content-Length), which would make every count after it wrong.
 */
export class AnswerReader {
  /** Bytes of the current answer's body still to come; -1 while its header is read. */
  private bodyLeft = -1;
  /** A header split across reads, kept until its end comes. */
  private partial: Buffer | undefined;

  /** `statuses`: the status codes taken as answers; `answered`: called once per whole answer. */
  constructor(
    private readonly statuses: readonly number[],
    private readonly answered: () => void,
  ) {}

  /** Takes what the socket read. */
  push(chunk: Buffer): void {
    let at = 0;
    if (this.partial) {
      chunk = Buffer.concat([this.partial, chunk]);
      this.partial = undefined;
    }
    while (at < chunk.length) {
      if (this.bodyLeft >= 0) {
        const take = Math.min(this.bodyLeft, chunk.length - at);
        this.bodyLeft -= take;
        at += take;
        if (this.bodyLeft > 0) return;
        this.bodyLeft = -1;
        this.answered();
        continue;
      }
      const end = chunk.indexOf(HEADER_END, at);
      if (end < 0) {
        // a copy: the read buffer is reused by the next read
        this.partial = Buffer.from(chunk.subarray(at));
        return;
      }
      const head = chunk.toString("latin1", at, end);
      const status = Number(head.slice(9, 12));
      if (!head.startsWith("HTTP/1.1 ") || !this.statuses.includes(status)) throw new Error(`the server answered ${JSON.stringify(head.split("\r\n")[0])}`);
      const length = CONTENT_LENGTH.exec(head);
      if (!length) throw new Error(`an answer without a content-length (the bench's client frames answers by it): ${JSON.stringify(head)}`);
      this.bodyLeft = Number(length[1]);
      at = end + HEADER_END.length;
      if (this.bodyLeft === 0) {
        this.bodyLeft = -1;
        this.answered();
      }
    }
  }
}

/** What each read lands in: one buffer for every connection (a read is handled whole before the next), large, so a list takes few reads. */
const READ_BUFFER_BYTES = 256 * 1024;

/**
 * Opens a connection to `url` (TCP_NODELAY, as Node's http clients set it) whose reads go straight to
 * `read` from one reused buffer (no Buffer nor `data` event per read: a list of 683 KiB is many
 * reads); resolves once it is connected.
 */
function connect(url: string, buffer: Buffer, read: (bytes: Buffer) => void): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise<net.Socket>((resolve, reject) => {
    const callback = (n: number) => {
      read(buffer.subarray(0, n));
      return true; // go on reading
    };
    const socket = net.connect({ host: hostname, port: Number(port), noDelay: true, onread: { buffer, callback } });
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/**
 * Sends requests to `url` on `connections` connections for `seconds`, each connection's next as
 * soon as its last answer is whole; resolves with the answers that came in time. Rejects on a
 * refused status, an unframed answer or a connection lost during the run.
 */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const statuses = options.statuses ?? [200];
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  let sent = 0;
  let answered = 0;
  let open = false;
  let failed: Error | undefined;
  let stop: (err?: Error) => void = () => {};
  const sockets = await Promise.all(
    Array.from({ length: options.connections }, () => {
      let socket: net.Socket | undefined;
      const reader = new AnswerReader(statuses, () => {
        if (!open) return;
        answered++;
        socket!.write(options.request(sent++));
      });
      const read = (bytes: Buffer) => {
        try {
          reader.push(bytes);
        } catch (err) {
          stop(err as Error);
        }
      };
      return connect(url, buffer, read).then((s) => (socket = s));
    }),
  );
  const cpu = process.cpuUsage();
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => stop(), options.seconds * 1000);
    stop = (err?: Error) => {
      if (!open) return;
      open = false;
      failed = err;
      clearTimeout(timer);
      resolve();
    };
    open = true;
    for (const socket of sockets) {
      const lost = () => stop(new Error(`a connection to ${url} closed during the run`));
      socket.once("error", lost);
      socket.once("close", lost);
      socket.write(options.request(sent++));
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  for (const socket of sockets) {
    socket.removeAllListeners("close");
    socket.removeAllListeners("error");
    socket.on("error", () => {});
    socket.destroy();
  }
  if (failed) throw failed;
  return { requests: answered, seconds, clientMicrosPerRequest: (used.user + used.system) / Math.max(answered, 1) };
}
