/**
 * One way to find Targets (`findTargets`), one rule for a Target that disappears meanwhile: listed,
 * then deleted by someone else before its read, it is left out (and named in `gone`), by getTargets
 * with `readLists` and by the importer reading a scope for a program alike. Any other failure of a
 * read fails the lookup. The deletion happens in the real controller, between the list and the read
 * (a proxy in front sees the read arrive and deletes the Target first).
 */
import { BoundaryClient, findTargets } from "../../provider/client";
import { discoverScope } from "../../provider/estate/scope";
import { getTargetsOn } from "../../provider/functions";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy";

let c: TestController;
let proxy: FaultProxy;
let client: BoundaryClient;
let keep: string;
beforeAll(async () => {
  c = await startTestController({ emulation: "0.21", rateLimits: "disabled" });
  proxy = await startFaultProxy(c.apiUrl);
  client = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN });
  keep = (await c.create({ name: "stays" })).id;
});
afterAll(async () => {
  await client.close();
  await proxy.close();
  await c.shutdown();
});

/** A Target deleted by someone else the moment its read arrives. */
async function vanishingOnRead(): Promise<string> {
  const { id } = await c.create({ name: `vanishes-${Date.now()}` });
  proxy.intercept((req) => {
    if (req.method === "GET" && req.url === `/v1/targets/${id}`) c.store.deleteTarget(id);
    return undefined;
  });
  return id;
}

afterEach(() => proxy.intercept(undefined));

test("findTargets: listed, then gone when read, a Target is left out and named; without read, the list is the answer", async () => {
  const id = await vanishingOnRead();
  expect((await findTargets(client, { scopeId: PROJECT })).targets.map((t) => t.id).sort()).toEqual([keep, id].sort());
  const found = await findTargets(client, { scopeId: PROJECT }, { read: true });
  expect(found.targets.map((t) => t.id)).toEqual([keep]);
  expect(found.gone).toEqual([id]);
});

test("getTargets with readLists and the importer reading a scope follow the same rule", async () => {
  const first = await vanishingOnRead();
  expect((await getTargetsOn(client, { scopeId: PROJECT, readLists: true })).map((t) => t.id)).toEqual([keep]);
  const second = await vanishingOnRead();
  const found = await discoverScope({ scopeId: PROJECT, recursive: false, read: true }, { addr: proxy.url, token: ADMIN_TOKEN });
  expect(found.targets.map((t) => t.id)).toEqual([keep]);
  expect(found.targets[0]!.inputs).toMatchObject({ name: "stays" });
  expect([first, second]).not.toContain(keep);
});

test("a read that fails otherwise fails the lookup", async () => {
  proxy.intercept((req) =>
    req.method === "GET" && req.url === `/v1/targets/${keep}` ? { status: 500, body: '{"kind":"Internal","message":"boom"}' } : undefined,
  );
  await expect(findTargets(client, { scopeId: PROJECT }, { read: true })).rejects.toThrow(/500/);
});
