/**
 * One provider for every release, learned from what answers already say (the release table's
 * `releasesAnswering`): against each release itself (`--emulate X.Y`) it uses the actions that
 * release routes, sends a list under every name those releases read and never under a name the
 * server would discard, falls back once on a 405, reads every release's names onto the same state,
 * refuses before any call what no release it may be takes, and catches in the answer what a
 * release dropped.
 */
import { BoundaryClient } from "../../provider/client";
import { ResourceInitError } from "../../provider/errors";
import type { TargetState } from "../../provider/resource/state";
import { release } from "../../wire/releases";
import { ADMIN_TOKEN, PROJECT, useTestController } from "../helpers/controller";
import { startFaultProxy } from "../helpers/fault-proxy";
import { countCalls } from "../helpers/metrics";
import { withProvider } from "../helpers/provider";
import { MATRIX } from "../helpers/releases";

const c = useTestController({ emulation: "0.21" });

const program = (name: string, extra: object = {}) => ({
  scopeId: PROJECT,
  name,
  defaultPort: 22,
  hostSetIds: ["hsst_1234567890"],
  applicationCredentialLibraryIds: ["clvlt_1234567890"],
  ...extra,
});

/** A provider against a fresh controller of `release`. */
const against = (key: Parameters<typeof release>[0]) => ({ controller: { emulation: key, rateLimits: "disabled" as const } });

test("against a current controller: create, read, update and delete through the current actions and names", async () => {
  await withProvider({ on: c, proxy: startFaultProxy }, async ({ proxy, provider }) => {
    const inputs = program("current-lifecycle");
    const created = await provider.create(inputs);
    expect(created.outs).toMatchObject({
      hostSetIds: ["hsst_1234567890"],
      applicationCredentialLibraryIds: ["clvlt_1234567890"],
      hostSets: [{ id: "hsst_1234567890" }],
      version: 3,
    });
    expect(proxy.seen.map((r) => `${r.method} ${r.path.replace(/ttcp_\w+/, "{id}")}`)).toEqual([
      "POST /v1/targets",
      "POST /v1/targets/{id}:set-host-sources",
      "POST /v1/targets/{id}:set-credential-sources",
    ]);
    // the lists went under the current names, with the injected list kept (empty here)
    expect(JSON.parse(proxy.seen[1]!.body)).toEqual({ version: 1, host_source_ids: ["hsst_1234567890"] });
    // (and the brokered list under its 0.5–0.13 name too: the answer's "address" says 0.12 or later, and 0.12–0.13 read that name)
    expect(JSON.parse(proxy.seen[2]!.body)).toEqual({
      version: 2,
      application_credential_source_ids: ["clvlt_1234567890"],
      brokered_credential_source_ids: ["clvlt_1234567890"],
      injected_application_credential_source_ids: [],
    });
    const read = await provider.read(created.id, created.outs);
    expect((await provider.diff(created.id, read.props, inputs)).changes).toBe(false);
    const updated = await provider.update(created.id, read.props as TargetState, { ...inputs, hostSetIds: ["hsst_1234567891"] });
    expect(updated.outs).toMatchObject({ hostSetIds: ["hsst_1234567891"], version: 4 });
    await provider.delete(created.id);
    // a second create: the releases are known now, so no v0.4 name in any body
    const before = proxy.seen.length;
    await provider.create(program("current-second"));
    for (const r of proxy.seen.slice(before)) expect(r.body).not.toMatch(/host_set_ids|application_credential_library_ids/);
    // and never one in an action, where it would be discarded and the list cleared
    for (const r of proxy.seen.filter((x) => x.path.includes(":"))) expect(r.body).not.toMatch(/host_set_ids|application_credential_library_ids/);
  });
});

/** The releases of the matrix that answer the brokered list under its 0.5 name (0.5–0.9 only that name, 0.10–0.13 both). */
const EARLIER = MATRIX.filter((k) => release(k).lists.applicationCredentialLibraryIds!.answers.includes("application_credential_source_ids"));

