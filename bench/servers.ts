/**
 * Benchmark subject, run in its own process so the load generator does not share its event loop:
 * the real controller with N targets. Prints one JSON line with its URL and the bytes it answers
 * for the benchmark's paths (base64: the independent bare server, bare.ts, sends the same), then
 * serves until killed, answering each line on stdin with its CPU time so far (see reportCpu).
 */
import { defaultFixtures, startController } from "../controller";
import { reportCpu } from "./bare";

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
    const t = controller.store.createTarget({
      scope_id: PROJECT,
      name: `t-${i}`,
      type: "tcp",
      host_set_ids: ["hsst_1234567890"],
      attributes: { default_port: 22 },
    });
    first ||= t.id;
  }
  const headers = { authorization: `Bearer ${TOKEN}` };
  const bytes = async (path: string, init: RequestInit = {}) => Buffer.from(await (await fetch(controller.apiUrl + path, { headers, ...init })).arrayBuffer());
  // the sample create first, so the list both servers send is the list the controller holds
  const created = await bytes("/v1/targets", { method: "POST", body: JSON.stringify({ scope_id: PROJECT, name: "sample", type: "tcp" }) });
  const one = await bytes(`/v1/targets/${first}`);
  const list = await bytes(`/v1/targets?scope_id=${PROJECT}`);

  const b64 = (b: Buffer) => b.toString("base64");
  const listItems = (JSON.parse(list.toString()) as { items: unknown[] }).items.length;
  process.stdout.write(
    JSON.stringify({
      controller: controller.apiUrl,
      first,
      token: TOKEN,
      listBytes: list.length,
      listItems,
      bodies: { one: b64(one), list: b64(list), created: b64(created) },
    }) + "\n",
  );
  reportCpu();
}

process.on("SIGINT", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
main();
