/**
 * Provider costs, each against a baseline measured in the same run:
 * - API calls per operation, read from the controller's /metrics, against the minimum;
 * - create/update latency of the provider against the raw client making the same calls (goal ≤ 1.15);
 * - the size of the serialized provider that every Target's state carries.
 */
import { performance } from "node:perf_hooks";
import * as pulumi from "@pulumi/pulumi";
import { type RunningController } from "../controller";
import { TOKEN, benchController } from "./start";
import { BoundaryClient } from "../provider/client";
import { TargetCore } from "../provider/resource/core";
import { TargetProviderProxy } from "../provider/resource/resource";
import type { TargetState } from "../provider/resource/state";
import { firstReleaseWhere } from "../wire/releases";

const PROJECT = "p_1234567890";
/** The oldest release whose create ignores the lists, as the legacy controller's does. */
const IGNORING = firstReleaseWhere((r) => !r.createAppliesLists)!;

async function controller(ignoreCreateAssociations: boolean): Promise<RunningController> {
  return benchController({ ignoreCreateAssociations });
}

async function apiCalls(opsUrl: string): Promise<number> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(/^boundary_http_requests_total\{.*\} (\d+)$/gm)) n += Number(m[1]);
  return n;
}

async function counted(c: RunningController, fn: () => Promise<unknown>): Promise<number> {
  const before = await apiCalls(c.opsUrl);
  await fn();
  return (await apiCalls(c.opsUrl)) - before;
}

let seq = 0;
const inputs = (extra: object = {}) => ({
  scopeId: PROJECT,
  name: `bench-${++seq}`,
  hostSetIds: ["hsst_1234567890"],
  applicationCredentialLibraryIds: ["clvlt_1234567890"],
  ...extra,
});

/**
 * API calls per operation, counted on the controller's /metrics, for the current API and for a legacy
 * controller that ignores associations on create: rows of [operation, the minimum, the provider's count].
 */
export async function benchCalls(): Promise<string[][]> {
  const rows: string[][] = [];
  for (const legacy of [false, true]) {
    const c = await controller(legacy);
    const p = new TargetCore({ addr: c.apiUrl, token: TOKEN });
    const where = legacy ? `v${IGNORING.release} create` : "ours";
    const i = inputs();
    let created: { id: string; state: TargetState } | undefined;
    const create = await counted(c, async () => (created = await p.create(i)));
    const { id, state: outs } = created!;
    rows.push([`create (${where})`, legacy ? "3" : "1", String(create)]);
    if (!legacy) {
      rows.push(["read", "1", String(await counted(c, () => p.read(id, outs)))]);
      rows.push(["unchanged (diff)", "0", String(await counted(c, async () => p.diff(outs, i)))]);
      let after: TargetState = outs;
      rows.push(["update a scalar", "1", String(await counted(c, async () => (after = await p.update(id, outs, { ...i, description: "x" }))))]);
      const updateList = async () => (after = await p.update(id, after, { ...i, description: "x", hostSetIds: [] }));
      rows.push(["update one list", "1", String(await counted(c, updateList))]);
      rows.push(["delete", "1", String(await counted(c, () => p.delete(id)))]);
    }
    await p.client.close();
    await c.shutdown();
  }
  return rows;
}

/** Mean ms of `fn` over `n` runs, interleaved with the baseline so both see the same machine. */
export async function benchLatency(n = 300): Promise<string[][]> {
  const c = await controller(false);
  const p = new TargetCore({ addr: c.apiUrl, token: TOKEN });
  const raw = new BoundaryClient({ addr: c.apiUrl, token: TOKEN }, {});
  const time = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const sums = { provCreate: 0, rawCreate: 0, provUpdate: 0, rawUpdate: 0 };
  for (let k = 0; k < n + 20; k++) {
    const warm = k >= 20;
    const a = inputs();
    let created: { id: string; state: TargetState } | undefined;
    const pc = await time(async () => (created = await p.create(a)));
    const b = inputs();
    let rawId = "";
    const rc = await time(async () => {
      const body = {
        scope_id: PROJECT,
        name: b.name,
        type: "tcp",
        host_set_ids: b.hostSetIds,
        application_credential_library_ids: b.applicationCredentialLibraryIds,
      };
      rawId = (await raw.createTarget(body)).id;
    });
    const pu = await time(() => p.update(created!.id, created!.state, { ...a, description: "changed", hostSetIds: [] }));
    const ru = await time(async () => {
      const t = await raw.updateTarget(rawId, 1, ["description"], { description: "changed" });
      await raw.setHostSets(rawId, t.version, []);
    });
    if (warm) {
      sums.provCreate += pc;
      sums.rawCreate += rc;
      sums.provUpdate += pu;
      sums.rawUpdate += ru;
    }
  }
  await Promise.all([p.client.close(), raw.close()]);
  await c.shutdown();
  const row = (name: string, prov: number, base: number) => [name, (base / n).toFixed(3), (prov / n).toFixed(3), (prov / base).toFixed(2)];
  return [row("create (1 call)", sums.provCreate, sums.rawCreate), row("update (PATCH + set-host-sets)", sums.provUpdate, sums.rawUpdate)];
}

/** The size in bytes of the serialized provider (`__provider`) that the state of every Target carries. */
export async function providerBytes(): Promise<number> {
  const proxy = new TargetProviderProxy();
  const f = await pulumi.runtime.serializeFunction(() => proxy, { allowSecrets: true });
  return Buffer.byteLength(f.text);
}