describe.each(EARLIER)("--emulate %s, which reads and answers the brokered list's 0.5 name", (key) => {
  test("create, refresh, update and drift keep the brokered credential sources", async () => {
    await withProvider(against(key), async ({ c: ctl, provider }) => {
      const inputs = program(`earlier-${key}`);
      const created = await provider.create(inputs);
      expect(created.outs).toMatchObject({
        applicationCredentialLibraryIds: ["clvlt_1234567890"],
        applicationCredentialLibraries: [{ id: "clvlt_1234567890" }],
      });
      expect(ctl.store.getTarget(created.id).application_credential_library_ids).toEqual(["clvlt_1234567890"]);
      const read = await provider.read(created.id, created.outs);
      expect((await provider.diff(created.id, read.props, inputs)).changes).toBe(false);
      const updated = await provider.update(created.id, read.props as TargetState, {
        ...inputs,
        applicationCredentialLibraryIds: ["clvlt_1234567890", "clvlt_1234567891"],
      });
      expect(updated.outs).toMatchObject({ applicationCredentialLibraryIds: ["clvlt_1234567890", "clvlt_1234567891"] });
      // drift: a library detached outside Pulumi shows on refresh
      const t = ctl.store.getTarget(created.id);
      ctl.store.changeAssociation(
        created.id,
        "remove",
        t.version,
        [{ field: "applicationCredentialLibraryIds", name: "application_credential_source_ids", ids: ["clvlt_1234567891"] }],
        "credential-sources",
      );
      const refreshed = await provider.read(created.id, updated.outs);
      expect(refreshed.inputs).toMatchObject({ applicationCredentialLibraryIds: ["clvlt_1234567890"] });
      await provider.delete(created.id);
    });
  });
});

// the create is recorded and fails naming the field and the release; the next update is refused before any call
test("0.11, older than a field the program sets: the create is recorded, naming field and release; the update refused", async () => {
  await withProvider(against("0.11"), async ({ c: ctl, provider }) => {
    const inputs = program("older-than-field", { egressWorkerFilter: '"dev" in "/tags/type"' });
    const failed = await provider.create(inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(ResourceInitError);
    const { id, properties, message } = failed as ResourceInitError;
    expect(message).toContain("egressWorkerFilter was not kept: the controller took it without an error but does not know it (Boundary 0.12 added it)");
    // recorded as the controller holds it: the lists set, the dropped field absent
    expect(properties).toMatchObject({ hostSetIds: ["hsst_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890"] });
    expect(properties.egressWorkerFilter).toBeUndefined();
    expect(ctl.store.getTarget(id).egress_worker_filter).toBeUndefined();
    // its answers said 0.10–0.11 (the brokered list's 0.10 name, no address): no release of those has the field
    const refused = await countCalls(ctl.opsUrl, () =>
      provider.update(id, properties as TargetState, inputs).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(String(refused.result)).toMatch(/egressWorkerFilter needs Boundary 0\.12 or later, but this controller is Boundary 0\.10–0\.11/);
    expect(refused.calls).toEqual({});
    // without the newer field the program applies cleanly
    await expect(provider.update(id, properties as TargetState, program("older-than-field"))).resolves.toBeDefined();
    await provider.delete(id);
  });
});

test("0.12's attributes are decoded strictly: defaultClientPort (0.13) is refused by the controller, the input and its release named; then refused before any call", async () => {
  await withProvider(against("0.12"), async ({ c: ctl, provider }) => {
    const inputs = program("client-port", { defaultClientPort: 15432 });
    const first = await countCalls(ctl.opsUrl, () =>
      provider.create(inputs).then(
        () => undefined,
        (e: unknown) => String(e),
      ),
    );
    // the controller's own words, then the input, the release that added it, and what that answer says the controller is
    expect(first.result).toMatch(
      /attributes: Attribute fields do not match the expected format\.\) defaultClientPort \(attributes\.default_client_port\) needs Boundary 0\.13 or later: the controller refused it, so it is Boundary 0\.5–0\.12\. Nothing was changed; remove defaultClientPort from the program or upgrade the controller\./,
    );
    expect(first.calls).toMatchObject({ "POST /v1/targets": 1 });
    expect(ctl.store.size).toBe(0);
    // learned from that answer: the next create is refused before any call, naming the same
    const again = await countCalls(ctl.opsUrl, () =>
      provider.create(inputs).then(
        () => undefined,
        (e: unknown) => String(e),
      ),
    );
    expect(again.result).toMatch(/defaultClientPort needs Boundary 0\.13 or later, but this controller is Boundary 0\.5–0\.12, which would silently drop it/);
    expect(again.calls).toEqual({});
    // without it the program applies
    await expect(provider.create(program("client-port-less"))).resolves.toBeDefined();
  });
});

test("0.10 (its actions name set-host-sets and set-host-sources): a 0.12 field is refused at diff, before any call; a 0.10 one is not", async () => {
  await withProvider({ ...against("0.10"), proxy: startFaultProxy }, async ({ proxy, provider }) => {
    const inputs = program("release-ceiling");
    const created = await provider.create(inputs);
    expect(created.outs.authorizedActions).toEqual(expect.arrayContaining(["set-host-sets", "set-host-sources"]));
    const before = proxy.seen.length;
    await expect(provider.diff(created.id, created.outs, { ...inputs, egressWorkerFilter: '"dev" in "/tags/type"' })).rejects.toThrow(
      new RegExp(
        "egressWorkerFilter needs Boundary 0\\.12 or later, but this controller is Boundary 0\\.10, which would silently drop it" +
          ".*`pulumi refresh` reads the Target again",
      ),
    );
    expect(proxy.seen.length).toBe(before);
    await expect(provider.diff(created.id, created.outs, { ...inputs, injectedApplicationCredentialSourceIds: ["credup_1234567890"] })).resolves.toMatchObject({
      changes: true,
    });
    await provider.delete(created.id);
  });
});

test("a client that has seen no answer meets a current controller: v0.4's action is one 405, then the current action", async () => {
  const proxy = await startFaultProxy(c.apiUrl);
  const client = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN }, {});
  try {
    const t = c.store.createTarget({ scope_id: PROJECT, name: "falls-back", type: "tcp", attributes: { default_port: 22 } });
    const after = await client.associate(t.id, "set", 1, [{ field: "hostSetIds", ids: ["hsst_1234567890"] }]);
    expect(after.host_source_ids).toEqual(["hsst_1234567890"]);
    expect(proxy.seen.map((r) => `${r.path.replace(/ttcp_\w+/, "{id}")} ${r.status}`)).toEqual([
      "/v1/targets/{id}:set-host-sets 405",
      "/v1/targets/{id}:set-host-sources 200",
    ]);
    expect(client.generation).toBe("current");
  } finally {
    await client.close();
    await proxy.close();
  }
});

