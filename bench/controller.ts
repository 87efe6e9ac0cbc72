/**
 * Controller throughput against a bare node:http server answering the same bytes, measured in the
 * same run with autocannon, reported as ratios (goals: GET one target ≥ 80% of bare, a list of
 * 1,000 and a create ≥ 70%). Also the heap cost of 100,000 stored targets.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { defaultFixtures } from "../controller";
import { Store } from "../controller/store";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);

async function rps(url: string, opts: Partial<autocannon.Options>): Promise<number> {
  const result = await autocannon({ url, connections: 16, duration: SECONDS, ...opts } as autocannon.Options);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${opts.method ?? "GET"} ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

export async function benchController(): Promise<string[][]> {
  const child = spawn(process.execPath, [path.join(__dirname, "servers.js"), "1000"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
    const s = JSON.parse(line);
    const headers = { authorization: `Bearer ${s.token}` };
    const cases: [string, string, Partial<autocannon.Options>][] = [
      ["GET one target", `/v1/targets/${s.first}`, { headers }],
      [`list ${s.listItems.toLocaleString("en")} targets (${(s.listBytes / 1024).toFixed(0)} KiB)`, "/v1/targets?scope_id=p_1234567890", { headers, connections: 4 }],
      [
        "create a target",
        "/v1/targets",
        { method: "POST", headers, idReplacement: true, body: JSON.stringify({ scope_id: "p_1234567890", name: "bench-[<id>]", type: "tcp" }) },
      ],
    ];
    // how many Targets the controller holds (the create case adds its own)
    const stored = async () => ((await (await fetch(`${s.controller}/v1/targets?scope_id=p_1234567890`, { headers })).json()) as { items?: unknown[] }).items?.length ?? 0;
    const rows: string[][] = [];
    for (const [name, p, opts] of cases) {
      const bare = await rps(s.bare + p, opts);
      const before = await stored();
      const ours = await rps(s.controller + p, opts);
      const after = await stored();
      rows.push([name, before === after ? before.toLocaleString("en") : `${before.toLocaleString("en")} → ${after.toLocaleString("en")}`, bare.toFixed(0), ours.toFixed(0), `${((ours / bare) * 100).toFixed(0)}%`]);
    }
    return rows;
  } finally {
    child.kill();
  }
}

/** Heap held by 100,000 targets in the store (in this process, after GC when exposed). */
export function storeMemory(count = 100_000): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const store = new Store(defaultFixtures());
  for (let i = 0; i < count; i++) {
    store.createTarget({ scope_id: "p_1234567890", name: `t-${i}`, type: "tcp", description: "benchmark target", host_set_ids: ["hsst_1234567890"], attributes: { default_port: 22 } });
  }
  gc?.();
  const used = process.memoryUsage().heapUsed - before;
  if (store.size !== count) throw new Error("store lost targets");
  return used;
}
