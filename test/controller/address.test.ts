/**
 * A Target's `address` holding what no URL host may (white space, a control character): refused
 * from Boundary 0.19.3 with its parser's words, taken before it (host and port only split; the
 * spec's controller has no address); the provider refuses it before any call, naming the field.
 */
import { DynamicTargetProvider } from "../../provider/resource/dynamic";
import { ADMIN_TOKEN, PROJECT, startTestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";

const BAD = ["db\tinternal", "db internal", "db\u0000x", "db{1}"];

describe.each([
  ["0.21", { status: 400, description: "Error parsing address: failed to parse address." }],
  ["0.19", { status: 400, description: "Error parsing address: failed to parse address." }],
  ["0.18", { status: 200 }],
] as const)("--emulate %s", (mode, expected) => {
  test.each(BAD)("an address %j", async (address) => {
    const c = await startTestController({ emulation: mode });
    try {
      const body = { scope_id: PROJECT, name: "a", type: "tcp", attributes: { default_port: 22 }, address };
      const res = await c.call("POST", "/v1/targets", body);
      expect(res.status).toBe(expected.status);
      if ("description" in expected) expect(res.body.details.request_fields).toContainEqual({ name: "address", description: expected.description });
    } finally {
      await c.shutdown();
    }
  });
});

test("the provider refuses it before any API call, naming the field and the rule", async () => {
  const c = await startTestController({ emulation: "0.21" });
  const provider = new DynamicTargetProvider({ addr: c.apiUrl, token: ADMIN_TOKEN });
  try {
    const { result, calls } = await countCalls(c.opsUrl, () => provider.check({}, { scopeId: PROJECT, name: "a", defaultPort: 22, address: "db\tinternal" }));
    expect(result.failures).toEqual([
      { property: "address", reason: expect.stringMatching(/^address must be a host name or an IP address: no white space, control characters/) },
    ]);
    expect(calls).toEqual({});
  } finally {
    await provider.core.client.close();
    await c.shutdown();
  }
});
