/**
 * THE table of a field's kinds: what each kind of value means, said once. A field of the field
 * table (`target-fields.ts`) names its kind; its wire schema, its input schema, its state, its
 * package-schema type, its protobuf type as Boundary's gateway reads a body, its type in the docs
 * and how two of its values compare all come from the kind's entry here. A field's own protobuf
 * type, where Boundary declares another than its kind's (a plain `string` for `scope_id`, a
 * `UInt32Value` for `session_max_seconds`), is on the field's row (`proto`).
 *
 * Adding a kind is one entry here (and the protobuf scalar, if new, in the controller's reader,
 * `controller/http/protojson.ts`); adding a field of a kind that exists is its row alone.
 */
import { z } from "zod";

/** A protobuf scalar of Boundary's API messages, as grpc-gateway's protojson reads it. */
export type ProtoScalar = "string" | "uint32" | "int32" | "bool";

/**
 * A field's protobuf type in Boundary's Target message: a scalar (repeated for a list) or a
 * wrapper of one (`google.protobuf.StringValue`: the field can be unset, and null clears it).
 */
export type ProtoType = { kind: ProtoScalar; repeated?: boolean } | { wrapper: ProtoScalar };

/** A Pulumi package-schema type (the metaschema's `typeSpec`). */
export type PulumiType = { type: "string" | "integer" | "boolean" } | { type: "array"; items: { type: "string" } } | { $ref: string };

/** What a kind's input schema may need of its field: its values (`enum`), what one id must be (`ids`). */
export interface InputFacts {
  /** The values an enum takes. */
  values?: readonly string[];
  /** Whether an id is of a kind some release takes, and the words for one that is not. */
  id?: { takes: (id: string) => boolean; message: string };
}

/** Everything a kind says of its values. */
export interface KindSpec {
  /** The value's schema on the wire and in state: the kind only, no rule (the server is the truth). */
  zod: z.ZodType;
  /** The value's schema in a program's inputs: the kind, with its words for a value of the wrong kind. */
  input: (facts: InputFacts) => z.ZodType;
  /** The package schema's type of an input (`name`: the field's, for an enum's type of its own). */
  pulumi: (name: string) => PulumiType;
  /** Boundary's protobuf type for a top-level field of this kind, unless the field's row says another. */
  proto: ProtoType;
  /** The type as the docs' inputs table words it. */
  docType: (facts: InputFacts) => string;
  /** The value Boundary leaves out or answers for "unset" (proto3's zero value): read as the default, or unset. */
  zero: unknown;
  /** The zero is a value a program means (`false`): read as itself, never as unset, so setting it is no change forever. */
  zeroIsValue?: boolean;
  /** How two values compare: as they are, or as sets (order and repeats never a change). */
  compare: "value" | "set";
}

const WHOLE = "must be a whole number";

/** The package-schema type of an enum field (`type` → `TargetType`), so generated SDKs get its values as constants. */
export const enumTypeName = (field: string) => `Target${field[0]!.toUpperCase()}${field.slice(1)}`;

/** The kinds of a field's value (see the module comment). */
export const FIELD_KINDS = {
  string: {
    zod: z.string(),
    input: () => z.string(),
    pulumi: () => ({ type: "string" }),
    proto: { wrapper: "string" },
    docType: () => "string",
    zero: "",
    compare: "value",
  },
  integer: {
    zod: z.number().int(),
    input: () => z.number(WHOLE).int(WHOLE),
    pulumi: () => ({ type: "integer" }),
    proto: { wrapper: "int32" },
    docType: () => "number",
    zero: 0,
    compare: "value",
  },
  boolean: {
    zod: z.boolean(),
    input: () => z.boolean("must be true or false"),
    pulumi: () => ({ type: "boolean" }),
    proto: { wrapper: "bool" },
    docType: () => "boolean",
    zero: false,
    zeroIsValue: true,
    compare: "value",
  },
  ids: {
    zod: z.array(z.string()),
    input: ({ id }) => z.array(id ? z.string().refine(id.takes, id.message) : z.string()),
    pulumi: () => ({ type: "array", items: { type: "string" } }),
    proto: { kind: "string", repeated: true },
    docType: () => "string[]",
    zero: [],
    compare: "set",
  },
  enum: {
    zod: z.string(),
    input: ({ values = [] }) =>
      z.enum(values as [string, ...string[]], {
        error: `must be ${values.length === 1 ? "" : "one of "}${values.map((v) => JSON.stringify(v)).join(", ")}`,
      }),
    pulumi: (name) => ({ $ref: `#/types/boundary:index:${enumTypeName(name)}` }),
    proto: { kind: "string" },
    docType: ({ values = [] }) => values.map((v) => `\`"${v}"\``).join(", "),
    zero: "",
    compare: "value",
  },
} as const satisfies Record<string, KindSpec>;

/** The kind of a field's value: a key of FIELD_KINDS. */
export type FieldKind = keyof typeof FIELD_KINDS;

/** A kind's entry, typed as the general shape (for code that walks the table). */
export function kindOf(kind: FieldKind): KindSpec {
  return FIELD_KINDS[kind];
}
