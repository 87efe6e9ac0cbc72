/**
 * The second step of grpc-gateway's JSONPb decoder: protojson (protobuf-go encoding/protojson,
 * DiscardUnknown) decodes the value Go's encoding/json read into the route's request message. Its
 * rules, written from decode.go and well_known_types.go: the top level must be an object; a field
 * may come once ("duplicate field"); `null` leaves a field unset; a wrapper (`StringValue`) takes
 * its scalar, a uint32 a number or a quoted number that is a whole number in range, a bool `true` or `false`; a repeated
 * field an array; a message an object; a Struct any object; a key the message lacks is skipped.
 * Errors carry protojson's words and the token's line:column. Messages are described by data
 * (`ProtoMessage`), so each release's Target is built from the release table.
 */

import type { ProtoScalar } from "../../wire/field-kinds";
import { ControllerFault } from "../errors";

/** A scalar kind, as protojson names it in its errors. */
export type ScalarKind = ProtoScalar;
/** A field of a message: a scalar, a wrapper of one (`value`), a well-known type, or a message. */
export type ProtoField =
  { kind: ScalarKind; repeated?: boolean } | { wrapper: ScalarKind } | { wellKnown: "Struct" | "Timestamp" } | { message: ProtoMessage; repeated?: boolean };
/** A message: its full name (the field mask's words) and fields by name (Boundary sets json_name to the proto name). */
export interface ProtoMessage {
  fullName: string;
  fields: Readonly<Record<string, ProtoField>>;
}

/**
 * The gateway's refusal: its InvalidArgument status, which Boundary answers as a 500 with the
 * status's text (protojson's `proto: …` words, or the query parameters' parsing).
 */
export function gatewayRefusal(text: string): ControllerFault {
  return new ControllerFault("Internal", `rpc error: code = InvalidArgument desc = ${text}`);
}

/** How protojson words a value of the wrong type: before protobuf-go 1.35 without the field, from it with the field's JSON name. */
export type TypeWords = "type" | "field";

interface Token {
  kind: "{" | "}" | "[" | "]" | "name" | "string" | "number" | "true" | "false" | "null" | "eof";
  pos: number;
  raw: string;
}

const WS = new Set([" ", "\t", "\r", "\n"]);

/** protojson's lexer over a value Go's scanner has already checked: separators are skipped, a string before `:` is a name. */
class Lexer {
  private i = 0;
  constructor(readonly text: string) {}

  read(): Token {
    const s = this.text;
    while (this.i < s.length && (WS.has(s[this.i]!) || s[this.i] === "," || s[this.i] === ":")) this.i++;
    const pos = this.i;
    if (pos >= s.length) return { kind: "eof", pos, raw: "" };
    const c = s[pos]!;
    if ("{}[]".includes(c)) {
      this.i++;
      return { kind: c as Token["kind"], pos, raw: c };
    }
    if (c === '"') {
      let j = pos + 1;
      while (s[j] !== '"') j += s[j] === "\\" ? 2 : 1;
      this.i = j + 1;
      let k = this.i;
      while (k < s.length && WS.has(s[k]!)) k++;
      return { kind: s[k] === ":" ? "name" : "string", pos, raw: s.slice(pos, j + 1) };
    }
    let j = pos;
    while (j < s.length && !WS.has(s[j]!) && !",:{}[]".includes(s[j]!)) j++;
    this.i = j;
    const raw = s.slice(pos, j);
    return { kind: raw === "true" || raw === "false" || raw === "null" ? raw : "number", pos, raw };
  }

  /** Where the next read starts. */
  get at(): number {
    return this.i;
  }

  peek(): Token {
    const at = this.i;
    const t = this.read();
    this.i = at;
    return t;
  }

  /** protojson's position: line, and column in runes, both from 1. */
  where(pos: number): string {
    const before = this.text.slice(0, pos);
    const line = before.split("\n").length;
    const column = [...before.slice(before.lastIndexOf("\n") + 1)].length + 1;
    return `(line ${line}:${column})`;
  }
}

/** A whole number within `kind`'s range from a JSON number's text (protojson's normalizeToIntString, then ParseInt/ParseUint), or undefined. */
export function protoInteger(text: string, kind: "uint32" | "int32"): number | undefined {
  const m = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, intp, frac = "", e = "0"] = m;
  const exp = Number(e);
  let digits: string;
  if (exp >= 0) {
    if (frac.length > exp || intp!.length + exp > 20) return undefined;
    digits = intp! + frac + "0".repeat(exp - frac.length);
  } else {
    if (frac.length > 0 || intp!.length + exp < 0 || /[1-9]/.test(intp!.slice(intp!.length + exp))) return undefined;
    digits = intp!.slice(0, intp!.length + exp) || "0";
  }
  const n = Number(sign + digits);
  if (kind === "uint32") return sign === "" && n <= 0xffffffff ? n : undefined;
  return n >= -0x80000000 && n <= 0x7fffffff ? n : undefined;
}

