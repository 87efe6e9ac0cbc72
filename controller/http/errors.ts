/**
 * Replies: an error's (its status from the controller's error catalogue, `../errors.ts`) and the
 * one function that writes them. Anything that is not a ControllerFault is a bug of ours and the
 * only thing that may answer 500.
 */
import type { ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { SLICE_MS, turn } from "../slices";
import { ControllerFault, statusOf } from "../errors";

/** Anything thrown that is not a ControllerFault is our bug: answered as Boundary's 500, never with its message. */
export function toControllerFault(err: unknown): ControllerFault {
  if (err instanceof ControllerFault) return err;
  return new ControllerFault("Internal", "Internal error.");
}

/** The reply for an error: Boundary's body with the status of its kind, and the error's headers. */
export function errorReply(e: ControllerFault): { status: number; body?: unknown; headers: Readonly<Record<string, string>> } {
  return { status: statusOf(e.kind), body: e.bare ? undefined : e.toBody(), headers: e.headers };
}

/**
 * How much of a list is handed to the socket before the writer waits for it to take it: a list of
 * any size holds about this much beyond the render cache's own bytes.
 */
const STREAM_HELD_BYTES = 1 << 20;

/** A reply to write (see Reply in routes.ts). */
export interface OutgoingReply {
  status: number;
  body?: unknown;
  json?: Buffer;
  list?: { readonly pieces: readonly Buffer[]; readonly length: number };
  /** A body that is not JSON (an admin UI page, a plain-text 404), with its content type. */
  page?: { readonly contentType: string; readonly text: string };
  headers?: Readonly<Record<string, string>>;
}

/**
 * Writes a reply: `json` bytes already rendered, `body` as JSON, a `list` (its pieces, with their
 * length), a `page` that is not JSON, or none for an empty body. Writes at once and returns nothing,
 * except for a list over STREAM_HELD_BYTES: then a promise that resolves once it is all handed to
 * the socket.
 */
export function send(res: ServerResponse, reply: OutgoingReply): Promise<void> | undefined {
  if (reply.page) {
    const bytes = Buffer.from(reply.page.text);
    res.writeHead(reply.status, { ...reply.headers, "content-type": reply.page.contentType, "content-length": bytes.length, "cache-control": "no-store" });
    res.end(bytes);
    return undefined;
  }
  if (reply.list) {
    const { pieces, length } = reply.list;
    // the headers object of a JSON reply (one shape for Node's writeHead to meet), a copy only when there are more
    res.writeHead(reply.status, reply.headers ? { ...reply.headers, ...jsonHeaders(length) } : jsonHeaders(length));
    if (length > STREAM_HELD_BYTES) return writePieces(res, pieces);
    // a kept body (a list asked again unchanged) is one piece: written as a JSON reply is
    if (pieces.length === 1) {
      res.end(pieces[0]);
      return undefined;
    }
    // the whole reply at once: one corked write of every piece
    res.cork();
    for (const piece of pieces) res.write(piece);
    res.end();
    res.uncork();
    return undefined;
  }
  const bytes = reply.json ?? (reply.body === undefined ? undefined : Buffer.from(JSON.stringify(reply.body)));
  if (bytes === undefined) {
    const empty = reply.status === 204 ? NO_CONTENT : NO_STORE;
    res.writeHead(reply.status, reply.headers ? { ...reply.headers, ...empty } : empty);
    res.end();
    return undefined;
  }
  res.writeHead(reply.status, reply.headers ? { ...reply.headers, ...jsonHeaders(bytes.length) } : jsonHeaders(bytes.length));
  res.end(bytes);
  return undefined;
}

/** An empty body says its length, as Go's server does (not a chunked nothing). */
const NO_STORE = { "cache-control": "no-store", "content-length": 0 } as const;
/** A 204 carries no length at all (RFC 9110). */
const NO_CONTENT = { "cache-control": "no-store" } as const;

function jsonHeaders(length: number): Record<string, string | number> {
  return { "content-type": "application/json", "content-length": length, "cache-control": "no-store" };
}

/**
 * A large list's pieces, corked in batches: each batch ends when the socket holds
 * STREAM_HELD_BYTES (then it waits for the socket) or SLICE_MS has passed (then the event loop
 * gets a turn, even when the client reads as fast as we write: a list of 100,000 would otherwise
 * hold it for a second).
 */
async function writePieces(res: ServerResponse, pieces: readonly Buffer[]): Promise<void> {
  let i = 0;
  while (i < pieces.length) {
    if (res.destroyed) return;
    const sliceStart = performance.now();
    res.cork();
    while (i < pieces.length && res.writableLength <= STREAM_HELD_BYTES && (i % 256 !== 255 || performance.now() - sliceStart < SLICE_MS))
      res.write(pieces[i++]!);
    res.uncork();
    if (res.writableLength > STREAM_HELD_BYTES) await drained(res);
    else if (i < pieces.length) await turn();
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
