/**
 * The fields later Boundary releases added (`address`, `egressWorkerFilter`, `ingressWorkerFilter`,
 * `defaultClientPort`), through the real dynamic-provider host: applied on a current controller,
 * refused with the field and the way out on a v0.4 one before anything changes (v0.4 would drop
 * them silently), and the legacy `workerFilter` pointed to its replacement on current ones.
 */
import { PROJECT } from "../helpers/controller";
import { providerText, startHostedProvider } from "../helpers/dynamic-host";
import { countCalls } from "../helpers/metrics";
import type { Emulation } from "../../controller";

const URN = "urn:pulumi:dev::newer-fields::pulumi-nodejs:dynamic/boundary:Target::db";
type Hosted = Awaited<ReturnType<typeof startHostedProvider>>;
const running: Promise<Hosted>[] = [];
/**
 * How many tests below take a fresh one of each mode: all are started at once in beforeAll (each a
 * host process loading Pulumi's SDK), all up before the first test, and every one runs to the end
 * of the file as before. A test beyond these counts starts its own.
 */
const TAKEN: Record<string, number> = { "0.21": 7, "0.4": 3, spec: 3 };
const started = new Map<string, Promise<Hosted>[]>();
const startOne = (mode: Emulation) => {
  const hosted = startHostedProvider(URN, { emulation: mode });
  hosted.catch(() => undefined); // a failed start is reported by the test that takes it
  running.push(hosted);
  return hosted;
};
beforeAll(async () => {
  providerText();
  for (const [mode, n] of Object.entries(TAKEN))
    started.set(
      mode,
      Array.from({ length: n }, () => startOne(mode as Emulation)),
    );
  await Promise.all(running.map((r) => r.catch(() => undefined)));
}, 120_000);
afterAll(
  () =>
    Promise.all(
      running.map((r) =>
        r.then(
          (h) => h.stop(),
          () => undefined,
        ),
      ),
    ),
  60_000,
);

/** A controller in `mode` and a fresh host configured for it (so nothing about the generation is known yet). */
function setup(mode: Emulation): Promise<Hosted> {
  return started.get(mode)?.shift() ?? startOne(mode);
}

