/**
 * One provider for both API generations, learned from what answers already say: against
 * `--emulate 0.21` it uses the current actions and names, never sends a body whose field names the
 * server would discard, falls back once on a 405, and reads both generations onto the same state.
 * Releases in between (0.5–0.13) are played by a proxy that rewrites names as each reads and
 * answers them: the brokered list's earlier name, and the newer fields a release drops silently.
 */
import { BoundaryClient } from "../../provider/client";
import { DynamicTargetProvider } from "../../provider/resource/dynamic";
import { ResourceInitError } from "../../provider/resource/errors";
import type { TargetState } from "../../provider/resource/state";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { as011, startReleaseProxy } from "../helpers/release-proxy";

let c: TestController;
beforeAll(async () => {
  c = await startTestController({ emulation: "0.21" });
});
afterAll(() => c.shutdown());

const program = (name: string, extra: object = {}) => ({ scopeId: PROJECT, name, defaultPort: 22, hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"], ...extra });

test("against a current controller: create, read, update and delete through the current actions and names", async () => {
  const proxy = await startReleaseProxy(c.apiUrl);
  const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN });
  try {
    const inputs = program("current-lifecycle");
    const created = await provider.create(inputs);
    expect(created.outs).toMatchObject({ hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"], hostSets: [{ id: "hsst_1234567890" }], version: 3 });
    expect(proxy.seen.map((r) => `${r.method} ${r.path.replace(/ttcp_\w+/, "{id}")}`)).toEqual([
      "POST /v1/targets",
      "POST /v1/targets/{id}:set-host-sources",
      "POST /v1/targets/{id}:set-credential-sources",
    ]);
    // the lists went under the current names, with the injected list kept (empty here)
    expect(JSON.parse(proxy.seen[1]!.body)).toEqual({ version: 1, host_source_ids: ["hsst_1234567890"] });
    // (and the brokered list under its 0.5–0.13 name too, which this release discards)
    expect(JSON.parse(proxy.seen[2]!.body)).toEqual({
      version: 2,
      brokered_credential_source_ids: ["clvlt_1234567890"],
      application_credential_source_ids: ["clvlt_1234567890"],
      injected_application_credential_source_ids: [],
    });
    const read = await provider.read(created.id, created.outs);
    expect((await provider.diff(created.id, read.props, inputs)).changes).toBe(false);
    const updated = await provider.update(created.id, read.props as TargetState, { ...inputs, hostSetIds: ["hsst_1234567891"] });
    expect(updated.outs).toMatchObject({ hostSetIds: ["hsst_1234567891"], version: 4 });
    await provider.delete(created.id);
    // a second create: the generation is known now, so no v0.4 name in any body
    const before = proxy.seen.length;
    await provider.create(program("current-second"));
    for (const r of proxy.seen.slice(before)) expect(r.body).not.toMatch(/host_set_ids|application_credential_library_ids/);
    // and never one in an association action, where it would be discarded and the list cleared
    for (const r of proxy.seen.filter((s) => s.path.includes(":"))) expect(r.body).not.toMatch(/host_set_ids|application_credential_library_ids/);
  } finally {
    await provider.core.client.close();
    await proxy.close();
  }
});

/**
 * Boundary 0.5–0.9 name the brokered list `application_credential_source_ids` and discard
 * `brokered_…` (an unknown key); 0.10–0.13 answer with both names. Played by a proxy that renames
 * on the way in and out, in front of `--emulate 0.21`.
 */
describe.each([
  ["0.5–0.9", (b: string) => b.replace(/"brokered_credential_source/g, '"application_credential_source')],
  ["0.10–0.13", (b: string) => b.replace(/"brokered_credential_source(s|_ids)":(\[[^\]]*\])/g, '"brokered_credential_source$1":$2,"application_credential_source$1":$2')],
])("a controller of %s, with the brokered list's earlier name", (releases, answers) => {
  // what such a release reads of a request: only the earlier name (0.5–0.9), or both merged (0.10–0.13)
  const requests = (body: string) => {
    const b = JSON.parse(body);
    if (!("application_credential_source_ids" in b || "brokered_credential_source_ids" in b)) return body;
    const ids = releases === "0.5–0.9" ? b.application_credential_source_ids : [...new Set([...(b.application_credential_source_ids ?? []), ...(b.brokered_credential_source_ids ?? [])])];
    delete b.application_credential_source_ids;
    return JSON.stringify({ ...b, brokered_credential_source_ids: ids ?? [] });
  };

  test("create, refresh, update and drift keep the brokered credential sources", async () => {
    const proxy = await startReleaseProxy(c.apiUrl, { answers, requests });
    const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN });
    try {
      const inputs = program(`earlier-${releases.replace(/\W/g, "")}`);
      const created = await provider.create(inputs);
      expect(created.outs).toMatchObject({ applicationCredentialLibraryIds: ["clvlt_1234567890"], applicationCredentialLibraries: [{ id: "clvlt_1234567890" }] });
      expect(c.store.getTarget(created.id).application_credential_library_ids).toEqual(["clvlt_1234567890"]);
      const read = await provider.read(created.id, created.outs);
      expect((await provider.diff(created.id, read.props, inputs)).changes).toBe(false);
      const updated = await provider.update(created.id, read.props as TargetState, { ...inputs, applicationCredentialLibraryIds: ["clvlt_1234567890", "clvlt_1234567891"] });
      expect(updated.outs).toMatchObject({ applicationCredentialLibraryIds: ["clvlt_1234567890", "clvlt_1234567891"] });
      expect(c.store.getTarget(created.id).application_credential_library_ids.sort()).toEqual(["clvlt_1234567890", "clvlt_1234567891"]);
      // drift: a library detached outside Pulumi shows on refresh
      const t = c.store.getTarget(created.id);
      c.store.changeAssociation(created.id, "remove", t.version, { applicationCredentialLibraryIds: ["clvlt_1234567891"] });
      const refreshed = await provider.read(created.id, updated.outs);
      expect(refreshed.inputs).toMatchObject({ applicationCredentialLibraryIds: ["clvlt_1234567890"] });
      await provider.delete(created.id);
    } finally {
      await provider.core.client.close();
      await proxy.close();
    }
  });
});

test("a controller older than a field the program sets (0.11, egressWorkerFilter): the create is recorded and fails naming the field and the release, and so does each update", async () => {
  const proxy = await startReleaseProxy(c.apiUrl, { requests: as011 });
  const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN });
  try {
    const inputs = program("older-than-field", { egressWorkerFilter: '"dev" in "/tags/type"', defaultClientPort: 15432 });
    const failed = await provider.create(inputs).then(() => undefined, (e: unknown) => e);
    expect(failed).toBeInstanceOf(ResourceInitError);
    const { id, properties, message } = failed as ResourceInitError;
    expect(message).toContain("egressWorkerFilter was not kept: the controller took it without an error but does not know it (Boundary 0.12.0 added it)");
    expect(message).toContain("defaultClientPort was not kept: the controller took it without an error but does not know it (Boundary 0.13.0 added it)");
    // recorded as the controller holds it: the lists set, the dropped fields absent
    expect(properties).toMatchObject({ hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"] });
    expect(properties.egressWorkerFilter).toBeUndefined();
    expect(c.store.getTarget(id).egress_worker_filter).toBeUndefined();
    // the next up tries again and says the same, leaving the state as the controller holds it
    const again = await provider.update(id, properties as TargetState, inputs).then(() => undefined, (e: unknown) => e);
    expect(again).toBeInstanceOf(ResourceInitError);
    expect((again as ResourceInitError).message).toMatch(/^updating target ttcp_\w+: egressWorkerFilter was not kept/);
    expect((again as ResourceInitError).properties).toMatchObject({ version: c.store.getTarget(id).version });
    // without the newer fields the program applies cleanly
    await expect(provider.update(id, (again as ResourceInitError).properties as TargetState, program("older-than-field"))).resolves.toBeDefined();
    await provider.delete(id);
  } finally {
    await provider.core.client.close();
    await proxy.close();
  }
});

test("a controller 0.7.3–0.10 (its actions name set-host-sets and set-host-sources): a 0.12 field is refused at diff, before any call; a 0.10 one is not", async () => {
  const actions010 = (body: string) => body.replace(/"set-host-sources"/g, '"set-host-sources","add-host-sets","set-host-sets","remove-host-sets"');
  const proxy = await startReleaseProxy(c.apiUrl, { answers: actions010 });
  const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN });
  try {
    const inputs = program("release-ceiling");
    const created = await provider.create(inputs);
    expect(created.outs.authorizedActions).toEqual(expect.arrayContaining(["set-host-sets", "set-host-sources"]));
    const before = proxy.seen.length;
    await expect(provider.diff(created.id, created.outs, { ...inputs, egressWorkerFilter: '"dev" in "/tags/type"' })).rejects.toThrow(
      /egressWorkerFilter needs Boundary 0\.12\.0 or later, but this controller is 0\.10 or older .*`pulumi refresh` reads the Target again/,
    );
    expect(proxy.seen.length).toBe(before);
    await expect(provider.diff(created.id, created.outs, { ...inputs, injectedApplicationCredentialSourceIds: ["credup_1234567890"] })).resolves.toMatchObject({ changes: true });
    await provider.delete(created.id);
  } finally {
    await provider.core.client.close();
    await proxy.close();
  }
});

