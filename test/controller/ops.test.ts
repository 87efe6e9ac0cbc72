/** The ops listener: /health and /metrics, separate from the API listener. */
import { PROJECT, startTestController, useTestController } from "../helpers/controller";

const c = useTestController();

test("/health is 200 with an empty body and needs no token; it is not on the API listener", async () => {
  const res = await fetch(`${c.opsUrl}/health`);
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("");
  expect((await fetch(`${c.apiUrl}/health`)).status).toBe(404);
});

test("/metrics counts every API request by method, route template and code", async () => {
  const t = await c.create();
  await c.call("POST", `/v1/targets/${t.id}:set-host-sets`, { version: 1, host_set_ids: ["hsst_1234567890"] });
  await c.call("POST", `/v1/targets/${t.id}:set-host-sets`, { version: 1, host_set_ids: ["hsst_1234567891"] });
  await c.call("GET", `/v1/targets?scope_id=${PROJECT}`, undefined, null);
  const text = await (await fetch(`${c.opsUrl}/metrics`)).text();
  expect(text).toContain('boundary_http_requests_total{method="POST",route="/v1/targets/{id}:set-host-sets",code="200"} 1');
  expect(text).toContain('boundary_http_requests_total{method="POST",route="/v1/targets/{id}:set-host-sets",code="409"} 1');
  expect(text).toContain('boundary_http_requests_total{method="POST",route="/v1/targets",code="200"} 1');
  expect(text).toContain('boundary_http_requests_total{method="GET",route="/v1/targets",code="401"} 1');
});

test("/metrics counts a request repeated and requests interleaved alike (the last request's counter is reused)", async () => {
  const d = await startTestController();
  try {
    const t = await d.create();
    const read = (id: string) => d.call("GET", `/v1/targets/${id}`);
    for (const id of [t.id, t.id, t.id]) await read(id);
    await d.call("GET", `/v1/targets?scope_id=${PROJECT}`);
    for (const id of [t.id, t.id, "ttcp_0000000000", t.id]) await read(id);
    await d.call("GET", `/v1/targets/${t.id}`, undefined, null);
    const text = await (await fetch(`${d.opsUrl}/metrics`)).text();
    expect(text).toContain('boundary_http_requests_total{method="GET",route="/v1/targets/{id}",code="200"} 6');
    expect(text).toContain('boundary_http_requests_total{method="GET",route="/v1/targets/{id}",code="404"} 1');
    expect(text).toContain('boundary_http_requests_total{method="GET",route="/v1/targets/{id}",code="401"} 1');
    expect(text).toContain('boundary_http_requests_total{method="GET",route="/v1/targets",code="200"} 1');
  } finally {
    await d.shutdown();
  }
});

test("shutdown flips /health to 503 before the listeners close", async () => {
  const d = await startTestController({ gracefulShutdownWaitMs: 300 });
  const closing = d.shutdown();
  expect((await fetch(`${d.opsUrl}/health`)).status).toBe(503);
  expect((await d.call("GET", `/v1/targets?scope_id=${PROJECT}`)).status).toBe(200);
  await closing;
  await d.shutdown(); // safe to call twice
  await expect(fetch(`${d.opsUrl}/health`)).rejects.toThrow();
});
