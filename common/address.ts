/**
 * A Target's `address` as Boundary reads it, shared by the controller (its rule and what it stores)
 * and the provider (its check, and comparing the program's spelling with the stored one). Facts,
 * read at the tags (no code carried over):
 *
 * - 0.12.0–0.19.2 (handlers/targets validate*Request): the raw value's length (3–255), then Go's
 *   `net.SplitHostPort`: no error is "Address does not support a port."; "missing port in address"
 *   is fine (a host name, an IPv4 or a bracketed IPv6 address); any other error is "Error parsing
 *   address: <error>." (`::1` → "address ::1: too many colons in address"). Stored trimmed, as given.
 * - 0.19.3 and later (internal/util/net.go `ParseAddress`): trimmed, 3–255, no port (util's
 *   SplitHostPort), then go-secure-stdlib parseutil v0.2.0 `NormalizeAddr`: an IP literal becomes
 *   Go's `net.IP.String()` (RFC 5952, lower case; `::ffff:10.1.1.1` → `10.1.1.1`), brackets are
 *   refused, a host is read as a URL's (`url.Parse("default://" + address)`); the repository stores
 *   the normalised form (internal/target/repository.go). A DNS name keeps its case.
 */

/** Go's `net.ParseIP`: 16 bytes (an IPv4 address as `::ffff:a.b.c.d`), or undefined; no zone, no leading zeros in IPv4 octets. */
export function parseIP(s: string): Uint8Array | undefined {
  const v4 = parseIPv4(s);
  if (v4) return Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4);
  return s.includes(":") ? parseIPv6(s) : undefined;
}

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255) return undefined;
    out.push(Number(p));
  }
  return out;
}

function parseIPv6(s: string): Uint8Array | undefined {
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string, last: boolean): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    const fields = part.split(":");
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      // an IPv4 address may end the literal, in place of the last two groups
      if (last && i === fields.length - 1 && f.includes(".")) {
        const v4 = parseIPv4(f);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(f)) out.push(parseInt(f, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groups(halves[1]!, true) : [];
  if (!head || !tail) return undefined;
  const n = head.length + tail.length;
  // without `::` all eight groups are written; with it, it stands for at least one
  if (halves.length === 1 ? n !== 8 : n > 7) return undefined;
  const all = [...head, ...new Array<number>(8 - n).fill(0), ...tail];
  return Uint8Array.from(all.flatMap((g) => [g >> 8, g & 0xff]));
}

/** Go's `net.IP.String()` of 16 bytes: dotted for an IPv4(-mapped) address, else RFC 5952 (lower case, the longest run of zeros as `::`). */
export function formatIP(ip: Uint8Array): string {
  if (ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff) return [...ip.slice(12)].join(".");
  const g = Array.from({ length: 8 }, (_, i) => (ip[2 * i]! << 8) | ip[2 * i + 1]!);
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > best.len && j - i >= 2) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(":");
  return best.at < 0 ? hex(g) : `${hex(g.slice(0, best.at))}::${hex(g.slice(best.at + best.len))}`;
}

/** Go's `net.SplitHostPort`: host and port, or its error's text (`address ::1: too many colons in address`). */
export function splitHostPort(hostport: string): { host: string; port: string } | { error: string; missingPort: boolean } {
  const fail = (why: string) => ({ error: `address ${hostport}: ${why}`, missingPort: why === MISSING_PORT });
  const i = hostport.lastIndexOf(":");
  if (i < 0) return fail(MISSING_PORT);
  let host: string;
  let j = 0;
  let k = 0;
  if (hostport.startsWith("[")) {
    const end = hostport.indexOf("]");
    if (end < 0) return fail("missing ']' in address");
    if (end + 1 === hostport.length) return fail(MISSING_PORT);
    if (end + 1 !== i) return fail(hostport[end + 1] === ":" ? TOO_MANY_COLONS : MISSING_PORT);
    host = hostport.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = hostport.slice(0, i);
    if (host.includes(":")) return fail(TOO_MANY_COLONS);
  }
  if (hostport.slice(j).includes("[")) return fail("unexpected '[' in address");
  if (hostport.slice(k).includes("]")) return fail("unexpected ']' in address");
  return { host, port: hostport.slice(i + 1) };
}
const MISSING_PORT = "missing port in address";
const TOO_MANY_COLONS = "too many colons in address";

