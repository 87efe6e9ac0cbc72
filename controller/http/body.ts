/** Reading and validating request bodies: size limit, JSON, then the wire schema. */
import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import type { RequestField } from "../../wire/target";
import { ControllerFault } from "../errors";

/** The largest request body the spec's controller reads (413 beyond). */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * The largest a release's gateway reads here. Boundary applies no limit (DefaultMaxRequestSize is
 * put in the context and never read; gRPC takes up to 2 GiB); this controller stops at 32 MiB so a
 * client cannot make it hold more.
 */
export const GATEWAY_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The body as JSON (`{}` when empty); 413 when too large, 400 when not JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readText(req);
  if (text.length === 0) return {};
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ControllerFault("InvalidArgument", `Malformed JSON body: ${(err as Error).message}`);
  }
}

/** The body as text (UTF-8); 413 beyond `limit` bytes. */
export async function readText(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const { chunks, size } = await readAll(req, limit);
  return size === 0 ? "" : Buffer.concat(chunks, size).toString("utf8");
}

/** Collects the body with plain events (cheaper than async iteration on this hot path). */
function readAll(req: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; size: number }> {
  return new Promise((resolve, reject) => {
    // a request without a body that Node has already ended (server.ts: optimizeEmptyRequests) emits no 'end'
    if (req.readableEnded) return resolve({ chunks: [], size: 0 });
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause(); // read no more: the answer closes the connection (see chain.ts)
        reject(tooLarge(limit));
      } else chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve({ chunks, size }));
    req.once("error", reject);
  });
}

function tooLarge(limit: number): ControllerFault {
  return new ControllerFault("PayloadTooLarge", `The request body is larger than ${limit} bytes.`);
}

/**
 * Decodes `body` with a strict wire schema without stopping at the first bad key: returns the
 * fields that decoded (`data`) and every offending one (`fields`), so the store can add its own rule
 * errors and answer one 400 that names them all. Keys in `readOnly` get Boundary's own message.
 */
export function decodeBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  readOnly: readonly string[] = [],
  readOnlyWords = "This is a read only field.",
): { data: z.infer<S>; fields: RequestField[] } {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ControllerFault("InvalidArgument", "The request body must be a JSON object.");
  }
  const fields: RequestField[] = [];
  for (const key of readOnly) {
    if (Object.hasOwn(body, key)) fields.push({ name: key, description: readOnlyWords });
  }
  const rest: Record<string, unknown> = Object.fromEntries(Object.entries(body).filter(([k]) => !readOnly.includes(k)));
  const parsed = schema.safeParse(rest);
  if (parsed.success) return { data: parsed.data as z.infer<S>, fields };
  for (const issue of parsed.error.issues) {
    const path = issue.path.join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) fields.push({ name: path ? `${path}.${key}` : key, description: "Unknown field." });
      for (const key of issue.keys) if (!path) delete rest[key];
      if (path) delete rest[String(issue.path[0])];
    } else {
      fields.push({ name: path || "(body)", description: issue.message });
      delete rest[String(issue.path[0])];
    }
  }
  // what is left decodes by construction; if not, the first pass's fields already say why
  const again = schema.safeParse(rest);
  return { data: (again.success ? again.data : {}) as z.infer<S>, fields };
}
