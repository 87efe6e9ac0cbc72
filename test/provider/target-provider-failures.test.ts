/**
 * The dynamic provider in process when a call fails, against the real controller (behind a fault
 * proxy where the failure is the network's or real Boundary's): a failure after create or in the
 * middle of an update leaves no orphan and records what the controller holds; a 429 is retried; a
 * create whose answer is lost adopts the Target it made, or says how to; a stale version answered
 * as a plain 500 is a conflict only when the version moved.
 */
import { CreateOutcomeUnknownError, ResourceInitError } from "../../provider/errors";
import type { TargetState } from "../../provider/resource/state";
import { PROJECT } from "../helpers/controller";
import { startFaultProxy } from "../helpers/fault-proxy";
import { withProvider } from "../helpers/provider";

const PROVIDER_TEXT = "exports.handler = () => ({});"; // stands for the serialized provider

describe("a failure after create leaves no orphan", () => {
  test("the Target is recorded as a partial failure; a later up finishes it and destroy removes it", async () => {
    await withProvider({ controller: { ignoreCreateAssociations: true } }, async ({ provider, raw }) => {
      // the POST succeeds (v0.4 ignores the lists), then :set-host-sets fails on an unknown host set
      const inputs = { scopeId: PROJECT, name: "half-made", hostSetIds: ["hsst_zzzzzzzzzz"], __provider: PROVIDER_TEXT };
      let err: ResourceInitError | undefined;
      try {
        await provider.create(inputs);
      } catch (e) {
        if (e instanceof ResourceInitError) err = e;
      }
      expect(err).toBeInstanceOf(ResourceInitError);
      if (!err) return;
      const [target] = await raw.listTargets({ scopeId: PROJECT, filter: '"/item/name" == "half-made"' });
      expect(err.id).toBe(target!.id);
      expect(err.properties).toMatchObject({
        name: "half-made",
        hostSetIds: [],
        version: 1,
        __provider: PROVIDER_TEXT,
        __managed: ["scopeId", "name", "hostSetIds"],
      });
      expect(Object.values(err.properties).includes(undefined)).toBe(false);
      expect(err.reasons).toEqual([
        `target ${target!.id} was created, but setting host sets failed: POST /v1/targets/${target!.id}:set-host-sets: 400 InvalidArgument: Error in ` +
          `provided request. (host_set_ids: Host set hsst_zzzzzzzzzz was not found.). It is recorded in the stack; the next \`pulumi up\` finishes it, ` +
          `\`pulumi destroy\` removes it.`,
      ]);

      // the next `pulumi up`, with the program fixed: diff against the recorded state, then update
      const fixed = { ...inputs, hostSetIds: ["hsst_1234567890"] };
      expect((await provider.diff(err.id, err.properties, fixed)).changes).toBe(true);
      const updated = await provider.update(err.id, err.properties, fixed);
      expect(updated.outs).toMatchObject({ hostSetIds: ["hsst_1234567890"], version: 2 });

      // and `pulumi destroy` of a recorded one
      await provider.delete(err.id);
      expect(await raw.listTargets({ scopeId: PROJECT })).toEqual([]);
    });
  });

  test("a failure in the middle of an update records what the controller now holds", async () => {
    await withProvider({}, async ({ provider }) => {
      const created = await provider.create({ scopeId: PROJECT, name: "mid-update" });
      const news = { scopeId: PROJECT, name: "mid-update", description: "applied", hostSetIds: ["hsst_zzzzzzzzzz"], __provider: PROVIDER_TEXT };
      const err: unknown = await provider.update(created.id, created.outs as TargetState, news).catch((e: unknown) => e);
      if (!(err instanceof ResourceInitError)) throw new Error(`expected a partial failure, got ${String(err)}`);
      expect(err.properties).toMatchObject({ description: "applied", hostSetIds: [], version: 2, __provider: PROVIDER_TEXT });
      expect(err.reasons[0]).toMatch(/^updating target ttcp_\w+: setting host sets failed: /);
    });
  });
});

test("429 with Retry-After during create: retried, exactly one target", async () => {
  await withProvider({ proxy: startFaultProxy }, async ({ c, proxy, provider }) => {
    let limited = 0;
    proxy.intercept((req) => (req.method === "POST" && limited++ === 0 ? { status: 429, headers: { "retry-after": "1" } } : undefined));
    const created = await provider.create({ scopeId: PROJECT, name: "rate-limited", hostSetIds: ["hsst_1234567890"] });
    expect(created.outs.hostSetIds).toEqual(["hsst_1234567890"]);
    expect(c.store.size).toBe(1);
    expect(limited).toBe(2);
  });
});

