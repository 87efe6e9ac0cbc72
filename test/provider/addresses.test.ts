/**
 * An IPv6 `address` through the real dynamic-provider host, on both sides of Boundary 0.19.3: 0.12
 * takes it only in brackets and stores it as sent, 0.21 refuses the brackets and stores it
 * normalised (`2001:BEEF:4860::8888` → `2001:beef:4860::8888`). The provider sends the spelling the
 * controller takes (one 400 teaches it), keeps the program's spelling in the inputs, and compares
 * addresses in the form Boundary stores them: no change is planned after `up`, after a refresh, or
 * for a Target that already holds the address in another spelling.
 */
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { engine, secret, type Engine } from "../../harness/engine";
import { countCalls } from "../helpers/metrics";
import { packedProgram, serializedProvider, startHost, type Host } from "../../harness/provider-host";

const URN = "urn:pulumi:dev::addresses::pulumi-nodejs:dynamic/boundary:Target::db";
let program: string;
let providerText: string;

beforeAll(() => {
  program = packedProgram();
  providerText = serializedProvider(program);
});

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
  let c: TestController;
  let host: Host;
  let e: Engine;
  beforeAll(async () => {
    c = await startTestController({ emulation: mode, rateLimits: "disabled" });
    host = await startHost(program);
    e = engine(host, URN);
    await e.configure({ "boundary:addr": c.apiUrl, "boundary:token": secret(ADMIN_TOKEN) });
  }, 60_000);
  afterAll(async () => {
    await host?.stop();
    await c?.shutdown();
  });
  const NONE = () => e.proto.DiffResponse.DiffChanges.DIFF_NONE;
  const check = async (inputs: object, olds: object = {}) => {
    const checked = await e.check({ ...inputs, __provider: providerText }, olds);
    expect(checked.failures).toEqual([]);
    return checked.inputs;
  };

  test.each(spellings)("address %j: up, then preview and refresh plan no change; the program's spelling stays in the inputs", async (address, stored) => {
    const inputs = await check({ scopeId: PROJECT, name: `db-${stored}`, defaultPort: 5432, address });
    expect(inputs.address).toBe(address);
    const { result: created, calls } = await countCalls(c.opsUrl, () => e.create(inputs));
    if (address === spellings[0][0]) expect(calls["POST /v1/targets"]).toBe(firstPosts);
    expect(created.props.address).toBe(stored);

    const { result: diff, calls: diffCalls } = await countCalls(c.opsUrl, () => e.diff(created.id, created.props, inputs));
    expect(diff.changes).toBe(NONE());
    expect(diffCalls).toEqual({});
    const refreshed = await e.read(created.id, created.props);
    expect(refreshed.props.address).toBe(stored);
    expect((await e.diff(created.id, refreshed.props, inputs)).changes).toBe(NONE());
  });

  test.each(spellings)("address %j, already stored as %j: the Target imports and diffs clean", async (address, stored) => {
    const body = { scope_id: PROJECT, name: `made-${stored}`, type: "tcp", attributes: { default_port: 5432 }, address: stored };
    const made = await c.call("POST", "/v1/targets", body);
    expect(made.status).toBe(200);
    // a refresh of state that holds nothing but the provider (the dynamic route imports no other way)
    const imported = await e.read(made.body.id, { __provider: providerText });
    const inputs = await check({ scopeId: PROJECT, name: body.name, defaultPort: 5432, address });
    expect((await e.diff(made.body.id, imported.props, inputs)).changes).toBe(NONE());
  });

  test.each(spellings)("address %j: an update sets it once, then plans no change", async (address, stored) => {
    const first = await check({ scopeId: PROJECT, name: `moving-${stored}`, defaultPort: 22, address: "db.internal" });
    const created = await e.create(first);
    const second = await check({ ...first, address }, first);
    expect((await e.diff(created.id, created.props, second)).changes).not.toBe(NONE());
    const updated = await e.update(created.id, created.props, second);
    expect(updated.address).toBe(stored);
    expect((await e.diff(created.id, updated, second)).changes).toBe(NONE());
  });
});
