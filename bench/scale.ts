/**
 * Does the controller stay flat as it fills up? Each operation is timed on a fresh controller
 * holding 1,000, 10,000 and 100,000 Targets (in one big project, with a small project beside it),
 * over HTTP, sequentially; the ratio is 100k against 1k (goal ≤ 1.5). Each row says the store size
 * it was measured at, and every size starts from a fresh controller.
 */
import { performance } from "node:perf_hooks";
import * as undici from "undici";
import { TOKEN, benchController } from "./start";
import { progress } from "./progress";

const BIG = "p_1234567890";
const SMALL = "p_0987654321";
const SIZES = [1_000, 10_000, 100_000];
const OPS = 300;

type Op = { name: string; request: (i: number, ids: string[]) => undici.Dispatcher.RequestOptions };

const json = (method: "POST" | "PATCH", path: string, body: object): undici.Dispatcher.RequestOptions => ({
  method,
  path,
  headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
  body: JSON.stringify(body),
});
const get = (path: string): undici.Dispatcher.RequestOptions => ({ method: "GET", path, headers: { authorization: `Bearer ${TOKEN}` } });

/** The operations, each over OPS distinct Targets of the big project (made for the purpose). */
const OPERATIONS: Op[] = [
  { name: "create", request: (i) => json("POST", "/v1/targets", { scope_id: BIG, name: `new-${i}`, type: "tcp" }) },
  { name: "GET", request: (i, ids) => get(`/v1/targets/${ids[i]}`) },
  { name: "PATCH", request: (i, ids) => json("PATCH", `/v1/targets/${ids[i]}`, { version: 1, description: "patched" }) },
  { name: ":set-host-sets", request: (i, ids) => json("POST", `/v1/targets/${ids[i]}:set-host-sets`, { version: 2, host_set_ids: ["hsst_1234567890"] }) },
  { name: "list of a 1-target project", request: () => get(`/v1/targets?scope_id=${SMALL}`) },
  { name: "authorize-session by name", request: (i) => json("POST", `/v1/targets/op-${i}:authorize-session`, { name: `op-${i}`, scope_id: BIG }) },
  { name: "DELETE", request: (i, ids) => ({ method: "DELETE", path: `/v1/targets/${ids[i]}`, headers: { authorization: `Bearer ${TOKEN}` } }) },
];

/** Mean ms per operation at each size; rows with the 100k/1k ratio. */
export async function benchScale(): Promise<string[][]> {
  progress("scale: warm-up");
  await measure(SIZES[0]!); // warm-up, discarded: the first size would otherwise be measured cold
  const results = new Map<string, number[]>();
  for (const size of SIZES) {
    progress(`scale: ${size.toLocaleString("en")} targets`);
    for (const [name, ms] of await measure(size)) results.set(name, [...(results.get(name) ?? []), ms]);
  }
  return OPERATIONS.map(({ name }) => {
    const ms = results.get(name)!;
    return [name, ...ms.map((m) => m.toFixed(3)), (ms[ms.length - 1]! / ms[0]!).toFixed(2)];
  });
}

/** Mean ms of each operation on a fresh controller holding `size` Targets. */
async function measure(size: number): Promise<Map<string, number>> {
  const results = new Map<string, number>();
  {
    const c = await benchController();
    const pool = new undici.Pool(c.apiUrl, { connections: 1 });
    try {
      for (let i = 0; i < size - OPS; i++) c.store.createTarget({ scope_id: BIG, name: `t-${i}`, type: "tcp" });
      const ids = Array.from(
        { length: OPS },
        (_, i) => c.store.createTarget({ scope_id: BIG, name: `op-${i}`, type: "tcp", host_set_ids: ["hsst_1234567891"] }).id,
      );
      c.store.createTarget({ scope_id: SMALL, name: "alone", type: "tcp" });
      if (c.store.size !== size + 1) throw new Error(`store holds ${c.store.size}, not ${size + 1}`);
      for (const op of OPERATIONS) {
        const started = performance.now();
        for (let i = 0; i < OPS; i++) {
          const res = await pool.request(op.request(i, ids));
          await res.body.dump();
          if (res.statusCode >= 300) throw new Error(`${op.name} at ${size}: ${res.statusCode}`);
        }
        results.set(op.name, (performance.now() - started) / OPS);
      }
    } finally {
      await pool.close();
      await c.shutdown();
    }
  }
  return results;
}

/** The sizes, for the table's header. */
export const SCALE_SIZES = SIZES;

/**
 * 20 lists of 100,000 Targets, 4 at a time over HTTP: RSS before, at its peak, and after they end
 * (goal: back within 20% of before). Lists are streamed, so each holds about one chunk.
 */
export async function benchListMemory(): Promise<string[][]> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const c = await benchController();
  const pool = new undici.Pool(c.apiUrl, { connections: 4 });
  try {
    for (let i = 0; i < 100_000; i++)
      c.store.createTarget({ scope_id: BIG, name: `t-${i}`, type: "tcp", host_set_ids: ["hsst_1234567890"], attributes: { default_port: 22 } });
    gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const started = performance.now();
    for (let round = 0; round < 5; round++) {
      await Promise.all(Array.from({ length: 4 }, async () => (await pool.request(get(`/v1/targets?scope_id=${BIG}`))).body.dump()));
    }
    const ms = performance.now() - started;
    clearInterval(sampler);
    gc?.();
    const after = process.memoryUsage().rss;
    const mib = (b: number) => (b / 1024 / 1024).toFixed(0);
    return [["20 lists of 100,000 targets, 4 at a time", (ms / 1000).toFixed(1), mib(before), mib(peak), mib(after), (after / before).toFixed(2)]];
  } finally {
    await pool.close();
    await c.shutdown();
  }
}
