/**
 * The Pulumi package schema of `boundary`, from which `pulumi package add` generates SDKs for
 * Python, Go, .NET and YAML. The Target's inputs and outputs come from the field table and the
 * state's outputs table, the config variables from the provider's config table, and the secret
 * session fields from the one list of them.
 */
import { valueSince } from "../../wire/releases";
import { INPUT_FIELDS, LIST_FIELDS, REFERENTS, associationOf, programMustSet, spec, type FieldSpec } from "../../wire/target-fields";
import { PROVIDER_CONFIG, type ConfigSpec } from "../config";
import { SESSION_SECRET_FIELDS } from "../functions";
import { OUTPUT_FIELDS, TARGET_OUTPUTS, type OutputType } from "../resource/state";

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
const int = (description: string): Prop => ({ type: "integer", description });
const strings = (description: string): Prop => ({ type: "array", items: { type: "string", description: "" }, description });
const ref = (type: string, description: string): Prop => ({ $ref: `#/types/boundary:index:${type}`, description });
const refs = (type: string, description: string): Prop => ({ type: "array", items: { $ref: `#/types/boundary:index:${type}`, description: "" }, description });

/** The package-schema type of an enum field (`type` → `TargetType`), so generated SDKs get its values as constants. */
const enumTypeName = (field: string) => `Target${field[0]!.toUpperCase()}${field.slice(1)}`;

/** A Target input's package-schema property, from its kind. */
function inputProp(field: string, f: FieldSpec): Prop {
  const p = f.kind === "integer" ? int(f.doc) : f.kind === "ids" ? strings(f.doc) : f.kind === "enum" ? ref(enumTypeName(field), f.doc) : str(f.doc);
  return f.secret ? { ...p, secret: true } : p;
}

/** The enum types of the Target's enum fields, each value with the release that added it where a later one did. */
const ENUM_TYPES = Object.fromEntries(
  INPUT_FIELDS.filter((f) => spec(f).kind === "enum").map((f) => [
    `boundary:index:${enumTypeName(f)}`,
    {
      type: "string",
      description: spec(f).doc,
      enum: spec(f).values!.map((value) => ({ value, ...(valueSince(f, value) && { description: `Boundary ${valueSince(f, value)} and later.` }) })),
    },
  ]),
);

/** An output's package-schema property. */
function outputProp(type: OutputType, doc: string): Prop {
  if (typeof type === "object") return "ref" in type ? ref(type.ref, doc) : refs(type.refs, doc);
  return type === "integer" ? int(doc) : type === "strings" ? strings(doc) : str(doc);
}

const INPUTS = Object.fromEntries(INPUT_FIELDS.map((f) => [f, inputProp(f, spec(f))]));
const OUTPUTS = Object.fromEntries(OUTPUT_FIELDS.map((k) => [k, outputProp(TARGET_OUTPUTS[k].type, TARGET_OUTPUTS[k].doc)]));
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
const object = (description: string, properties: Record<string, Prop>, required: string[] = []) => ({ type: "object", description, properties, required });

/** The object types of the lists' summary outputs (`HostSetSummary`), from the field table's association entries. */
const LIST_SUMMARY_TYPES = Object.fromEntries(
  LIST_FIELDS.flatMap((f) => {
    const a = associationOf(f);
    if (!a.output) return [];
    const carries: Readonly<Record<string, { doc: string }>> = REFERENTS[a.kind].summary;
    const properties = { id: str(REFERENTS[a.kind].idDoc), ...Object.fromEntries(Object.entries(carries).map(([key, c]) => [key, str(c.doc)])) };
    return [[`boundary:index:${a.output.type}`, object(a.output.itemDoc, properties, ["id"])]];
  }),
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
      "boundary:index:Scope": object(
        "A scope summary.",
        { id: str("Scope id."), type: str("Scope type."), name: str("Name."), description: str("Description."), parentScopeId: str("Parent scope id.") },
        ["id", "type"],
      ),
      ...LIST_SUMMARY_TYPES,
      "boundary:index:Alias": object(
        "An alias pointing to a Target (Boundary 0.16+).",
        { id: str("Alias id (alt_…)."), value: str("The alias value, a DNS name usable in place of the Target's id.") },
        ["id", "value"],
      ),
      "boundary:index:CredentialLibrary": object(
        "The library that brokered a credential.",
        {
          id: str("Library id."),
          name: str("Name."),
          description: str("Description."),
          credentialStoreId: str("Credential store id."),
          type: str("Library type."),
        },
        ["id"],
      ),
      "boundary:index:CredentialSecret": object(
        "A credential secret.",
        {
          raw: str("Base64 of the provider's bytes."),
          decoded: { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" }, description: "The decoded JSON object." },
        },
        ["raw"],
      ),
      "boundary:index:SessionCredential": object(
        "A credential brokered for a session.",
        {
          credentialLibrary: ref("CredentialLibrary", "The library that generated it."),
          secret: ref("CredentialSecret", "The secret."),
        },
        ["credentialLibrary", "secret"],
      ),
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
      },
    },
    functions: {
      "boundary:index:authorizeSession": {
        description:
          "Authorizes a session on a Target, by id or by name with a scope. Each call creates a real session and runs at every preview and " +
          "update. `authorizationToken` and `credentials` are secret.",
        inputs: {
          properties: {
            targetId: str("Target id."),
            name: str("Target name (with scopeId or scopeName)."),
            scopeId: str("Scope id."),
            scopeName: str("Scope name."),
            hostId: str("A host of the Target's host sets."),
          },
        },
        outputs: {
          properties: markSecrets({
            sessionId: str("Session id."),
            targetId: str("Target id."),
            scopeId: str("Scope id."),
            createdTime: str("Creation time."),
            userId: str("User id."),
            hostSetId: str("Host set of the chosen host."),
            hostId: str("Chosen host."),
            type: str("Session type."),
            endpoint: str("Endpoint the worker connects to."),
            endpointPort: int("Port the worker connects to (Boundary 0.15+)."),
            connectionLimit: int("Connections the session allows, -1 for unlimited (Boundary 0.15+)."),
            expiration: str("When the session expires, RFC 3339 (Boundary 0.15+)."),
            sessionRecordingId: str("The session's recording, when the Target records sessions (Boundary Enterprise 0.16+)."),
            authorizationToken: str("Bearer credential for the proxy (`boundary connect -authz-token`); holds the session's private key."),
            credentials: refs("SessionCredential", "Brokered credentials."),
          }),
          required: ["sessionId", "targetId", "authorizationToken", "credentials"],
        },
      },
      "boundary:index:getTargets": {
        description: "Lists Targets of a scope (recursively from global or an org), optionally filtered with a Boundary filter expression.",
        inputs: {
          properties: {
            scopeId: str("Scope id."),
            recursive: { type: "boolean", description: "Include every project below the scope." },
            filter: str('Filter, e.g. `"/item/name" matches "^web"`.'),
          },
          required: ["scopeId"],
        },
        outputs: { properties: { targets: refs("TargetSummary", "The Targets found.") }, required: ["targets"] },
      },
    },
    language: SDK_NAMES,
  };
}
