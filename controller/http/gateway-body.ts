/**
 * A request body read as a Boundary release reads it (the release table's `bodyDecoding:
 * "gateway"`): grpc-gateway's JSONPb (Go's encoding/json, then protojson into the route's request
 * message, `go-json.ts` and `protojson.ts`), then, for a PATCH, the update mask it makes of the body's
 * keys. Each refusal is the gateway's `status.Errorf(codes.InvalidArgument, "%v", err)`, which
 * Boundary's error handler answers as a 500 Internal with the status's text. What decodes is
 * handed on as plain JSON: a field sent as null is left out (protojson leaves it unset), except in a
 * PATCH, whose mask still names it (so it clears); the path's id wins over a body's (`body: "*"`).
 */
import { knows, listIn, type Release } from "../../wire/releases";
import { kindOf } from "../../wire/field-kinds";
import { INPUT_FIELDS, LIST_FIELDS, associationOf, spec } from "../../wire/target-fields";
import { attributesRefused } from "./target-body";
import { readGoJson } from "./go-json";
import { decodeProto, gatewayRefusal, protoInteger, unknownMaskField, type ProtoField, type ProtoMessage } from "./protojson";

/** What a route's body is: a Target (create, or PATCH with its mask), or an action's request (`body: "*"`) with its fields. */
export type GatewayBody = { target: "create" | "update" } | { request: readonly string[]; lists?: readonly string[]; integers?: readonly string[] };

const STRING: ProtoField = { kind: "string" };
const IDS: ProtoField = { kind: "string", repeated: true };
const strings = (fullName: string, names: readonly string[]): ProtoMessage => ({ fullName, fields: Object.fromEntries(names.map((n) => [n, STRING])) });

/** The scope a Target embeds (scopes.v1.ScopeInfo). */
const SCOPE = strings("controller.api.resources.scopes.v1.ScopeInfo", ["id", "type", "name", "description", "parent_scope_id"]);
/** A list's summary (HostSet, HostSource, CredentialLibrary, CredentialSource: their string fields). */
const SUMMARY = strings("controller.api.resources.targets.v1.HostSource", [
  "id",
  "host_catalog_id",
  "name",
  "description",
  "credential_store_id",
  "type",
  "credential_type",
]);
/** An alias a Target names or is made with (TP `Alias`, 0.16+). */
const ALIAS: ProtoMessage = {
  fullName: "controller.api.resources.targets.v1.Alias",
  fields: {
    id: STRING,
    value: STRING,
    scope_id: STRING,
    attributes: {
      message: {
        fullName: "controller.api.resources.targets.v1.TargetAliasAttributes",
        fields: { authorize_session_arguments: { message: strings("controller.api.resources.targets.v1.AuthorizeSessionArguments", ["host_id"]) } },
      },
    },
  },
};

/** Each list name's summaries (`host_set_ids` → `host_sets`), from the field table. */
const SUMMARIES = new Map<string, string>(
  LIST_FIELDS.flatMap((f) => {
    const a = associationOf(f);
    const pairs: [string, string | undefined][] = [
      [spec(f).wire, a.summaries],
      [a.current.wire, a.current.summaries],
      [a.current.earlier?.wire ?? "", a.current.earlier?.summaries],
    ];
    return pairs.filter((p): p is [string, string] => p[1] !== undefined);
  }),
);

