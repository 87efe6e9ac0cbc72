/**
 * A list action's 200 is not taken as done: the provider compares the answer's lists with what it
 * sent. Real v0.4.0 answers `:set-credential-libraries` naming a library it does not know 200 and
 * attaches nothing; here a proxy in front of the real controller drops the id from the request, so
 * the controller really attaches nothing and answers with what it holds. On both routes (the
 * dynamic host and the plugin, over gRPC) the `up` fails naming the id, the Target is recorded as a
 * partial failure holding its real lists, and the next `up` fails again: never a success.
 */
import { BoundaryClient, ListNotAppliedError } from "../../provider/client";
import { engine, secret, type Engine } from "../../harness/engine";
import { packedProgram, serializedProvider, startHost, startPlugin, type Host } from "../../harness/provider-host";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { startRewriteProxy, type RewriteProxy } from "../helpers/rewrite-proxy";

const LIBRARY = "clvlt_1234567890";
let program: string;
beforeAll(() => void (program = packedProgram()));

/** Requests of `action` lose `id` from their list `field` on the way to the controller. */
function dropping(proxy: RewriteProxy, action: string, field: string, id: string): void {
  proxy.rewriteRequest((method, path, body) =>
    method === "POST" && path.endsWith(`:${action}`) && Array.isArray(body[field])
      ? { ...body, [field]: body[field].filter((x: string) => x !== id) }
      : undefined,
  );
}

/** The error a call failed with (the test fails if it succeeded). */
async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error("expected a failure");
    },
    (err: unknown) => err,
  );
}

describe.each([
  ["the dynamic host", "dynamic"],
  ["the plugin", "plugin"],
] as const)("through %s, against --emulate 0.4", (_, route) => {
  let c: TestController;
  let proxy: RewriteProxy;
  let host: Host;
  let e: Engine;
  let extra: Record<string, unknown>;
  beforeAll(async () => {
    c = await startTestController({ emulation: "0.4" });
    proxy = await startRewriteProxy(c.apiUrl);
    if (route === "dynamic") {
      host = await startHost(program);
      e = engine(host, "urn:pulumi:dev::lists::pulumi-nodejs:dynamic/boundary:Target::db");
      await e.configure({ "boundary:addr": proxy.url, "boundary:token": secret(ADMIN_TOKEN) });
      extra = { __provider: serializedProvider(program) };
    } else {
      host = await startPlugin(program);
      e = engine(host, "urn:pulumi:dev::lists::boundary:index:Target::db");
      await e.configure({ addr: proxy.url, token: secret(ADMIN_TOKEN) }, { "boundary:config:addr": proxy.url });
      extra = {};
    }
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    await proxy?.close();
    await c?.shutdown();
  });

  test("an up with a credential library the controller drops fails naming it, records the Target as it is, and fails again", async () => {
    dropping(proxy, "set-credential-libraries", "application_credential_library_ids", LIBRARY);
    const news = { scopeId: PROJECT, name: `db-${route}`, applicationCredentialLibraryIds: [LIBRARY], ...extra };
    const inputs = (await e.check(news, {})).inputs;
    const err = await failure(e.create(inputs));
    const { id, properties, reasons } = e.initFailure(err);
    expect(id).toMatch(/^ttcp_/);
    expect(reasons.join(" ")).toContain(`application_credential_library_ids: the controller did not attach ${LIBRARY}`);
    // what the controller holds: no library, as a GET shows
    expect(properties.applicationCredentialLibraryIds).toEqual([]);
    expect((await c.call("GET", `/v1/targets/${id}`)).body.application_credential_library_ids ?? []).toEqual([]);

    // the next up plans the change again and fails again, naming it
    const again = e.initFailure(await failure(e.update(id, properties, inputs)));
    expect(again.reasons.join(" ")).toContain(`did not attach ${LIBRARY}`);
    expect(again.properties.applicationCredentialLibraryIds).toEqual([]);

    // once the controller takes it, the same program succeeds
    proxy.rewriteRequest(undefined);
    const done = await e.update(id, again.properties, inputs);
    expect(done.applicationCredentialLibraryIds).toEqual([LIBRARY]);
  });

  test("an up naming a credential library the controller does not know fails naming it, however the release answers", async () => {
    proxy.rewriteRequest(undefined);
    // v0.4.0 answers 200 and attaches nothing; a controller that refuses it names it in its 400: either way the id is named
    const news = { scopeId: PROJECT, name: `unknown-${route}`, applicationCredentialLibraryIds: ["clvlt_0000000000"], ...extra };
    const { id, reasons } = e.initFailure(await failure(e.create((await e.check(news, {})).inputs)));
    expect(id).toMatch(/^ttcp_/);
    expect(reasons.join(" ")).toContain("clvlt_0000000000");
  });
});

describe("against --emulate 0.21", () => {
  let c: TestController;
  let proxy: RewriteProxy;
  let client: BoundaryClient;
  beforeAll(async () => {
    c = await startTestController({ emulation: "0.21", rateLimits: "disabled" });
    proxy = await startRewriteProxy(c.apiUrl);
    client = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await c?.shutdown();
  });
  afterEach(() => {
    proxy.rewrite(undefined);
    proxy.rewriteRequest(undefined);
  });

  test("an add whose answer lacks an id, and a remove whose answer still holds one, fail naming the ids and carry the answer", async () => {
    const t = await c.create({ host_set_ids: [] });
    dropping(proxy, "add-host-sources", "host_source_ids", "hsst_1234567891");
    const added = await failure(client.addHostSources(t.id, t.version, ["hsst_1234567890", "hsst_1234567891"]));
    expect(added).toBeInstanceOf(ListNotAppliedError);
    expect((added as Error).message).toMatch(
      /^POST \/v1\/targets\/ttcp_\w+:add-host-sources answered success, but host_set_ids: the controller did not attach hsst_1234567891\./,
    );
    expect((added as ListNotAppliedError).target.host_source_ids).toEqual(["hsst_1234567890"]);

    proxy.rewriteRequest(undefined);
    const now = (await c.call("GET", `/v1/targets/${t.id}`)).body;
    proxy.rewrite((x, answer) =>
      x.path.endsWith(":remove-host-sources") && x.status === 200 ? { ...answer, host_source_ids: ["hsst_1234567890"] } : undefined,
    );
    const removed = await failure(client.removeHostSources(t.id, now.version, ["hsst_1234567890"]));
    expect((removed as Error).message).toContain("host_set_ids: the controller did not detach hsst_1234567890");
  });

  test("an update's set that the controller answers without an id fails naming it, recording the lists it holds", async () => {
    const { DynamicTargetProvider } = await import("../../provider/resource/dynamic");
    const provider = new DynamicTargetProvider({ addr: proxy.url, token: ADMIN_TOKEN });
    try {
      const made = await provider.create({ scopeId: PROJECT, name: "web", defaultPort: 22, hostSetIds: ["hsst_1234567890"] });
      dropping(proxy, "set-host-sources", "host_source_ids", "hsst_1234567891");
      const news = { scopeId: PROJECT, name: "web", defaultPort: 22, hostSetIds: ["hsst_1234567890", "hsst_1234567891"] };
      const err = (await failure(provider.update(made.id, made.outs, news))) as { id: string; properties: Record<string, unknown>; reasons: string[] };
      expect(err.reasons.join(" ")).toContain("host_set_ids: the controller did not attach hsst_1234567891");
      expect(err.properties.hostSetIds).toEqual(["hsst_1234567890"]);
    } finally {
      await provider.core.client.close();
    }
  });
});