/** Decodes `text` (one JSON value) into `message`'s fields as a plain object; null marks a field sent as null (unset). */
export function decodeProto(text: string, root: ProtoMessage, words: TypeWords): Record<string, unknown> {
  const lx = new Lexer(text);
  const fail = (pos: number, what: string): never => {
    throw gatewayRefusal(`proto: ${lx.where(pos)}: ${what}`);
  };
  const unexpected = (t: Token): never => {
    throw gatewayRefusal(`proto: syntax error ${lx.where(t.pos)}: unexpected token ${t.raw}`);
  };
  const scalar = (kind: ScalarKind, jsonName: string): unknown => {
    const t = lx.read();
    if (kind === "string" && t.kind === "string") return JSON.parse(t.raw);
    if (kind === "bool" && (t.kind === "true" || t.kind === "false")) return t.kind === "true";
    if (kind === "uint32" || kind === "int32") {
      const numeric = t.kind === "number" ? t.raw : t.kind === "string" ? (JSON.parse(t.raw) as string) : undefined;
      const n = numeric !== undefined && numeric.trim() === numeric ? protoInteger(numeric, kind) : undefined;
      if (n !== undefined) return n;
    }
    return fail(t.pos, words === "field" ? `invalid value for ${kind} field ${jsonName}: ${t.raw}` : `invalid value for ${kind} type: ${t.raw}`);
  };
  /** Skips a value (an unknown field's); with `keep`, returns it as JSON, refusing a key twice in one object (a Struct's map). */
  const value = (keep: boolean): unknown => {
    const start = lx.peek();
    const keys: Set<string>[] = [];
    let depth = 0;
    do {
      const t = lx.read();
      if (t.kind === "{" || t.kind === "[") {
        depth++;
        keys.push(new Set());
      } else if (t.kind === "}" || t.kind === "]") {
        depth--;
        keys.pop();
      } else if (t.kind === "name" && keep) {
        const seen = keys[keys.length - 1]!;
        const name = JSON.parse(t.raw) as string;
        if (seen.has(name)) fail(t.pos, `duplicate map key ${t.raw}`);
        seen.add(name);
      }
    } while (depth > 0);
    return keep ? JSON.parse(text.slice(start.pos, lx.at)) : undefined;
  };
  const field = (f: ProtoField, jsonName: string): unknown => {
    if ("kind" in f && !f.repeated) return scalar(f.kind, jsonName);
    if ("wrapper" in f) return scalar(f.wrapper, "value");
    if ("wellKnown" in f) {
      const t = lx.peek();
      if (f.wellKnown === "Struct") {
        if (t.kind !== "{") unexpected(lx.read());
        return value(true);
      }
      lx.read();
      if (t.kind !== "string") unexpected(t);
      const s = JSON.parse(t.raw) as string;
      if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/.test(s)) fail(t.pos, `invalid google.protobuf.Timestamp value ${t.raw}`);
      return s;
    }
    if (f.repeated) {
      const open = lx.read();
      if (open.kind !== "[") unexpected(open);
      const items: unknown[] = [];
      while (lx.peek().kind !== "]") items.push("message" in f ? message(f.message) : scalar(f.kind, jsonName));
      lx.read();
      return items;
    }
    return "message" in f ? message(f.message) : scalar(f.kind, jsonName);
  };
  const message = (m: ProtoMessage): Record<string, unknown> => {
    const open = lx.read();
    if (open.kind !== "{") unexpected(open);
    const out: Record<string, unknown> = {};
    for (;;) {
      const t = lx.read();
      if (t.kind === "}") return out;
      if (t.kind !== "name") unexpected(t);
      const name = JSON.parse(t.raw) as string;
      const f = Object.hasOwn(m.fields, name) ? m.fields[name] : undefined;
      if (!f) {
        value(false);
        continue;
      }
      if (Object.hasOwn(out, name)) fail(t.pos, `duplicate field ${t.raw}`);
      if (lx.peek().kind === "null") {
        lx.read();
        out[name] = null;
        continue;
      }
      out[name] = field(f, name);
    }
  };
  return message(root);
}

/**
 * The update mask grpc-gateway makes of a PATCH body (runtime/fieldmask.go FieldMaskFromRequestBody),
 * here only its refusal: a key the Target lacks, or a key a nested message lacks, is
 * `could not find field "k" in "<message>"` (the first in the body's order; Go's map order is random).
 */
export function unknownMaskField(body: Record<string, unknown>, m: ProtoMessage): string | undefined {
  for (const [key, v] of Object.entries(body)) {
    const f = Object.hasOwn(m.fields, key) ? m.fields[key] : undefined;
    if (!f) return `could not find field ${JSON.stringify(key)} in ${JSON.stringify(m.fullName)}`;
    if ("message" in f && !f.repeated && v !== null && typeof v === "object" && Object.keys(v).length > 0) {
      const inner = unknownMaskField(v as Record<string, unknown>, f.message);
      if (inner) return inner;
    }
  }
  return undefined;
}
