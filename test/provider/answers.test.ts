/**
 * The provider reads each answer as real Boundary means it (issue 27, the answers' bodies). Where
 * `--emulate 0.21` does not answer so itself, a proxy in front of it rewrites the answer as the
 * observed v0.21.3 server's: a PATCH answer carries no `aliases` (only reads load them), a PATCH
 * that changes nothing keeps the version, host sources come back in the order they were added, and
 * authorize-session's static credentials carry `credential_source.type: "static"`, its
 * `credential_type` and a `credential` object beside `secret`.
 */
import { BoundaryClient } from "../../provider/client";
import { sessionView } from "../../provider/functions";
import { ADMIN_TOKEN, PROJECT } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";
import { useProvider } from "../helpers/provider";
import { startRewriteProxy } from "../helpers/rewrite-proxy";

const p = useProvider({ controller: { emulation: "0.21", rateLimits: "disabled" }, proxy: startRewriteProxy });
afterEach(() => p.proxy.rewrite(undefined));

/** Without `key`. */
const without = (o: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

test("aliases stay in state after an update whose answer carries none, as real Boundary's PATCH answer", async () => {
  const res = await p.c.call("POST", "/v1/targets", {
    scope_id: PROJECT,
    name: "aliased",
    type: "tcp",
    attributes: { default_port: 22 },
    with_aliases: [{ value: "aliased.example", scope_id: "global" }],
  });
  const aliases = [{ id: res.body.aliases[0].id, value: "aliased.example" }];
  const imported = (await p.provider.core.read(res.body.id))!;
  expect(imported.state.aliases).toEqual(aliases);
  p.proxy.rewrite((x, answer) => (x.method === "PATCH" && x.status === 200 ? without(answer, "aliases") : undefined));
  const news = { ...imported.inputs, description: "changed" };
  const { outs } = await p.provider.update(res.body.id, imported.state, news);
  expect(p.proxy.rewritten.map((x) => x.method)).toContain("PATCH");
  expect(outs).toMatchObject({ description: "changed", aliases });
  expect((await p.provider.diff(res.body.id, outs, news)).changes).toBe(false);
});

test("a PATCH answer that keeps the version (Boundary's no-op) is the Target's state, not a conflict", async () => {
  const made = await p.provider.create({ scopeId: PROJECT, name: "noop", defaultPort: 22, description: "same" });
  const warnings: string[] = [];
  p.provider.core.warn = (m) => warnings.push(m);
  // what v0.21.3 answers a PATCH that changes nothing: the Target at the version sent
  p.proxy.rewrite((x, answer) => (x.method === "PATCH" && x.status === 200 ? { ...answer, version: x.sent.version } : undefined));
  const news = { scopeId: PROJECT, name: "noop", defaultPort: 22, description: "other" };
  const { result, calls } = await countCalls(p.c.opsUrl, () => p.provider.update(made.id, made.outs, news));
  expect(calls).toEqual({ "PATCH /v1/targets/{id}": 1 });
  expect(result.outs).toMatchObject({ description: "other", version: made.outs.version });
  expect(warnings).toEqual([]);
});

test("host sources in another order than the program's are no change", async () => {
  const made = await p.provider.create({ scopeId: PROJECT, name: "ordered", defaultPort: 22, hostSetIds: ["hsst_1234567891", "hsst_1234567890"] });
  p.proxy.rewrite((x, answer) =>
    x.method === "GET" && Array.isArray(answer.host_source_ids) ? { ...answer, host_source_ids: [...answer.host_source_ids].reverse() } : undefined,
  );
  const read = await p.provider.read(made.id, made.outs);
  expect(p.proxy.rewritten.length).toBeGreaterThan(0);
  for (const order of [
    ["hsst_1234567890", "hsst_1234567891"],
    ["hsst_1234567891", "hsst_1234567890"],
  ]) {
    const news = { scopeId: PROJECT, name: "ordered", defaultPort: 22, hostSetIds: order };
    expect((await p.provider.diff(made.id, read.props, news)).changes).toBe(false);
  }
});

test("authorize-session's static credential decodes: its source's type and credential type, and the credential's fields beside the secret", async () => {
  const t = await p.c.create({ host_set_ids: ["hsst_1234567890"], application_credential_library_ids: ["clvlt_1234567890"], attributes: { default_port: 22 } });
  const fields = { username: "dev", password: "dev-password" };
  const raw = Buffer.from(JSON.stringify(fields)).toString("base64");
  p.proxy.rewrite((x, answer) =>
    x.path.endsWith(":authorize-session") && x.status === 200
      ? {
          ...answer,
          credentials: [
            {
              credential_source: {
                id: "credup_1234567890",
                name: "dev",
                credential_store_id: "csst_1234567890",
                type: "static",
                credential_type: "username_password",
              },
              secret: { raw, decoded: fields },
              credential: fields,
            },
          ],
        }
      : undefined,
  );
  const client = new BoundaryClient({ addr: p.proxy.url, token: ADMIN_TOKEN });
  try {
    const view = sessionView(await client.authorizeSession({ targetId: t.id }));
    expect(view.credentials).toEqual([
      {
        credentialLibrary: { id: "credup_1234567890", name: "dev", credentialStoreId: "csst_1234567890", type: "static", credentialType: "username_password" },
        secret: { raw, decoded: fields },
        credential: fields,
      },
    ]);
  } finally {
    await client.close();
  }
});
