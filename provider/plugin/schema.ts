/**
 * The Pulumi package schema of `boundary`, from which `pulumi package add` generates SDKs for
 * Python, Go, .NET and YAML. The Target's inputs and outputs come from the field table and the
 * state's outputs table, the config variables from the provider's config table, and the secret
 * session fields from the one list of them.
 */
import { valueSince } from "../../wire/releases";
import { enumTypeName, kindOf } from "../../wire/field-kinds";
import { z } from "zod";
import { INPUT_FIELDS, programMustSet, spec, type FieldSpec } from "../../wire/target-fields";
import { PROVIDER_CONFIG, type ConfigSpec } from "../config";
import { AuthorizeSessionArgsSchema, GetTargetsArgsSchema, ListQuerySchema, SESSION_SECRET_FIELDS, SessionView } from "../functions";
import { OUTPUT_FIELDS, TARGET_OUTPUTS, TargetState } from "../resource/state";

type Prop = {
  type?: string;
  items?: Prop;
  $ref?: string;
  description?: string;
  secret?: boolean;
  default?: unknown;
  defaultInfo?: unknown;
  additionalProperties?: Prop;
};

const str = (description: string): Prop => ({ type: "string", description });
const refs = (type: string, description: string): Prop => ({ type: "array", items: { $ref: `#/types/boundary:index:${type}`, description: "" }, description });

/** A Target input's package-schema property, from its kind. */
function inputProp(field: string, f: FieldSpec): Prop {
  const type = kindOf(f.kind).pulumi(field);
  // the package schema's other arrays carry an empty description on their items: so do the inputs'
  const p: Prop = { ...type, ...("items" in type && { items: { ...type.items, description: "" } }), description: f.doc };
  return f.secret ? { ...p, secret: true } : p;
}

/** The enum types of the Target's enum fields, each value with the release that added it where a later one did. */
const ENUM_TYPES = Object.fromEntries(
  INPUT_FIELDS.filter((f) => spec(f).values).map((f) => [
    `boundary:index:${enumTypeName(f)}`,
    {
      type: "string",
      description: spec(f).doc,
      enum: spec(f).values!.map((value) => ({ value, ...(valueSince(f, value) && { description: `Boundary ${valueSince(f, value)} and later.` }) })),
    },
  ]),
);

/** A package-schema object type. */
const object = (description: string, properties: Record<string, Prop>, required: string[] = []) => ({ type: "object", description, properties, required });

const INPUTS = Object.fromEntries(INPUT_FIELDS.map((f) => [f, inputProp(f, spec(f))]));
// ---- the shapes zod already states (state's outputs, the functions' arguments and results), converted once ----

/** The JSON Schema zod makes of a schema: the parts a package schema needs. */
interface Json {
  type?: string;
  description?: string;
  properties?: Record<string, Json>;
  required?: string[];
  items?: Json;
  $ref?: string;
  additionalProperties?: Json | boolean;
  $defs?: Record<string, Json>;
}

/** Named object types the converted schemas refer to (their zod `meta` id), filled by `converted`. */
const NAMED: Record<string, ReturnType<typeof object>> = {};

/** A zod schema as JSON Schema; its named objects (`$defs`) become package-schema types. */
function converted(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { unrepresentable: "any" }) as Json;
  for (const [name, def] of Object.entries(json.$defs ?? {}))
    NAMED[`boundary:index:${name}`] = object(def.description ?? "", properties(def), def.required ?? []);
  return json;
}

