/**
 * The error catalogue: Boundary kind → HTTP status, and the one path that writes an error body.
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
};

export function statusOf(kind: ErrorKind): number {
  return STATUS[kind];
}

export function toBoundaryError(err: unknown): BoundaryError {
  if (err instanceof BoundaryError) return err;
  return new BoundaryError("Internal", "Internal error.");
}

export function sendError(res: ServerResponse, err: unknown): number {
  const e = toBoundaryError(err);
  const status = statusOf(e.kind);
  sendJson(res, status, e.toBody());
  return status;
}

/** Sends `body` as JSON, or `bytes` already rendered. */
export function sendJson(res: ServerResponse, status: number, body: unknown, bytes: Buffer = Buffer.from(JSON.stringify(body))): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": bytes.length,
    "cache-control": "no-store",
  });
  res.end(bytes);
}
