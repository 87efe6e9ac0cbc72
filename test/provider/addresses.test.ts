/**
 * An IPv6 `address` through the real dynamic-provider host, on both sides of Boundary 0.19.3: 0.12
 * takes it only in brackets and stores it as sent, 0.21 refuses the brackets and stores it
 * normalised (`2001:BEEF:4860::8888` → `2001:beef:4860::8888`). The provider sends the spelling the
 * controller takes (one 400 teaches it), keeps the program's spelling in the inputs, and compares
 * addresses in the form Boundary stores them: no change is planned after `up`, after a refresh, or
 * for a Target that already holds the address in another spelling.
 */
import { PROJECT } from "../helpers/controller";
import { useHostedProvider } from "../helpers/dynamic-host";
import { countCalls } from "../helpers/metrics";

const URN = "urn:pulumi:dev::addresses::pulumi-nodejs:dynamic/boundary:Target::db";

/**
 * Each release, with the spellings a program may write and what the release stores for each. The
 * first is sent on a fresh host (its client knows nothing of the controller): in the program's
 * spelling, refused once by 0.12, then in brackets.
 */
describe.each([
  [
    "0.21",
    1,
    [
      ["2001:BEEF:4860::8888", "2001:beef:4860::8888"],
      ["[2001:DB8:0:0:0:0:0:1]", "2001:db8::1"],
    ],
  ],
  [
    "0.12",
    2,
    [
      ["2001:BEEF:4860::8888", "[2001:BEEF:4860::8888]"],
      ["[2001:db8::1]", "[2001:db8::1]"],
    ],
  ],
] as const)("--emulate %s", (mode, firstPosts, spellings) => {
  const h = useHostedProvider(URN, { emulation: mode, rateLimits: "disabled" });
  const NONE = () => h.e.proto.DiffResponse.DiffChanges.DIFF_NONE;
  const check = async (inputs: object, olds: object = {}) => {
    const checked = await h.check(inputs, olds);
    expect(checked.failures).toEqual([]);
    return checked.inputs;
  };

  test.each(spellings)("address %j: up, then preview and refresh plan no change; the program's spelling stays in the inputs", async (address, stored) => {
    const inputs = await check({ scopeId: PROJECT, name: `db-${stored}`, defaultPort: 5432, address });
    expect(inputs.address).toBe(address);
    const { result: created, calls } = await countCalls(h.c.opsUrl, () => h.e.create(inputs));
    if (address === spellings[0][0]) expect(calls["POST /v1/targets"]).toBe(firstPosts);
    expect(created.props.address).toBe(stored);

    const { result: diff, calls: diffCalls } = await countCalls(h.c.opsUrl, () => h.e.diff(created.id, created.props, inputs));
    expect(diff.changes).toBe(NONE());
    expect(diffCalls).toEqual({});
    const refreshed = await h.e.read(created.id, created.props);
    expect(refreshed.props.address).toBe(stored);
    expect((await h.e.diff(created.id, refreshed.props, inputs)).changes).toBe(NONE());
  });

  test.each(spellings)("address %j, already stored as %j: the Target imports and diffs clean", async (address, stored) => {
    const body = { scope_id: PROJECT, name: `made-${stored}`, type: "tcp", attributes: { default_port: 5432 }, address: stored };
    const made = await h.c.call("POST", "/v1/targets", body);
    expect(made.status).toBe(200);
    // a refresh of state that holds nothing but the provider (the dynamic route imports no other way)
    const imported = await h.e.read(made.body.id, { __provider: h.providerText });
    const inputs = await check({ scopeId: PROJECT, name: body.name, defaultPort: 5432, address });
    expect((await h.e.diff(made.body.id, imported.props, inputs)).changes).toBe(NONE());
  });

  test.each(spellings)("address %j: an update sets it once, then plans no change", async (address, stored) => {
    const first = await check({ scopeId: PROJECT, name: `moving-${stored}`, defaultPort: 22, address: "db.internal" });
    const created = await h.e.create(first);
    const second = await check({ ...first, address }, first);
    expect((await h.e.diff(created.id, created.props, second)).changes).not.toBe(NONE());
    const updated = await h.e.update(created.id, created.props, second);
    expect(updated.address).toBe(stored);
    expect((await h.e.diff(created.id, updated, second)).changes).toBe(NONE());
  });
});