describe("against Boundary v0.21", () => {
  test("create, refresh, drift and update of the newer fields, with the fewest calls", async () => {
    const { c, e, check } = await setup("0.21");
    const program1 = {
      scopeId: PROJECT,
      name: "db",
      defaultPort: 5432,
      defaultClientPort: 15432,
      address: "db.internal",
      egressWorkerFilter: '"dev" in "/tags/type"',
    };
    const checked = await check(program1);
    expect(checked.failures).toEqual([]);

    // the generation is not known yet: one probe that changes nothing, then one POST
    const { result: created, calls } = await countCalls(c.opsUrl, () => e.create(checked.inputs));
    expect(calls).toEqual({ "POST /v1/targets/{id}:add-host-sources": 1, "POST /v1/targets": 1 });
    expect(created.props).toMatchObject({ address: "db.internal", defaultClientPort: 15432, egressWorkerFilter: '"dev" in "/tags/type"', version: 1 });
    expect(c.store.getTarget(created.id)).toMatchObject({ address: "db.internal", attributes: { default_port: 5432, default_client_port: 15432 } });

    // an unchanged program: no diff after a refresh
    const refreshed = await e.read(created.id, created.props);
    expect(refreshed.inputs).toEqual({ ...program1, __provider: providerText() });
    expect((await e.diff(created.id, refreshed.props, checked.inputs)).changes).toBe(1 /* DIFF_NONE */);

    // drift: someone moves the address outside Pulumi; the refresh shows it, the diff names it
    const outside = await c.call("PATCH", `/v1/targets/${created.id}?update_mask=address`, { version: 1, address: "db2.internal" });
    expect(outside.status).toBe(200);
    const drifted = await e.read(created.id, refreshed.props);
    expect(drifted.props).toMatchObject({ address: "db2.internal", version: 2 });
    expect(await e.diff(created.id, drifted.props, checked.inputs)).toMatchObject({ changes: 2 /* SOME */ });

    // update puts it back, with one egress filter change, in one PATCH
    const program2 = { ...program1, egressWorkerFilter: '"prod" in "/tags/type"' };
    const checked2 = await check(program2, checked.inputs);
    const { result: updated, calls: updateCalls } = await countCalls(c.opsUrl, () => e.update(created.id, drifted.props, checked2.inputs));
    expect(updateCalls).toEqual({ "PATCH /v1/targets/{id}": 1 });
    expect(updated).toMatchObject({ address: "db.internal", egressWorkerFilter: '"prod" in "/tags/type"', version: 3 });

    // removing address from the program clears it on the controller
    const { address: _removed, ...program3 } = program2;
    const checked3 = await check(program3, checked2.inputs);
    const cleared = await e.update(created.id, updated, checked3.inputs);
    expect(cleared).not.toHaveProperty("address");
    expect(c.store.getTarget(created.id).address).toBeUndefined();
  });

  test("plugin host sets and static credentials as hostSetIds and applicationCredentialLibraryIds", async () => {
    const { c, e, check } = await setup("0.21");
    const checked = await check({
      scopeId: PROJECT,
      name: "kinds",
      defaultPort: 22,
      hostSetIds: ["hsplg_1234567890"],
      applicationCredentialLibraryIds: ["credup_1234567890", "clvlt_1234567890"],
    });
    expect(checked.failures).toEqual([]);
    const created = await e.create(checked.inputs);
    expect(created.props).toMatchObject({ hostSetIds: ["hsplg_1234567890"], applicationCredentialLibraryIds: ["clvlt_1234567890", "credup_1234567890"] });
    expect(c.store.getTarget(created.id)).toMatchObject({
      host_set_ids: ["hsplg_1234567890"],
      application_credential_library_ids: ["clvlt_1234567890", "credup_1234567890"],
    });
  });

  // The one-call trap (a current :set-credential-sources replaces both lists, so the injected list
  // travels with the brokered one) is pinned without HTTP in wire-calls.test.ts and plan.test.ts: an
  // open-source controller, as this one is, takes injected sources on no tcp Target.
  test("injected credential sources on a tcp Target: the open-source controller's refusal is named, the Target recorded with its lists as held", async () => {
    const { c, e, check } = await setup("0.21");
    const checked = await check({
      scopeId: PROJECT,
      name: "inject",
      defaultPort: 22,
      applicationCredentialLibraryIds: ["clvlt_1234567890"],
      injectedApplicationCredentialSourceIds: ["credup_1234567890"],
    });
    expect(checked.failures).toEqual([]); // which edition answers is not known at check
    const err = await e.create(checked.inputs).then(
      () => undefined,
      (x: unknown) => x,
    );
    if (!err) throw new Error("expected the create to fail");
    const { id, properties, reasons } = e.initFailure(err);
    expect(reasons.join("\n")).toContain('tcp.Target only supports credential purpose: "brokered"');
    // no orphan: the Target the POST made is in the state, as the controller holds it (no list applied)
    expect(c.store.getTarget(id)).toMatchObject({ name: "inject", injected_application_credential_source_ids: [] });
    expect(properties).toMatchObject({ name: "inject", injectedApplicationCredentialSourceIds: [], version: c.store.getTarget(id).version });
    await e.delete(id, properties);
    expect(c.store.size).toBe(0);
  });

  test("a new workerFilter: the controller's own 400 while the release is not known (the probe tells only 0.5+, and 0.5–0.11 take one); refused before any call once an answer said 0.12+", async () => {
    const { c, e, check } = await setup("0.21");
    const legacy = { scopeId: PROJECT, name: "legacy", defaultPort: 22, workerFilter: '"dev" in "/tags/type"' };
    const checked = await check(legacy);
    expect(checked.failures).toEqual([]); // the release is not known at check
    const { result, calls } = await countCalls(c.opsUrl, () =>
      e.create(checked.inputs).then(
        () => undefined,
        (err: Error) => err,
      ),
    );
    expect(String(result)).toContain("worker_filter: This field is deprecated. Use egress_worker_filter instead.");
    expect(calls).toEqual({ "POST /v1/targets/{id}:add-host-sources": 1, "POST /v1/targets": 1 }); // the probe, then the POST the controller refused
    expect(c.store.size).toBe(0);
    await e.create((await check({ scopeId: PROJECT, name: "teaches", defaultPort: 22 })).inputs); // its answer carries "address": 0.12 or later
    const again = await check({ ...legacy, name: "legacy-again" });
    expect(again.failures).toEqual([]); // whether a Target already holds one is not known at check
    const known = await countCalls(c.opsUrl, () =>
      e.create(again.inputs).then(
        () => undefined,
        (err: Error) => err,
      ),
    );
    expect(String(known.result)).toMatch(
      /workerFilter was replaced by egressWorkerFilter in Boundary 0\.12, and this controller \(Boundary 0\.12 or later\) refuses a new workerFilter: use egressWorkerFilter instead/,
    );
    expect(known.calls).toEqual({});
  });

  test("once the generation is known, a create without defaultPort is refused before the POST; type ssh reaches the controller, which names it", async () => {
    const { c, e, check } = await setup("0.21");
    const first = await check({ scopeId: PROJECT, name: "first", defaultPort: 22 });
    const made = await e.create(first.inputs); // the answer says "current"
    // a program that stops setting defaultPort would clear it: refused before the PATCH Boundary would refuse
    const { defaultPort: _port, ...portless0 } = first.inputs as Record<string, unknown>;
    const removing = await countCalls(c.opsUrl, () =>
      e.update(made.id, made.props, portless0).then(
        () => undefined,
        (err: Error) => err,
      ),
    );
    expect(String(removing.result)).toMatch(
      /defaultPort is required by Boundary 0\.9 and later, which this controller is \(Boundary 0\.12 or later\): keep it/,
    );
    expect(removing.calls).toEqual({});
    const portless = await check({ scopeId: PROJECT, name: "portless" });
    const { result, calls } = await countCalls(c.opsUrl, () =>
      e.create(portless.inputs).then(
        () => undefined,
        (err: Error) => err,
      ),
    );
    expect(String(result)).toMatch(/defaultPort is required by Boundary 0\.9 and later, which this controller is \(Boundary 0\.12 or later\): set it/);
    expect(calls).toEqual({});
    const ssh = await check({ scopeId: PROJECT, name: "ssh", type: "ssh", defaultPort: 22 });
    expect(ssh.failures).toEqual([]);
    await expect(e.create(ssh.inputs)).rejects.toThrow("type: Unknown type provided.");
    expect(c.store.size).toBe(1);
  });

  test("address and hostSetIds together fail at check, naming both", async () => {
    const { check } = await setup("0.21");
    const checked = await check({ scopeId: PROJECT, name: "both", defaultPort: 22, address: "10.0.0.1", hostSetIds: ["hsst_1234567890"] });
    expect(checked.failures).toEqual([{ property: "address", reason: expect.stringMatching(/^address and hostSetIds exclude each other: /) }]);
  });

  test("ingressWorkerFilter reaches the controller, whose open-source answer is named", async () => {
    const { c, e, check } = await setup("0.21");
    const checked = await check({ scopeId: PROJECT, name: "ingress", defaultPort: 22, ingressWorkerFilter: '"edge" in "/tags/type"' });
    await expect(e.create(checked.inputs)).rejects.toThrow("ingress_worker_filter: Ingress Worker Filter field is not supported in OSS");
    expect(c.store.size).toBe(0);
  });
});

