/**
 * The error catalogue: Boundary kind → HTTP status, and the one function that writes replies.
 * Anything that is not a BoundaryError is a bug of ours and the only thing that may answer 500.
 */
import type { ServerResponse } from "node:http";
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
};

export function statusOf(kind: ErrorKind): number {
  return STATUS[kind];
}

export function toBoundaryError(err: unknown): BoundaryError {
  if (err instanceof BoundaryError) return err;
  return new BoundaryError("Internal", "Internal error.");
}

/** The reply for an error: Boundary's body with the status of its kind, and the error's headers. */
export function errorReply(e: BoundaryError): { status: number; body: unknown; headers: Readonly<Record<string, string>> } {
  return { status: statusOf(e.kind), body: e.toBody(), headers: e.headers };
}

/** Writes a reply: `json` bytes already rendered, `body` as JSON, or neither for an empty body. */
export function send(res: ServerResponse, reply: { status: number; body?: unknown; json?: Buffer; headers?: Readonly<Record<string, string>> }): void {
  const bytes = reply.json ?? (reply.body === undefined ? undefined : Buffer.from(JSON.stringify(reply.body)));
  if (bytes === undefined) {
    res.writeHead(reply.status, { ...reply.headers, "cache-control": "no-store" });
    res.end();
    return;
  }
  res.writeHead(reply.status, {
    ...reply.headers,
    "content-type": "application/json",
    "content-length": bytes.length,
    "cache-control": "no-store",
  });
  res.end(bytes);
}