test("BOUNDARY_API_GENERATION fixes the generation: no fallback beyond it", async () => {
  await withProvider({ on: c, client: { apiGeneration: "v0.4" } }, async ({ provider }) => {
    const err = await provider.create(program("pinned", { applicationCredentialLibraryIds: [] })).catch((e: unknown) => e);
    expect(String(err)).toContain("setting host sets failed: POST /v1/targets/");
    expect(String(err)).toContain(":set-host-sets: 405");
  });
});

test('"address": "" is no address: a Target with host sources imports, checks and previews clean, and its refresh shows no drift', async () => {
  await withProvider({ on: c }, async ({ provider }) => {
    const made = await provider.create(program("empty-address"));
    expect((await c.call("GET", `/v1/targets/${made.id}`)).body.address).toBe("");
    // an import: every field the controller shows becomes an input
    const imported = (await provider.core.read(made.id))!;
    expect(imported.state.address).toBeUndefined();
    expect(imported.inputs).not.toHaveProperty("address");
    expect(provider.core.check(imported.inputs as Record<string, unknown>).failures).toEqual([]);
    expect((await provider.core.diff(imported.state, imported.inputs as Record<string, unknown>)).changes).toBe(false);
    const refreshed = await provider.read(made.id, made.outs);
    expect((await provider.diff(made.id, refreshed.props, program("empty-address"))).changes).toBe(false);
    await provider.delete(made.id);
  });
});

test("an alias value read in place of an id is never taken for the id: the Target's own id is recorded, and its aliases are an output", async () => {
  await withProvider({ on: c }, async ({ provider }) => {
    const res = await c.call("POST", "/v1/targets", {
      scope_id: PROJECT,
      name: "via-alias",
      type: "tcp",
      attributes: { default_port: 22 },
      with_aliases: [{ value: "via-alias.example", scope_id: "global" }],
    });
    const imported = (await provider.core.read("via-alias.example"))!;
    expect(imported.id).toBe(res.body.id);
    expect(imported.state.aliases).toEqual([{ id: res.body.aliases[0].id, value: "via-alias.example" }]);
    expect(imported.inputs).not.toHaveProperty("aliases");
    const refreshed = await provider.read(res.body.id, imported.state);
    expect(refreshed.props.aliases).toEqual(imported.state.aliases);
    await provider.delete(res.body.id);
    expect((await c.call("GET", "/v1/targets/via-alias.example")).status).toBe(404);
  });
});