describe.each(["0.4", "spec"] as const)("against a v0.4 controller (%s)", (mode) => {
  test("a newer field is refused before anything changes, naming the release that added it; once known, at check", async () => {
    const { c, e, check } = await setup(mode);
    const inputs = {
      scopeId: PROJECT,
      name: "db",
      type: "rdp",
      address: "db.internal",
      defaultClientPort: 15432,
      injectedApplicationCredentialSourceIds: ["clvlt_1234567890"],
    };
    const checked = await check(inputs);
    expect(checked.failures).toEqual([]); // the generation is not known yet
    const { result, calls } = await countCalls(c.opsUrl, () =>
      e.create(checked.inputs).then(
        () => undefined,
        (err: Error) => err,
      ),
    );
    expect(String(result)).toMatch(
      /address needs Boundary 0\.12 or later, but this controller is Boundary v0\.4 \(the v0\.4 API\), which would silently drop it: remove address or upgrade the controller/,
    );
    expect(String(result)).toMatch(/defaultClientPort needs Boundary 0\.13 or later/);
    expect(String(result)).toMatch(/type "rdp" needs Boundary 0\.20 or later, but this controller is Boundary v0\.4 \(the v0\.4 API\): use "tcp"/);
    expect(calls).toEqual({ "POST unmatched": 1 }); // the probe, a 405 (no such action on v0.4): nothing created
    expect(c.store.size).toBe(0);

    // the host now knows the generation: the next preview fails at check
    const again = await check(inputs);
    expect(again.failures.map((f) => f.property)).toEqual(["type", "injectedApplicationCredentialSourceIds", "address", "defaultClientPort"]);
  });

  test("a plugin host set or a static credential is refused before anything changes, naming the kinds v0.4 takes", async () => {
    const { c, e, check } = await setup(mode);
    const checked = await check({
      scopeId: PROJECT,
      name: "kinds",
      hostSetIds: ["hsst_1234567890", "hsplg_1234567890"],
      applicationCredentialLibraryIds: ["credup_1234567890"],
    });
    expect(checked.failures).toEqual([]);
    const err = await e.create(checked.inputs).then(
      () => undefined,
      (x: Error) => x,
    );
    expect(String(err)).toMatch(
      /hostSetIds: hsplg_1234567890 is a kind of source this controller \(Boundary v0\.4 \(the v0\.4 API\)\) does not take: it takes hsst_…/,
    );
    expect(String(err)).toMatch(/applicationCredentialLibraryIds: credup_1234567890 is a kind of source/);
    expect(c.store.size).toBe(0);
  });

  test("a program without newer fields makes no probe", async () => {
    const { c, e, check } = await setup(mode);
    const checked = await check({ scopeId: PROJECT, name: "plain", defaultPort: 22 });
    const { calls } = await countCalls(c.opsUrl, () => e.create(checked.inputs));
    expect(calls).toEqual({ "POST /v1/targets": 1 });
  });
});