/** What is wrong with an address, as Boundary sorts it: its length, a port, or a parse error (`why`: Go's words). */
export type AddressProblem = { kind: "length" } | { kind: "port" } | { kind: "brackets" | "unparsable"; why: string };

/** ParseAddress's lengths (util.MinAddressLength, MaxAddressLength). */
export const ADDRESS_LENGTH = { min: 3, max: 255 } as const;

/** Go's `strings.TrimSpace` (ASCII white space and Unicode's). */
function trim(s: string): string {
  return s.replace(/^[\s\u0085]+|[\s\u0085]+$/g, "");
}

/**
 * Boundary 0.19.3+'s `util.ParseAddress`: the address as stored (normalised), or its problem.
 * URL paths, queries and user info, which NormalizeAddr passes through, are kept as written.
 */
export function parseAddress(address: string): { value: string } | { problem: AddressProblem } {
  const a = trim(address);
  if (a.length < ADDRESS_LENGTH.min || a.length > ADDRESS_LENGTH.max) return { problem: { kind: "length" } };
  // util.SplitHostPort: a bare IP literal has no port; otherwise what net.SplitHostPort finds after the last colon
  const split = parseIP(a) ? undefined : splitHostPort(a);
  if (split && "port" in split && split.port !== "") return { problem: { kind: "port" } };
  const normal = normalizeAddr(a);
  if ("value" in normal) return normal;
  return { problem: { kind: normal.why === BRACKETS ? "brackets" : "unparsable", why: normal.why } };
}
const BRACKETS = "address cannot be encapsulated by brackets";

