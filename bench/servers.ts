/**
 * Benchmark subject, run in its own process so the load generator does not share its event loop:
 * the real controller with N targets, and a bare `node:http` server answering the very same JSON
 * bytes for the same paths (the ceiling any JSON API on this machine can reach).
 * Prints one JSON line with the URLs, then serves until killed.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { defaultFixtures, startController } from "../controller";

const TOKEN = process.env.BENCH_TOKEN ?? "at_1234567890_s1bench";
const PROJECT = "p_1234567890";

async function main() {
  const count = Number(process.argv[2] ?? 1000);
  const controller = await startController({
    api: { host: "127.0.0.1", port: 0 },
    ops: { host: "127.0.0.1", port: 0 },
    token: TOKEN,
    gracefulShutdownWaitMs: 0,
    fixtures: defaultFixtures(),
  });
  let first = "";
  for (let i = 0; i < count; i++) {
    const t = controller.store.createTarget({ scope_id: PROJECT, name: `t-${i}`, type: "tcp", host_set_ids: ["hsst_1234567890"], attributes: { default_port: 22 } });
    first ||= t.id;
  }
  const headers = { authorization: `Bearer ${TOKEN}` };
  const bytes = async (path: string, init: RequestInit = {}) => Buffer.from(await (await fetch(controller.apiUrl + path, { headers, ...init })).arrayBuffer());
  // the sample create first, so the list both servers send is the list the controller holds
  const created = await bytes("/v1/targets", { method: "POST", body: JSON.stringify({ scope_id: PROJECT, name: "sample", type: "tcp" }) });
  const one = await bytes(`/v1/targets/${first}`);
  const list = await bytes(`/v1/targets?scope_id=${PROJECT}`);

  const bare = createServer((req, res) => {
    const body = req.method === "POST" ? created : req.url!.startsWith("/v1/targets?") ? list : one;
    // a fair baseline reads the request body too, as the controller must
    req.on("data", () => {});
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length, "cache-control": "no-store" });
      res.end(body);
    });
  });
  await new Promise<void>((r) => bare.listen(0, "127.0.0.1", r));
  const port = (bare.address() as AddressInfo).port;
  process.stdout.write(JSON.stringify({ controller: controller.apiUrl, bare: `http://127.0.0.1:${port}`, first, token: TOKEN, listBytes: list.length, listItems: (JSON.parse(list.toString()) as { items: unknown[] }).items.length }) + "\n");
}

process.on("SIGINT", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
main();
