/**
 * The baseline of the controller's throughput: a bare `node:http` server in a process of its own
 * (nothing else on its heap or event loop), sending the very bytes the controller sends for the
 * same paths, as a minimal server would: a GET answered at once, a POST once its body is read (a
 * create must read its body). Reads `{one, list, created}` (base64) from the JSON file named as
 * its argument, prints its URL as one JSON line, and serves until killed.
 *
 * Until 2026-11, the baseline ran inside the controller's process and waited for the end of every
 * request's body, a GET's empty one included: that costs a turn of the event loop per request and
 * put the baseline's GET at 0.55-0.65 of this one, so the controller looked 1.5x better than it was.
 * It takes the server options the controller's listeners take (`optimizeEmptyRequests`: Node skips a
 * bodiless request's stream events), so that a ratio measures the controller's own work, not a Node
 * option one side has: with Node's defaults here, a GET cost bare 67-74k instructions, with the option 55k.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

async function main(): Promise<void> {
  const decoded = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Record<"one" | "list" | "created", string>;
  const one = Buffer.from(decoded.one, "base64");
  const list = Buffer.from(decoded.list, "base64");
  const created = Buffer.from(decoded.created, "base64");
  const server = createServer({ optimizeEmptyRequests: true }, (req, res) => {
    const answer = (body: Buffer) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length, "cache-control": "no-store" });
      res.end(body);
    };
    if (req.method === "POST") {
      req.on("data", () => {});
      req.on("end", () => answer(created));
    } else {
      req.resume();
      answer(req.url!.startsWith("/v1/targets?") ? list : one);
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  process.stdout.write(JSON.stringify({ bare: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }) + "\n");
}

if (require.main === module) {
  process.on("SIGINT", () => process.exit(0));
  process.on("SIGTERM", () => process.exit(0));
  void main();
}