/** A JSON Schema node as a package-schema property: a named object is a `$ref`, a free-form object a map of Any. */
function prop(j: Json, description = j.description): Prop {
  const d = description === undefined ? {} : { description };
  if (j.$ref) return { $ref: j.$ref.replace("#/$defs/", "#/types/boundary:index:"), ...d };
  if (j.type === "array") return { type: "array", items: prop(j.items!), ...d };
  if (j.type === "object") return { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" }, ...d };
  return { type: j.type, ...d };
}

/** An object node's properties as package-schema properties. */
function properties(j: Json): Record<string, Prop> {
  return Object.fromEntries(Object.entries(j.properties ?? {}).map(([k, v]) => [k, prop(v)]));
}

const STATE = converted(TargetState);
const OUTPUTS = Object.fromEntries(OUTPUT_FIELDS.map((k) => [k, prop(STATE.properties![k]!, TARGET_OUTPUTS[k].doc)]));
const SESSION = converted(SessionView);
const AUTHORIZE_ARGS = converted(AuthorizeSessionArgsSchema);
const GET_TARGETS_ARGS = converted(GetTargetsArgsSchema);
const LIST_QUERY = converted(ListQuerySchema);
/** State fields that always have a value: required inputs, inputs with a controller default, required outputs. */
const ALWAYS_SET = [
  ...INPUT_FIELDS.filter((f) => spec(f).required || spec(f).default !== undefined),
  ...OUTPUT_FIELDS.filter((k) => !TARGET_OUTPUTS[k].schema.safeParse(undefined).success),
];

const configVars: Record<string, Prop> = Object.fromEntries(
  Object.entries(PROVIDER_CONFIG as Record<string, ConfigSpec>).map(([key, c]) => [
    key,
    { ...str(c.doc), ...(c.secret ? { secret: true } : {}), defaultInfo: { environment: [c.env] } },
  ]),
);

/**
 * The generated SDKs' names, set here rather than derived: `pulumi package add` generates each
 * SDK locally. Node's is distinct from this package so both can be installed; Go's module path is
 * not fetched from anywhere (the generated module is used through the `replace` line the CLI prints).
 */
export const SDK_NAMES = {
  nodejs: { packageName: "pulumi-boundary-sdk" },
  python: { packageName: "pulumi_boundary_sdk" },
  go: { importBasePath: "github.com/pulumi-boundary/sdk/go/boundary" },
} as const;

/** The properties of authorizeSession's result, the secret ones marked. */
function markSecrets(properties: Record<string, Prop>): Record<string, Prop> {
  for (const k of SESSION_SECRET_FIELDS) properties[k] = { ...properties[k]!, secret: true };
  return properties;
}

/** The package schema of this version of the provider. */
export function packageSchema(version: string) {
  const targetProperties = { ...INPUTS, ...OUTPUTS };
  return {
    name: "boundary",
    displayName: "HashiCorp Boundary",
    version,
    description: "Manage HashiCorp Boundary Targets.",
    keywords: ["pulumi", "boundary", "hashicorp", "category/network"],
    license: "MPL-2.0",
    config: { variables: configVars },
    provider: { description: "The Boundary provider: one controller address and token.", inputProperties: configVars, properties: configVars },
    types: {
      ...NAMED,
      "boundary:index:TargetSummary": object("A Target found by getTargets.", { id: str("Target id."), ...targetProperties }, ["id", "scopeId", "name"]),
      ...ENUM_TYPES,
    },
    resources: {
      "boundary:index:Target": {
        description: "A Boundary Target. Fields left out are not managed; removing a field resets it to the controller's default.",
        inputProperties: INPUTS,
        requiredInputs: INPUT_FIELDS.filter(programMustSet),
        properties: targetProperties,
        required: ALWAYS_SET,
        // `pulumi do boundary:index:Target list --scope-id global --recursive`: the query getTargets takes (see list.ts)
        listInputs: object(
          "What `pulumi do boundary:index:Target list` lists: the Targets of a project, or with `recursive` of every project below a scope " +
            "(`global`, an org), optionally filtered with a Boundary filter expression. Each result is an id `read` and `pulumi import` accept.",
          properties(LIST_QUERY),
          LIST_QUERY.required ?? [],
        ),
      },
    },
    functions: {
      "boundary:index:authorizeSession": {
        description:
          "Authorizes a session on a Target, by id or by name with a scope. Each call creates a real session and runs at every preview and " +
          "update. `authorizationToken` and `credentials` are secret.",
        inputs: { properties: properties(AUTHORIZE_ARGS) },
        outputs: { properties: markSecrets(properties(SESSION)), required: SESSION.required ?? [] },
      },
      "boundary:index:getTargets": {
        description: "Lists Targets of a scope (recursively from global or an org), optionally filtered with a Boundary filter expression.",
        inputs: { properties: properties(GET_TARGETS_ARGS), required: GET_TARGETS_ARGS.required ?? [] },
        outputs: { properties: { targets: refs("TargetSummary", "The Targets found.") }, required: ["targets"] },
      },
    },
    language: SDK_NAMES,
  };
}
