/**
 * What emulating current Boundary (the table's newest release, `EMULATED`) costs, each against a
 * baseline measured in the same run:
 * - a list of 10,000 Targets read page by page (1,000 per page) against the same list in one answer
 *   (the spec's mode);
 * - a GET with the rate limiter against the same GET with it disabled.
 */
import { performance } from "node:perf_hooks";
import * as undici from "undici";
import { type ControllerOptions } from "../controller";
import { TOKEN, benchController } from "./start";
import { NEWEST, type Release } from "../wire/releases";

/** The release emulated: the newest (current Boundary), which pages its lists and limits its rate. */
export const EMULATED: Release = NEWEST;

const PROJECT = "p_1234567890";
const headers = { authorization: `Bearer ${TOKEN}` };

/** Runs `fn` against a fresh controller holding `targets` Targets. */
async function withController<T>(
  options: Partial<ControllerOptions>,
  targets: number,
  fn: (url: string, pool: undici.Pool, firstId: string) => Promise<T>,
): Promise<T> {
  const c = await benchController(options);
  const pool = new undici.Pool(c.apiUrl, { connections: 1 });
  try {
    let first = "";
    for (let i = 0; i < targets; i++) {
      const { id } = c.store.createTarget({ scope_id: PROJECT, name: `t-${i}`, type: "tcp", attributes: { default_port: 22 } });
      first ||= id;
    }
    return await fn(c.apiUrl, pool, first);
  } finally {
    await pool.close();
    await c.shutdown();
  }
}

/** Mean ms of reading the whole list, `rounds` times, following pages when there are any. */
async function readList(pool: undici.Pool, rounds: number): Promise<{ ms: number; items: number }> {
  const once = async () => {
    let seen = 0;
    for (let token: string | undefined; ;) {
      const res = await pool.request({ method: "GET", path: `/v1/targets?scope_id=${PROJECT}${token ? `&list_token=${token}` : ""}`, headers });
      const body = (await res.body.json()) as { items?: unknown[]; response_type?: string; list_token?: string };
      if (res.statusCode !== 200) throw new Error(`list answered ${res.statusCode}`);
      seen += body.items?.length ?? 0;
      if (body.response_type !== "delta" || !body.list_token) break;
      token = body.list_token;
    }
    return seen;
  };
  const expected = await once();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) if ((await once()) !== expected) throw new Error("the list changed between rounds");
  return { ms: (performance.now() - started) / rounds, items: expected };
}

/** Mean ms of `n` sequential GETs of one Target. */
async function readOne(pool: undici.Pool, id: string, n: number): Promise<number> {
  const get = async () => {
    const res = await pool.request({ method: "GET", path: `/v1/targets/${id}`, headers });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`GET answered ${res.statusCode}`);
  };
  for (let i = 0; i < 100; i++) await get();
  const started = performance.now();
  for (let i = 0; i < n; i++) await get();
  return (performance.now() - started) / n;
}

/** Rows: case, baseline ms, measured ms, ratio. */
export async function benchEmulation(): Promise<string[][]> {
  const whole = await withController({}, 10_000, (_u, pool) => readList(pool, 10));
  const emulation = EMULATED.release;
  const paged = await withController({ emulation, rateLimits: "disabled" }, 10_000, (_u, pool) => readList(pool, 10));
  const unlimited = await withController({ emulation, rateLimits: "disabled" }, 1, (_u, pool, id) => readOne(pool, id, 2000));
  const limited = await withController({ emulation }, 1, (_u, pool, id) => readOne(pool, id, 2000));
  if (whole.items !== 10_000 || paged.items !== 10_000) throw new Error(`lists saw ${whole.items} and ${paged.items} targets, not 10,000`);
  return [
    ["list of 10,000 targets: one answer → 10 pages of 1,000 (ms per list)", whole.ms.toFixed(1), paged.ms.toFixed(1), (paged.ms / whole.ms).toFixed(2)],
    ["GET one target: rate limiter off → on (ms per request)", unlimited.toFixed(3), limited.toFixed(3), (limited / unlimited).toFixed(2)],
  ];
}
