/**
 * The error catalogue: Boundary kind → HTTP status, and the one function that writes replies.
 * Anything that is not a BoundaryError is a bug of ours and the only thing that may answer 500.
 */
import type { ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { SLICE_MS, turn } from "../slices";
import { BoundaryError, type ErrorKind } from "../errors";

const STATUS: Record<ErrorKind, number> = {
  InvalidArgument: 400,
  FailedPrecondition: 400,
  Unauthenticated: 401,
  PermissionDenied: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  Aborted: 409,
  PayloadTooLarge: 413,
  Internal: 500,
  Unavailable: 503,
  ResourceExhausted: 429,
  "invalid list token": 400,
};

export function statusOf(kind: ErrorKind): number {
  return STATUS[kind];
}

export function toBoundaryError(err: unknown): BoundaryError {
  if (err instanceof BoundaryError) return err;
  return new BoundaryError("Internal", "Internal error.");
}

/** The reply for an error: Boundary's body with the status of its kind, and the error's headers. */
export function errorReply(e: BoundaryError): { status: number; body?: unknown; headers: Readonly<Record<string, string>> } {
  return { status: statusOf(e.kind), body: e.bare ? undefined : e.toBody(), headers: e.headers };
}

/**
 * How much of a streamed reply is held: a reply that ends within it goes out in one piece with its
 * length (most lists: one write, as a plain server sends it); a larger one goes out in chunks, and
 * waits for the socket whenever this much is queued, so a list of any size holds about this much.
 */
const STREAM_HELD_BYTES = 1 << 20;

/** A reply to write (see Reply in routes.ts). */
export interface OutgoingReply {
  status: number;
  body?: unknown;
  json?: Buffer;
  stream?: Iterable<Buffer>;
  headers?: Readonly<Record<string, string>>;
}

/**
 * Writes a reply: `json` bytes already rendered, `body` as JSON, a `stream` of JSON chunks (see
 * STREAM_HELD_BYTES), or none for an empty body. Writes at once and returns nothing, except for a
 * stream larger than STREAM_HELD_BYTES: then a promise that resolves once it is all handed to the socket.
 */
export function send(res: ServerResponse, reply: OutgoingReply): Promise<void> | undefined {
  if (reply.stream) {
    const headers = { ...reply.headers, "content-type": "application/json", "cache-control": "no-store" };
    const chunks = reply.stream[Symbol.iterator]();
    const held: Buffer[] = [];
    let size = 0;
    let next = chunks.next();
    for (; !next.done && size <= STREAM_HELD_BYTES; next = chunks.next()) {
      held.push(next.value);
      size += next.value.length;
    }
    if (next.done) {
      // the whole reply is here: its length is known, and the chunks go out in one corked write
      res.writeHead(reply.status, { ...headers, "content-length": size });
      res.cork();
      for (const chunk of held) res.write(chunk);
      res.end();
      res.uncork();
      return undefined;
    }
    res.writeHead(reply.status, headers);
    for (const chunk of held) res.write(chunk);
    return streamRest(res, chunks, next);
  }
  const bytes = reply.json ?? (reply.body === undefined ? undefined : Buffer.from(JSON.stringify(reply.body)));
  if (bytes === undefined) {
    res.writeHead(reply.status, reply.headers ? { ...reply.headers, "cache-control": "no-store" } : NO_STORE);
    res.end();
    return undefined;
  }
  res.writeHead(reply.status, reply.headers ? { ...reply.headers, ...jsonHeaders(bytes.length) } : jsonHeaders(bytes.length));
  res.end(bytes);
  return undefined;
}

const NO_STORE = { "cache-control": "no-store" } as const;

function jsonHeaders(length: number): Record<string, string | number> {
  return { "content-type": "application/json", "content-length": length, "cache-control": "no-store" };
}

/** The rest of a large streamed reply, a chunk at a time (see send). */
async function streamRest(res: ServerResponse, chunks: Iterator<Buffer>, next: IteratorResult<Buffer>): Promise<void> {
  // A client that reads as fast as we write never makes us wait for the socket: give the event
  // loop a turn every SLICE_MS all the same, or a list of 100,000 would hold it for a second.
  let sliceStart = performance.now();
  for (; !next.done; next = chunks.next()) {
    if (res.destroyed) return;
    res.write(next.value);
    if (res.writableLength > STREAM_HELD_BYTES) await drained(res);
    else if (performance.now() - sliceStart < SLICE_MS) continue;
    else await turn();
    sliceStart = performance.now();
  }
  res.end();
}

/** Resolves when the socket takes more output, or closes; leaves no listener behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