test("a controller that says v0.4 in its answers but has only current actions: one 405, then the current action", async () => {
  const olderLooking = await startReleaseProxy(c.apiUrl, { answers: (body) => body.replace(/-host-sources/g, "-host-sets").replace(/-credential-sources/g, "-credential-libraries") });
  const provider = new DynamicTargetProvider({ addr: olderLooking.url, token: ADMIN_TOKEN });
  try {
    const created = await provider.create(program("falls-back", { applicationCredentialLibraryIds: [] }));
    expect(created.outs).toMatchObject({ hostSetIds: ["hsst_1234567890"] });
    expect(olderLooking.seen.map((r) => `${r.path.replace(/ttcp_\w+/, "{id}")} ${r.status}`)).toEqual(["/v1/targets 200", "/v1/targets/{id}:set-host-sets 405", "/v1/targets/{id}:set-host-sources 200"]);
  } finally {
    await provider.core.client.close();
    await olderLooking.close();
  }
});

test("BOUNDARY_API_GENERATION fixes the generation: no learning, no fallback", async () => {
  const provider = new DynamicTargetProvider({ addr: c.apiUrl, token: ADMIN_TOKEN, apiGeneration: "v0.4" });
  try {
    const err = await provider.create(program("pinned", { applicationCredentialLibraryIds: [] })).catch((e: unknown) => e);
    expect(String(err)).toContain("setting host sets failed: POST /v1/targets/");
    expect(String(err)).toContain(":set-host-sets: 405");
  } finally {
    await provider.core.client.close();
  }
});

