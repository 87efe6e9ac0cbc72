/**
 * A Target's `address` as each release reads and stores it (common/address.ts has the facts):
 * 0.12.0–0.19.2 split host and port with Go's net.SplitHostPort (an IPv6 address only in brackets)
 * and store what was sent; 0.19.3+ parse it (util.ParseAddress → parseutil.NormalizeAddr), store an
 * IP address in Go's net.IP.String() form and refuse brackets, each problem in Boundary's words on
 * `address`. What no URL host may hold (white space, a control character) is refused from 0.19.3
 * and taken before; the provider refuses it before any call, naming the field.
 */
import { DynamicTargetProvider } from "../../provider/resource/dynamic";
import { knows, release, type ReleaseKey } from "../../wire/releases";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";
import { MATRIX } from "../helpers/releases";

/** An address sent, and what the release answers: the address stored, or the 400's words on `address`. */
type Case = [sent: string, answer: { stored: string } | { refused: string }];

/** Boundary 0.19.3+ (handlers' tests at v0.21.3 and parseutil's NormalizeAddr). */
const PARSED: Case[] = [
  ["2001:BEEF:4860::8888", { stored: "2001:beef:4860::8888" }],
  ["2001:DB8:0:0:0:0:0:1", { stored: "2001:db8::1" }],
  ["::FFFF:10.1.1.1", { stored: "10.1.1.1" }],
  ["2001:BEEF:0:0:0:1:0:0001", { stored: "2001:beef::1:0:1" }],
  ["  DB.Example.COM ", { stored: "DB.Example.COM" }],
  ["2001:BEEF:0:0:1:0:0001", { refused: "Error parsing address: host contains an invalid IPv6 literal." }],
  ["aaa.8bc.8.8:80:abc", { refused: "Error parsing address: failed to parse address." }],
  ["[2001:BEEF:4860::8888]", { refused: "Error parsing address: address cannot be encapsulated by brackets." }],
  ["8.8.8.8:80", { refused: "Address does not support a port." }],
  ["[::1]:22", { refused: "Address does not support a port." }],
];

/** Boundary 0.12.0–0.19.2 (net.SplitHostPort; v0.15.5 answered the first two so). */
const SPLIT: Case[] = [
  ["::1", { refused: "Error parsing address: address ::1: too many colons in address." }],
  ["2001:db8::10", { refused: "Error parsing address: address 2001:db8::10: too many colons in address." }],
  ["[2001:BEEF:4860::8888]", { stored: "[2001:BEEF:4860::8888]" }],
  ["  DB.Example.COM ", { stored: "DB.Example.COM" }],
  ["10.0.0.1", { stored: "10.0.0.1" }],
  ["aaa.8bc.8.8:80:abc", { refused: "Error parsing address: address aaa.8bc.8.8:80:abc: too many colons in address." }],
  ["[::1", { refused: "Error parsing address: address [::1: missing ']' in address." }],
  ["8.8.8.8:80", { refused: "Address does not support a port." }],
];

/** The rows of this run that know addresses, and the rows on each side of 0.19.3's change. */
const ROWS = [...new Set<ReleaseKey>([...MATRIX.filter((k) => knows(release(k), "address")), "0.18", "0.19"])];

describe.each(ROWS)("--emulate %s: an address is read, stored and refused as the release does", (mode) => {
  const cases = release(mode).addressBrackets === "refused" ? PARSED : SPLIT;
  let c: TestController;
  let n = 0;
  beforeAll(async () => void (c = await startTestController({ emulation: mode })));
  afterAll(() => c.shutdown());
  test.each(cases)("%j", async (sent, answer) => {
    const body = { scope_id: PROJECT, name: `a${++n}`, type: "tcp", attributes: { default_port: 22 }, address: sent };
    const created = await c.call("POST", "/v1/targets", body);
    const plain = await c.create({ name: `b${n}` });
    const patched = await c.call("PATCH", `/v1/targets/${plain.id}`, { version: plain.version, address: sent });
    for (const res of [created, patched]) {
      if ("stored" in answer) {
        expect(res.status).toBe(200);
        expect(res.body.address).toBe(answer.stored);
        expect((await c.call("GET", `/v1/targets/${res.body.id}`)).body.address).toBe(answer.stored);
      } else {
        expect(res.status).toBe(400);
        expect(res.body.details.request_fields).toEqual([{ name: "address", description: answer.refused }]);
      }
    }
  });
});

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
