/**
 * What the hardening costs, each against a baseline measured in the same run:
 * - `matches` per target: RE2 (re2js, what filters use now) against JavaScript's RegExp (before);
 * - a list of 1,000 targets over HTTP with a `matches` filter against the same list unfiltered;
 * - authorize-session latency with 20,000 live sessions against none.
 */
import { performance } from "node:perf_hooks";
import { RE2JS } from "re2js";
import * as undici from "undici";
import { TOKEN, benchController } from "./start";

/** Mean ns per call of `fn` over `n` calls, after a warm-up. */
function nsPerCall(n: number, fn: (i: number) => void): number {
  for (let i = 0; i < Math.min(n, 1000); i++) fn(i);
  const t = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  return ((performance.now() - t) * 1e6) / n;
}

/** `matches` on target-like strings: RE2 against RegExp, the same patterns and subjects. */
export function benchRegex(): string[][] {
  const subjects = Array.from({ length: 10_000 }, (_, i) => `web-${i}-2026-11-22T12:18:18.247Z`);
  const rows: string[][] = [];
  for (const pattern of ["^web-1[0-9]*-", "prod|staging", "T12:18:\\d{2}\\.\\d+Z$"]) {
    const re2 = RE2JS.compile(pattern);
    const js = new RegExp(pattern);
    const before = nsPerCall(200_000, (i) => js.test(subjects[i % subjects.length]!));
    const now = nsPerCall(200_000, (i) => re2.matcher(subjects[i % subjects.length]!).find());
    rows.push([`matches ${JSON.stringify(pattern)}`, before.toFixed(0), now.toFixed(0), (now / before).toFixed(2)]);
  }
  return rows;
}

/** Mean ms per request of `n` sequential requests. */
async function msPerRequest(pool: undici.Pool, n: number, req: () => undici.Dispatcher.RequestOptions): Promise<number> {
  for (let i = 0; i < 20; i++) await (await pool.request(req())).body.dump();
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await pool.request(req());
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} for ${req().path}`);
    await res.body.dump();
  }
  return (performance.now() - t) / n;
}

/** The list with a filter over HTTP, and authorize-session as sessions pile up. */
export async function benchListAndSessions(): Promise<string[][]> {
  const c = await benchController();
  const pool = new undici.Pool(c.apiUrl, { connections: 1 });
  const headers = { authorization: `Bearer ${TOKEN}` };
  try {
    for (let i = 0; i < 1000; i++) c.store.createTarget({ scope_id: "p_1234567890", name: `web-${i}`, type: "tcp", host_set_ids: ["hsst_1234567890"] });
    const list = (filter?: string) => () => ({
      method: "GET" as const,
      path: `/v1/targets?${new URLSearchParams({ scope_id: "p_1234567890", ...(filter ? { filter } : {}) })}`,
      headers,
    });
    const plain = await msPerRequest(pool, 50, list());
    const filtered = await msPerRequest(pool, 50, list('"/item/name" matches "^web-1[0-9]*$"'));
    const target = c.store.listTargets("p_1234567890", false)[0]!;
    const authorize = () => ({ method: "POST" as const, path: `/v1/targets/${target.id}:authorize-session`, headers, body: "{}" });
    const fresh = await msPerRequest(pool, 500, authorize);
    while (c.sessions.sessions.size < 20_000) c.sessions.authorize(target.id, {});
    const loaded = await msPerRequest(pool, 500, authorize);
    return [
      ["list 1,000 targets: unfiltered → `matches` filter (ms)", plain.toFixed(2), filtered.toFixed(2), (filtered / plain).toFixed(2)],
      ["authorize-session: 0 → 20,000 live sessions (ms)", fresh.toFixed(3), loaded.toFixed(3), (loaded / fresh).toFixed(2)],
    ];
  } finally {
    await pool.close();
    await c.shutdown();
  }
}