describe("pacing against --emulate 0.21's own rate limiter", () => {
  /** 429s the controller answered, from its /metrics. */
  const refusals = async (opsUrl: string) => {
    const text = await (await fetch(`${opsUrl}/metrics`)).text();
    return [...text.matchAll(/^boundary_http_requests_total\{.*code="429".*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };

  test("2,000 reads, 16 at a time, under a quota of 500 per second per token: none fails, (nearly) no 429, at the quota's pace", async () => {
    const limited = await startTestController({ emulation: "0.21", rateLimits: [{ action: "*", per: "auth-token", limit: 500, periodMs: 1000 }] });
    const client = new BoundaryClient({ addr: limited.apiUrl, token: ADMIN_TOKEN }, {});
    try {
      const t = limited.store.createTarget({ scope_id: PROJECT, name: "paced", type: "tcp", attributes: { default_port: 22 } });
      let next = 0;
      const started = Date.now();
      await Promise.all(Array.from({ length: 16 }, async () => {
        for (let i = next++; i < 2000; i = next++) expect((await client.getTarget(t.id)).id).toBe(t.id);
      }));
      // the quota allows 2,000 reads in just over 3 s: pacing waits for the windows instead of collecting 429s
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
      expect(await refusals(limited.opsUrl)).toBeLessThanOrEqual(16);
    } finally {
      await client.close();
      await limited.shutdown();
    }
  }, 30_000);

  test("getTargets of 2,500 Targets (three pages) under a list quota of 2 per second: complete, no failure", async () => {
    const limited = await startTestController({ emulation: "0.21", rateLimits: [{ action: "list", per: "auth-token", limit: 2, periodMs: 1000 }] });
    const client = new BoundaryClient({ addr: limited.apiUrl, token: ADMIN_TOKEN }, {});
    try {
      for (let i = 0; i < 2500; i++) limited.store.createTarget({ scope_id: PROJECT, name: `listed-${i}`, type: "tcp", attributes: { default_port: 22 } });
      const started = Date.now();
      const all = await client.listTargets({ scopeId: PROJECT });
      expect(new Set(all.map((t) => t.id)).size).toBe(2500);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900); // the third page waited for the next window
      expect(await refusals(limited.opsUrl)).toBeLessThanOrEqual(1);
    } finally {
      await client.close();
      await limited.shutdown();
    }
  }, 30_000);
});