/** parseutil.NormalizeAddr (v0.2.0) on a trimmed address of a valid length: the normalised address, or Go's error text. */
function normalizeAddr(a: string): { value: string } | { why: string } {
  if (a.startsWith("[") && a.endsWith("]")) return { why: BRACKETS };
  const ip = parseIP(a);
  if (ip) return { value: formatIP(ip) };
  const idx = a.search(/[:/?#[\]@]/);
  // no scheme: read as "default://" + address; else as a URL of its own (what has a scheme of one letter or none fails)
  if (idx < 0 || a[idx] !== ":" || (idx > 1 && !a.slice(idx).startsWith("://"))) return urlHost(a);
  if (a.slice(idx).startsWith("://") && /^[A-Za-z][A-Za-z0-9+.-]*$/.test(a.slice(0, idx))) {
    const rest = urlHost(a.slice(idx + 3));
    return "value" in rest ? { value: `${a.slice(0, idx).toLowerCase()}://${rest.value}` } : rest;
  }
  // "x:…" is a scheme and an opaque part (no host); anything else has no scheme
  return { why: /^[A-Za-z]:/.test(a) ? "empty hostname" : FAILED };
}
const FAILED = "failed to parse address";

/** A URL's authority and what follows, as Go's url.Parse reads it and NormalizeAddr writes it back: host normalised, the rest as written. */
function urlHost(s: string): { value: string } | { why: string } {
  // eslint-disable-next-line no-control-regex -- url.Parse refuses a control character anywhere
  if (/[\u0000-\u001f\u007f]/.test(s)) return { why: FAILED };
  const end = s.search(/[/?#]/);
  const authority = end < 0 ? s : s.slice(0, end);
  const after = end < 0 ? "" : s.slice(end);
  const at = authority.lastIndexOf("@");
  const userinfo = at < 0 ? "" : authority.slice(0, at + 1);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) return { why: FAILED };
  const hostport = authority.slice(at + 1);
  let host: string;
  let port = "";
  if (hostport.startsWith("[")) {
    const close = hostport.lastIndexOf("]");
    if (close < 0) return { why: FAILED };
    const colonPort = hostport.slice(close + 1);
    if (!/^(:[0-9]*)?$/.test(colonPort)) return { why: FAILED };
    host = hostport.slice(1, close);
    port = colonPort.slice(1);
  } else {
    const colon = hostport.lastIndexOf(":");
    if (colon >= 0 && !/^:[0-9]*$/.test(hostport.slice(colon))) return { why: FAILED };
    host = colon < 0 ? hostport : hostport.slice(0, colon);
    port = colon < 0 ? "" : hostport.slice(colon + 1);
  }
  const unescaped = unescapeHost(host);
  if (unescaped === undefined) return { why: FAILED };
  if (hostport.endsWith(":")) return { why: "url has malformed host: missing port value after colon" };
  if (unescaped === "") return { why: "empty hostname" };
  // normalizeHostPort: an IP in its String() form, an IPv6 one in brackets (a URL's host)
  const ip = parseIP(unescaped);
  if (!ip && unescaped.includes(":")) return { why: "host contains an invalid IPv6 literal" };
  const shown = ip ? formatIP(ip) : escapeHost(unescaped);
  const written = shown.includes(":") ? `[${shown}]` : shown;
  return { value: `${userinfo}${written}${port === "" ? "" : `:${port}`}${after}` };
}

/** url.Parse's unescape of a host: `%XX` only for bytes ≥ 0x80, and no ASCII character a host may not hold. */
function unescapeHost(host: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < host.length; i++) {
    const c = host[i]!;
    if (c === "%") {
      const hex = host.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex) || parseInt(hex, 16) < 0x80) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c.charCodeAt(0) < 0x80) {
      if (!/[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]/.test(c)) return undefined;
      bytes.push(c.charCodeAt(0));
    } else bytes.push(...Buffer.from(c));
  }
  return Buffer.from(bytes).toString("latin1");
}

/** url.URL.String's escape of a host: bytes ≥ 0x80 percent-encoded (upper case). */
function escapeHost(latin1: string): string {
  return [...latin1].map((c) => (c.charCodeAt(0) >= 0x80 ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c)).join("");
}

/**
 * An address as Boundary 0.12.0–0.19.2 judge it: undefined when taken, else the problem. The
 * length is the raw value's; then the last message wins, as in Boundary's map of bad fields.
 */
export function splitAddressProblem(raw: string): AddressProblem | undefined {
  const split = splitHostPort(raw);
  if (!("error" in split)) return { kind: "port" };
  if (!split.missingPort) return { kind: "unparsable", why: split.error };
  return raw.length < ADDRESS_LENGTH.min || raw.length > ADDRESS_LENGTH.max ? { kind: "length" } : undefined;
}

/** The IPv6 literal an address holds, with or without brackets (trimmed), or undefined. */
export function ipv6Literal(address: string): string | undefined {
  const a = trim(address);
  const inner = a.startsWith("[") && a.endsWith("]") ? a.slice(1, -1) : a;
  return inner.includes(":") && parseIP(inner) ? inner : undefined;
}

/**
 * An address in the form Boundary 0.19.3+ stores it, for comparing two spellings of one address
 * (the form 0.12–0.19.2 stored, as sent, has the same): an IP literal (bracketed or not) in Go's
 * `net.IP.String()` form, a name as `parseAddress` writes it (its case kept), anything it refuses trimmed. `2001:BEEF:4860::8888`, `[2001:beef:4860::8888]` and
 * `2001:beef:4860:0:0:0:0:8888` are one address.
 */
export function canonicalAddress(address: string): string {
  const parsed = parseAddress(ipv6Literal(address) ?? address);
  return "value" in parsed ? parsed.value : trim(address);
}