test("a description with a new line: refused before any call on a release its answers show older than 0.17, kept by 0.17 and later", async () => {
  // 0.10's answers tell it (host_set_ids beside brokered_credential_source_ids); 0.12–0.16 look like 0.17+ (the attempt meets their 400)
  await withProvider(against("0.10"), async (older) => {
    const made = await older.provider.create(program("one-line", { description: "one line" }));
    const refused = await countCalls(older.c.opsUrl, () =>
      older.provider.update(made.id, made.outs as TargetState, program("one-line", { description: "two\nlines" })).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(String(refused.result)).toMatch(
      /description holds a new line, a tab or another space that only Boundary 0\.17 and later take, but this controller is Boundary 0\.10/,
    );
    expect(refused.calls).toEqual({});
  });
  await withProvider({ on: c }, async ({ provider }) => {
    const made = await provider.create(program("two-lines", { description: "two\nlines" }));
    expect(c.store.getTarget(made.id).description).toBe("two\nlines");
    await provider.delete(made.id);
  });
});

test("a description no release takes (a control character) gets the field rule's failure alone, not a release's", async () => {
  await withProvider(against("0.10"), async (older) => {
    const made = await older.provider.create(program("bell", { description: "one line" }));
    // update learns the release from its answers, then judges the inputs against it
    const refused = await older.provider.update(made.id, made.outs as TargetState, program("bell", { description: "ring \u0007" })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(refused)).toMatch(/description/);
    expect(String(refused)).not.toMatch(/only Boundary|TypeError|undefined/);
    const checked = await older.provider.check!({}, program("bell", { description: "ring \u0007" }));
    expect(checked.failures).toEqual([{ property: "description", reason: expect.stringMatching(/printable/) }]);
  });
});

describe("pacing against --emulate 0.21's own rate limiter", () => {
  /** 429s the controller answered, from its /metrics. */
  const refusals = async (opsUrl: string) => {
    const text = await (await fetch(`${opsUrl}/metrics`)).text();
    return [...text.matchAll(/^boundary_http_requests_total\{.*code="429".*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };

  // (a quota the client reaches at once even on a loaded machine: each read costs the test's process
  // its client's and its controller's work, a millisecond or more)
  test("400 reads, 16 at a time, under a quota of 100 per second per token: none fails, (nearly) no 429, at the quota's pace", async () => {
    const quota = { action: "*", per: "auth-token", limit: 100, periodMs: 1000 } as const;
    await withProvider({ controller: { emulation: "0.21", rateLimits: [quota] } }, async ({ c: limited, raw: client }) => {
      const t = limited.store.createTarget({ scope_id: PROJECT, name: "paced", type: "tcp", attributes: { default_port: 22 } });
      let next = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = next++; i < 400; i = next++) expect((await client.getTarget(t.id)).id).toBe(t.id);
        }),
      );
      // the quota allows 400 reads in just over 3 s: pacing waits for the windows instead of collecting 429s
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
      expect(await refusals(limited.opsUrl)).toBeLessThanOrEqual(16);
    });
  }, 30_000);

  test("getTargets of 2,500 Targets (three pages) under a list quota of 2 per second: complete, no failure", async () => {
    const quota = { action: "list", per: "auth-token", limit: 2, periodMs: 1000 } as const;
    await withProvider({ controller: { emulation: "0.21", rateLimits: [quota] } }, async ({ c: limited, raw: client }) => {
      for (let i = 0; i < 2500; i++) limited.store.createTarget({ scope_id: PROJECT, name: `listed-${i}`, type: "tcp", attributes: { default_port: 22 } });
      const started = Date.now();
      const all = await client.listTargets({ scopeId: PROJECT });
      expect(new Set(all.map((t) => t.id)).size).toBe(2500);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900); // the third page waited for the next window
      expect(await refusals(limited.opsUrl)).toBeLessThanOrEqual(1);
    });
  }, 30_000);
});
