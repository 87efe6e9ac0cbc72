/**
 * The address facts as pure functions (`common/address.ts`): Go's IP parsing and printing, the
 * canonical form the provider compares addresses in, and the spelling the client sends an IPv6
 * address in for the releases a controller may be. The controller's answers per release are
 * test/controller/address.test.ts's; the provider's, through the host, test/provider/addresses.test.ts's.
 */
import { canonicalAddress, formatIP, ipv6Literal, parseIP } from "../../common/address";
import { addressSpellings, takesBrackets } from "../../provider/client/address-spelling";
import { release } from "../../wire/releases";

test.each([
  ["2001:BEEF:4860::8888", "2001:beef:4860::8888"],
  ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
  ["::FFFF:10.1.1.1", "10.1.1.1"],
  ["0:0:1:0:0:1:0:0", "::1:0:0:1:0:0"], // the first of two longest runs of zeros
  ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"], // one zero group is not shortened
  ["::", "::"],
  ["10.0.0.1", "10.0.0.1"],
])("Go prints %j as %j", (ip, printed) => {
  expect(formatIP(parseIP(ip)!)).toBe(printed);
});

test.each(["1.2.3.04", "256.1.1.1", "1::2::3", "2001:BEEF:0:0:1:0:0001", "1:2:3:4:5:6:7:8::", "fe80::1%eth0", "12345::1", "1.2.3.4::"])(
  "Go's ParseIP refuses %j",
  (s) => {
    expect(parseIP(s)).toBeUndefined();
  },
);

test("spellings of one address share one canonical form; a name keeps its case", () => {
  const forms = ["2001:BEEF:4860::8888", " [2001:beef:4860:0:0:0:0:8888] ", "2001:beef:4860::8888"];
  expect(new Set(forms.map(canonicalAddress))).toEqual(new Set(["2001:beef:4860::8888"]));
  expect(canonicalAddress(" DB.Example.COM ")).toBe("DB.Example.COM");
  expect(ipv6Literal("[db.internal]")).toBeUndefined();
});

test("the spelling sent: what every release the controller may be takes, else the program's first", () => {
  const body = { address: "2001:BEEF::1" };
  expect(takesBrackets(undefined, [release("0.12"), release("0.18")])).toBe(true);
  expect(takesBrackets(undefined, [release("0.20"), release("0.21")])).toBe(false);
  expect(takesBrackets(undefined, [release("0.4"), release("0.18"), release("0.21")])).toBeUndefined();
  expect(takesBrackets(false, [release("0.12")])).toBe(false); // a refusal taught it
  expect(addressSpellings(body, () => true)).toEqual(["[2001:BEEF::1]", "2001:BEEF::1"]);
  expect(addressSpellings(body, () => false)).toEqual(["2001:BEEF::1", "[2001:BEEF::1]"]);
  expect(addressSpellings({ address: "[2001:BEEF::1]" }, () => undefined)).toEqual(["[2001:BEEF::1]", "2001:BEEF::1"]);
  expect(addressSpellings({ address: "db.internal" }, () => true)).toBeUndefined();
  expect(addressSpellings({ name: "x" }, () => true)).toBeUndefined();
  // the releases are asked only for an IPv6 address: every call of the client comes through here
  const never = (): boolean => {
    throw new Error("asked without an IPv6 address");
  };
  expect(addressSpellings({ address: "db.internal" }, never)).toBeUndefined();
  expect(addressSpellings(undefined, never)).toBeUndefined();
});