describe("a create whose answer is lost", () => {
  test("the Target the controller made is found by its name and recorded, not orphaned", async () => {
    await withProvider({ proxy: startFaultProxy }, async ({ c, proxy, provider }) => {
      proxy.intercept((req) => (req.method === "POST" && req.url === "/v1/targets" ? { status: 0, dropAnswer: true } : undefined));
      const warn = jest.fn();
      provider.core.warn = warn;
      const created = await provider.create({ scopeId: PROJECT, name: "answer-lost", hostSetIds: ["hsst_1234567890"] });
      expect(c.store.size).toBe(1);
      expect(created.id).toBe(c.store.listTargets(PROJECT, false)[0]!.id);
      expect(created.outs).toMatchObject({ name: "answer-lost", hostSetIds: ["hsst_1234567890"] });
      expect(warn.mock.calls[0][0]).toMatch(
        new RegExp(`^creating target "answer-lost": POST /v1/targets: .*; it was created as ${created.id} and is recorded in the stack.$`),
      );
    });
  });

  test("when the controller made nothing, the error stands and nothing is adopted", async () => {
    await withProvider({ proxy: startFaultProxy, client: { timeoutMs: 200, maxRetries: 0 } }, async ({ c, proxy, provider }) => {
      c.store.createTarget({ scope_id: PROJECT, name: "other-project-target", type: "tcp" });
      proxy.intercept((req) => (req.method === "POST" ? { status: 0, hang: true } : undefined));
      await expect(provider.create({ scopeId: PROJECT, name: "never-made" })).rejects.toThrow("POST /v1/targets: no answer within 200 ms");
      expect(c.store.size).toBe(1);
    });
  });
});

describe("a create whose answer is lost while the controller stays away", () => {
  test("the provider keeps looking, and adopts the Target once the controller answers again", async () => {
    await withProvider({ proxy: startFaultProxy, client: { timeoutMs: 5000, maxRetries: 0 } }, async ({ c, proxy, provider }) => {
      let lookups = 0;
      // the POST is processed but its answer lost; then the first two lookups find no controller
      proxy.intercept((req) =>
        req.method === "POST" ? { status: 0, dropAnswer: true } : req.method === "GET" && ++lookups <= 2 ? { status: 0, reset: true } : undefined,
      );
      provider.core.warn = jest.fn();
      const created = await provider.create({ scopeId: PROJECT, name: "came-back" });
      expect(lookups).toBe(3);
      expect(created.id).toBe(c.store.listTargets(PROJECT, false)[0]!.id);
    });
  });

  test("when it never answers within the client timeout, the error names the Target and says how to adopt it", async () => {
    await withProvider({ proxy: startFaultProxy, client: { timeoutMs: 1000, maxRetries: 0 } }, async ({ c, proxy, provider }) => {
      proxy.intercept((req) => (req.method === "POST" ? { status: 0, dropAnswer: true } : { status: 0, reset: true }));
      const started = Date.now();
      const err = await provider.create({ scopeId: PROJECT, name: "maybe-made" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CreateOutcomeUnknownError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect((err as Error).message).toMatch(
        new RegExp(
          '^creating target "maybe-made" in p_1234567890: the answer was lost \\(POST /v1/targets: .*\\), ' +
            "and the controller could not be asked afterwards whether it was created",
        ),
      );
      expect((err as Error).message).toContain("pulumi import boundary:index:Target <resource name> <its id>");
      expect(c.store.size).toBe(1); // it was made: exactly what the message warns about
    });
  });
});

describe("a stale version answered as current Boundary does on the actions (a plain 500)", () => {
  test("is a conflict once a fresh read shows the version moved: re-read, warn, retry once", async () => {
    await withProvider({ proxy: startFaultProxy, client: { maxRetries: 0 } }, async ({ c, proxy, provider }) => {
      const warn = jest.fn();
      provider.core.warn = warn;
      const created = await provider.create({ scopeId: PROJECT, name: "current-conflict" });
      await c.call("PATCH", `/v1/targets/${created.id}`, { version: 1, description: "changed outside" }); // version 1 → 2
      let sets = 0;
      proxy.intercept((req) =>
        req.url?.endsWith(":set-host-sets") && ++sets === 1
          ? { status: 500, body: JSON.stringify({ kind: "Internal", message: "Failed to set target host sources" }) }
          : undefined,
      );
      const updated = await provider.update(created.id, created.outs as TargetState, {
        scopeId: PROJECT,
        name: "current-conflict",
        hostSetIds: ["hsst_1234567890"],
      });
      expect(updated.outs).toMatchObject({ hostSetIds: ["hsst_1234567890"], description: "changed outside" });
      expect(sets).toBe(2);
      expect(warn.mock.calls[0][0]).toContain("was changed outside Pulumi (version 1 → 2");
    });
  });

  test("a 500 while the version did not move is a real failure, reported as it is", async () => {
    await withProvider({ proxy: startFaultProxy, client: { maxRetries: 0 } }, async ({ proxy, provider }) => {
      const created = await provider.create({ scopeId: PROJECT, name: "real-500" });
      proxy.intercept((req) =>
        req.url?.endsWith(":set-host-sets") ? { status: 500, body: JSON.stringify({ kind: "Internal", message: "database is down" }) } : undefined,
      );
      const err = await provider
        .update(created.id, created.outs as TargetState, { scopeId: PROJECT, name: "real-500", hostSetIds: ["hsst_1234567890"] })
        .catch((e: unknown) => e);
      expect(String(err)).toContain("500 Internal: database is down");
      expect(proxy.seen.filter((r) => r.path.endsWith(":set-host-sets"))).toHaveLength(1);
    });
  });
});
