/**
 * A list's query parameters as a release's gateway reads them into ListTargetsRequest
 * (grpc-gateway runtime/query.go PopulateQueryParameters): a parameter the message lacks is
 * ignored, one given twice is "too many values", `recursive` is Go's strconv.ParseBool and
 * `page_size` (0.15+) strconv.ParseUint(…, 0, 32); each refusal is the gateway's InvalidArgument,
 * which Boundary answers as a 500. The spec's controller reads the values as they are (its rules
 * name a bad one in a 400).
 */
import type { Release } from "../../wire/releases";
import { gatewayRefusal } from "./protojson";

/** What a list asks, as the store and the pages take it (`recursive` "true"/"false" once a release has parsed it). */
export interface ListParams {
  scopeId: string | null;
  recursive: string | null;
  filter: string | null;
  token: string | null;
  pageSize: string | null;
}

/** Go's strconv.Quote for the ASCII a query holds (JSON's quoting, which agrees there). */
const goQuote = (s: string) => JSON.stringify(s);

/** strconv.ParseBool. */
function parseBool(field: string, v: string): string {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(v)) return "true";
  if (["0", "f", "F", "FALSE", "false", "False"].includes(v)) return "false";
  throw gatewayRefusal(`parsing field "${field}": strconv.ParseBool: parsing ${goQuote(v)}: invalid syntax`);
}

/** strconv.ParseUint(v, 0, 32): a base prefix (0x, 0o, 0b, or a leading 0 for octal), underscores only between digits after a prefix. */
function parseUint32(field: string, v: string): string {
  const fail = (why: string) => gatewayRefusal(`parsing field "${field}": strconv.ParseUint: parsing ${goQuote(v)}: ${why}`);
  const prefix = /^0[xXoObB]/.test(v) ? v.slice(0, 2).toLowerCase() : /^0./.test(v) ? "0" : "";
  const base = { "0x": 16, "0o": 8, "0b": 2, "0": 8, "": 10 }[prefix]!;
  let digits = v.slice(prefix.length);
  if (prefix) digits = digits.replace(/(^|(?<=[0-9a-fA-F]))_(?=[0-9a-fA-F])/g, "");
  const alphabet = "0123456789abcdef".slice(0, base);
  if (digits === "" || [...digits.toLowerCase()].some((c) => !alphabet.includes(c))) throw fail("invalid syntax");
  const n = BigInt(base === 10 ? digits : `0${{ 16: "x", 8: "o", 2: "b" }[base]}${digits}`);
  if (n > 0xffffffffn) throw fail("value out of range");
  return n.toString();
}

/** The list's parameters as the release reads them. */
export function listParams(r: Release, q: URLSearchParams): ListParams {
  const raw = (name: string) => q.get(name);
  if (r.bodyDecoding !== "gateway")
    return { scopeId: raw("scope_id"), recursive: raw("recursive"), filter: raw("filter"), token: raw("list_token"), pageSize: raw("page_size") };
  const fields = ["scope_id", "recursive", "filter", ...(r.pagination ? ["list_token", "page_size"] : [])];
  const one = (name: string): string | null => {
    if (!fields.includes(name)) return null;
    const all = q.getAll(name);
    if (all.length > 1) throw gatewayRefusal(`too many values for field "${name}": ${all.join(", ")}`);
    return all[0] ?? null;
  };
  const recursive = one("recursive");
  const pageSize = one("page_size");
  return {
    scopeId: one("scope_id"),
    recursive: recursive === null ? null : parseBool("recursive", recursive),
    filter: one("filter"),
    token: one("list_token"),
    pageSize: pageSize === null ? null : parseUint32("page_size", pageSize),
  };
}
