/**
 * The provider against each generation of Boundary's API, each number against the minimum or the
 * limit measured or computed in the same run (the releases are the table's: `MEASURED`, `PACED`):
 * - API calls per operation against the spec's controller, the oldest release and the newest
 *   (from each controller's /metrics), against the fewest the API allows;
 * - 2,000 reads, 16 at a time (the engine's default parallelism), against the newest release with a
 *   quota the bench configures (500 requests per second per token): wall time against the quota's
 *   own limit, and the 429s received; the same work under a 5 requests/s client cap (what the
 *   Terraform provider's users get from BOUNDARY_RATE_LIMIT=5), computed.
 */
import { performance } from "node:perf_hooks";
import { type ControllerOptions, type RunningController } from "../controller";
import { TOKEN, benchController } from "./start";
import { BoundaryClient } from "../provider/client";
import { TargetCore } from "../provider/resource/core";
import type { TargetState } from "../provider/resource/state";
import { sleep } from "../common/sleep";
import { DEFAULT_RELEASE, NEWEST, OLDEST, isList, isSpec, type Release } from "../wire/releases";
import type { InputField } from "../wire/target-fields";

const PROJECT = "p_1234567890";

function start(options: Partial<ControllerOptions>): Promise<RunningController> {
  return benchController(options);
}

/** The controller's request counts by status code, from /metrics. */
async function requests(opsUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  const byCode = new Map<string, number>();
  for (const m of text.matchAll(/^boundary_http_requests_total\{.*code="(\d+)".*\} (\d+)$/gm)) byCode.set(m[1]!, (byCode.get(m[1]!) ?? 0) + Number(m[2]));
  return byCode;
}
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

async function counted(c: RunningController, fn: () => Promise<unknown>): Promise<number> {
  const before = total(await requests(c.opsUrl));
  await fn();
  return total(await requests(c.opsUrl)) - before;
}

/** The releases whose calls are counted: the spec's controller (the default), the oldest Boundary release (the v0.4 API) and the newest. */
export const MEASURED: readonly Release[] = [DEFAULT_RELEASE, OLDEST, NEWEST];

/** The releases of MEASURED as the heading names them: the spec's controller, then `--emulate <release>`. */
export const MEASURED_WORDS = MEASURED.map((r) => (isSpec(r) ? `${r.release}'s controller` : `--emulate ${r.release}`)).join(", ");

/** The table's header: the operation, then each measured release's minimum and count. */
export const GENERATION_CALLS_HEADER = ["operation", ...MEASURED.flatMap((r) => [`${r.release} min`, r.release])];

/** The release paced: the newest, whose rate limiter users meet today (the bench sets its quota). */
export const PACED: Release = NEWEST;

/**
 * The fewest calls per operation on a release: one each, but a create on a release that ignores
 * the lists on create (every Boundary release) takes one set action per list besides.
 */
function minimum(r: Release, lists: number): Record<string, number> {
  const create = 1 + (r.createAppliesLists ? 0 : lists);
  return { create, read: 1, "update a scalar": 1, "update one list": 1, "clear the credential list": 1, delete: 1 };
}

/** Rows: operation, then minimum and measured for each release of MEASURED. */
export async function benchGenerationCalls(): Promise<string[][]> {
  const measured = new Map<string, string[]>();
  for (const r of MEASURED) {
    const c = await start({ emulation: r.release, rateLimits: "disabled" });
    const p = new TargetCore({ addr: c.apiUrl, token: TOKEN });
    const inputs = {
      scopeId: PROJECT,
      name: `calls-${r.release}`,
      defaultPort: 22,
      hostSetIds: ["hsst_1234567890"],
      applicationCredentialLibraryIds: ["clvlt_1234567890"],
    };
    const fewest = minimum(r, Object.keys(inputs).filter((k) => isList(k as InputField)).length);
    const row = (op: string, n: number) => measured.set(op, [...(measured.get(op) ?? []), String(fewest[op]), String(n)]);
    let created: { id: string; state: TargetState } | undefined;
    row("create", await counted(c, async () => (created = await p.create(inputs))));
    const { id } = created!;
    let state = created!.state;
    row("read", await counted(c, () => p.read(id, state)));
    row("update a scalar", await counted(c, async () => (state = await p.update(id, state, { ...inputs, description: "x" }))));
    row("update one list", await counted(c, async () => (state = await p.update(id, state, { ...inputs, description: "x", hostSetIds: [] }))));
    // one action on every release (0.10+'s carries the empty injected list along: an open-source tcp Target takes none)
    row(
      "clear the credential list",
      await counted(c, async () => (state = await p.update(id, state, { ...inputs, description: "x", hostSetIds: [], applicationCredentialLibraryIds: [] }))),
    );
    row("delete", await counted(c, () => p.delete(id)));
    await p.client.close();
    await c.shutdown();
  }
  return [...measured].map(([op, cells]) => [op, ...cells]);
}

/**
 * Rows: case, the limit (s), measured (s), ratio, 429s received; and a note comparing it with a
 * 5 requests/s client cap, computed (not measured: it is arithmetic, not a run that failed).
 */
export async function benchPacing(reads = 2000, concurrency = 16): Promise<{ rows: string[][]; note: string }> {
  const limit = 500;
  const periodMs = 1000;
  const c = await start({ emulation: PACED.release, rateLimits: [{ action: "*", per: "auth-token", limit, periodMs }] });
  const seed = new BoundaryClient({ addr: c.apiUrl, token: TOKEN });
  const client = new BoundaryClient({ addr: c.apiUrl, token: TOKEN });
  try {
    const t = await seed.createTarget({ scope_id: PROJECT, name: "paced", type: "tcp", attributes: { default_port: 22 } });
    await sleep(periodMs); // a fresh window
    const before = await requests(c.opsUrl);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < reads; i = next++) await client.getTarget(t.id);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const after = await requests(c.opsUrl);
    const refused = (after.get("429") ?? 0) - (before.get("429") ?? 0);
    // the first window's quota is spent at once; every further `limit` reads wait for a new window
    const floor = ((Math.ceil(reads / limit) - 1) * periodMs) / 1000;
    const capped = reads / 5;
    return {
      rows: [
        [
          `${reads.toLocaleString("en")} reads, ${concurrency} at a time, quota ${limit}/s per token`,
          floor.toFixed(1),
          seconds.toFixed(1),
          (seconds / floor).toFixed(2),
          String(refused),
        ],
      ],
      note:
        "For comparison (computed, not measured): a client capped at 5 requests/s, as BOUNDARY_RATE_LIMIT=5 caps the Terraform provider, " +
        `would take ${capped.toFixed(0)} s for the same ${reads.toLocaleString("en")} reads, ${(capped / seconds).toFixed(0)}x the time measured above.`,
    };
  } finally {
    await seed.close();
    await client.close();
    await c.shutdown();
  }
}