/** The release's Target message (TP): its fields from the release table. */
function targetMessage(r: Release): ProtoMessage {
  const fields: Record<string, ProtoField> = {
    id: STRING,
    scope: { message: SCOPE },
    created_time: { wellKnown: "Timestamp" },
    updated_time: { wellKnown: "Timestamp" },
    version: { kind: "uint32" },
    authorized_actions: IDS,
  };
  for (const f of INPUT_FIELDS) {
    const s = spec(f);
    if (s.association || !knows(r, f)) continue;
    const [head] = s.wire.split(".");
    if (s.wire.includes(".")) fields[head!] = { wellKnown: "Struct" };
    // the field's protobuf type (TP): its row's where Boundary declares another than its kind's
    else fields[head!] = s.proto ?? kindOf(s.kind).proto;
  }
  for (const f of LIST_FIELDS) {
    for (const name of listIn(r, f)?.answers ?? []) {
      fields[name] = IDS;
      const summaries = SUMMARIES.get(name);
      if (summaries) fields[summaries] = { message: SUMMARY, repeated: true };
    }
  }
  if (r.aliases) {
    fields.aliases = { message: ALIAS, repeated: true };
    fields.with_aliases = { message: ALIAS, repeated: true };
  }
  return { fullName: "controller.api.resources.targets.v1.Target", fields };
}
const TARGETS = new Map<Release, ProtoMessage>();
const targetOf = (r: Release) => TARGETS.get(r) ?? TARGETS.set(r, targetMessage(r)).get(r)!;

/** An action's request message (`body: "*"`): its string, id-list and uint32 fields. */
function requestMessage(b: Exclude<GatewayBody, { target: string }>): ProtoMessage {
  const fields: Record<string, ProtoField> = Object.fromEntries(b.request.map((n) => [n, STRING]));
  for (const n of b.lists ?? []) fields[n] = IDS;
  for (const n of b.integers ?? []) fields[n] = { kind: "uint32" };
  return { fullName: "controller.api.services.v1.Request", fields };
}

/** The attribute fields the release knows (TcpTargetAttributes: each a UInt32Value). */
const attributeNames = (r: Release) => INPUT_FIELDS.filter((f) => knows(r, f) && spec(f).wire.startsWith("attributes.")).map((f) => spec(f).wire.slice(11));

/**
 * The Struct's values as the subtype's attributes message takes them (handlers.StructToProto: the
 * Struct marshaled, then protojson into TcpTargetAttributes): a whole number in range, or a quoted
 * one; null is unset. Anything else is the release's refusal of the attributes (target-body.ts: a
 * 400 on `attributes`, or v0.4's field-less one on a PATCH it does not vet).
 */
function attributes(r: Release, value: Record<string, unknown>, keepNulls: boolean): Record<string, unknown> {
  const known = attributeNames(r);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!known.includes(k)) {
      out[k] = v; // the release's reading of the body names it (target-body.ts)
      continue;
    }
    if (v === null) {
      if (keepNulls) out[k] = null;
      continue;
    }
    const text = typeof v === "number" ? numberText(v) : typeof v === "string" && v.trim() === v ? v : undefined;
    const n = text === undefined ? undefined : protoInteger(text, "uint32");
    if (n === undefined) throw attributesRefused(r, keepNulls ? "update" : "create");
    out[k] = n;
  }
  return out;
}

/** A double as protojson writes a Struct's number (Go's 'g'-like shortest form; integers under 1e21 in full). */
const numberText = (n: number) => (Number.isInteger(n) && Math.abs(n) < 1e21 ? BigInt(n).toString() : String(n));

/** Reads `text` as the release's gateway reads the route's body; throws the answer when it refuses. */
export function gatewayBody(r: Release, text: string, b: GatewayBody): Record<string, unknown> {
  const read = readGoJson(text);
  if ("error" in read) throw gatewayRefusal(read.error);
  if (read.eof) return {};
  const message = "target" in b ? targetOf(r) : requestMessage(b);
  const body = decodeProto(read.value, message, r.protojsonWords);
  const update = "target" in b && b.target === "update";
  if (update) {
    const unknown = unknownMaskField(JSON.parse(read.value) as Record<string, unknown>, message);
    if (unknown) throw gatewayRefusal(unknown);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === null && !update) continue;
    out[k] = k === "attributes" && v !== null ? attributes(r, v as Record<string, unknown>, update) : v;
  }
  // an action's path id is set after its body is decoded (`body: "*"`): the body's is overwritten
  if (!("target" in b)) delete out.id;
  return out;
}
