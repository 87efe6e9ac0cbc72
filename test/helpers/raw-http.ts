/** HTTP over a raw socket, for requests no well-behaved client would send. */
import * as net from "node:net";

/** The first response read off the socket: status, headers (names lower-cased) and body as text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `request` (the whole message, as bytes or text) to `url`'s host and port and resolves with
 * the first response, or rejects when none has come within `deadlineMs`.
 */
export function rawRequest(url: string, request: string | Buffer, deadlineMs = 2000, headOnly = false): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${deadlineMs} ms to ${JSON.stringify(request.toString().slice(0, 120))}`));
    }, deadlineMs);
    const done = (r: RawResponse) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    socket.on("data", (chunk) => {
      data = Buffer.concat([data, chunk]);
      const parsed = parse(data, false, headOnly);
      if (parsed) done(parsed);
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      const parsed = parse(data, true);
      if (parsed) done(parsed);
    });
    socket.write(request);
  });
}

/** A complete response in `data`, or undefined while more is expected. */
function parse(data: Buffer, ended = false, headOnly = false): RawResponse | undefined {
  const text = data.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(":");
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const body = text.slice(end + 4);
  if (headOnly) return { status: Number(statusLine!.split(" ")[1]), headers, body: "" };
  const length = headers["content-length"] === undefined ? undefined : Number(headers["content-length"]);
  if (length !== undefined ? body.length < length : !ended && headers["transfer-encoding"] === "chunked" && !body.endsWith("0\r\n\r\n")) return undefined;
  return { status: Number(statusLine!.split(" ")[1]), headers, body: length !== undefined ? body.slice(0, length) : body };
}
