/**
 * An IPv6 address (`http://[::1]:9200`) reaches the controller, and the ops listener's default is
 * the same host on 9203: the URL of an IPv6 host keeps its brackets, and the settings must not
 * bracket it twice (`[[::1]]` was an invalid URL, reported as a bug of the package).
 */
import { BoundaryClient, resolveSettings } from "../../provider/client";
import { ADMIN_TOKEN, PROJECT, useTestController } from "../helpers/controller";

const c = useTestController({ api: { host: "::1", port: 0 }, ops: { host: "::1", port: 0 } });

test("the client lists and reads over IPv6 loopback, and checks /health there", async () => {
  expect(c.apiUrl).toMatch(/^http:\/\/\[::1\]:\d+$/);
  const client = new BoundaryClient({ addr: c.apiUrl, opsAddr: c.opsUrl, token: ADMIN_TOKEN }, {});
  const created = await c.create({ name: "over-v6" });
  const listed = await client.listTargets({ scopeId: PROJECT });
  expect(listed.map((t) => t.id)).toContain(created.id);
  expect(await client.health()).toEqual({ status: 200, healthy: true });
});

test.each([
  ["http://[::1]:9200", "http://[::1]:9203"],
  ["https://[fe80::1]:9200/boundary", "https://[fe80::1]:9203"],
  ["http://127.0.0.1:9200", "http://127.0.0.1:9203"],
])("BOUNDARY_ADDR %s: the ops listener defaults to %s", (addr, ops) => {
  expect(resolveSettings({}, { BOUNDARY_ADDR: addr }).opsOrigin).toBe(ops);
});
