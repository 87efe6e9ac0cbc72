/**
 * The Pulumi package schema of `boundary`, from which `pulumi package add` generates SDKs for
 * Python, Go, .NET and YAML. The Target's inputs are typed as a `Record` over the provider's own
 * input fields, so the compiler refuses a schema that forgets or invents an input.
 */
import type { InputField } from "../target/inputs";

type Prop = { type?: string; items?: Prop; $ref?: string; description: string; secret?: boolean; default?: unknown; defaultInfo?: unknown };

const str = (description: string): Prop => ({ type: "string", description });
const int = (description: string): Prop => ({ type: "integer", description });
const strings = (description: string): Prop => ({ type: "array", items: { type: "string", description: "" }, description });
const ref = (type: string, description: string): Prop => ({ $ref: `#/types/boundary:index:${type}`, description });
const refs = (type: string, description: string): Prop => ({ type: "array", items: { $ref: `#/types/boundary:index:${type}`, description: "" }, description });

const INPUTS: Record<InputField, Prop> = {
  scopeId: str("Project scope id (`p_…`). Changing it replaces the Target (the new one is created first)."),
  name: str("Name, unique within the project."),
  description: str("Description."),
  type: str('Target type: only "tcp" exists (the default). Changing it replaces the Target.'),
  hostSetIds: strings("Host set ids (`hsst_…`), compared as a set; reconciled with `:set-host-sets`."),
  applicationCredentialLibraryIds: strings("Credential library ids (`clvlt_…`), compared as a set; reconciled with `:set-credential-libraries`."),
  sessionMaxSeconds: int("Maximum session lifetime in seconds (controller default 28800)."),
  sessionConnectionLimit: int("Maximum connections per session; -1 means unlimited."),
  workerFilter: str("Boolean expression selecting the workers that may handle sessions."),
  defaultPort: int("The tcp `attributes.default_port`, 1–65535."),
};

const OUTPUTS: Record<string, Prop> = {
  version: int("The Target's version after the last change Pulumi made or saw."),
  createdTime: str("Creation time (RFC 3339)."),
  updatedTime: str("Time of the last update (RFC 3339)."),
  scope: ref("Scope", "The Target's scope."),
  hostSets: refs("HostSetSummary", "The attached host sets."),
  applicationCredentialLibraries: refs("CredentialLibrarySummary", "The attached credential libraries."),
  authorizedActions: strings("Actions the caller may perform on the Target."),
};

const configVars: Record<string, Prop> = {
  addr: { ...str("Boundary API address, e.g. http://127.0.0.1:9200."), defaultInfo: { environment: ["BOUNDARY_ADDR"] } },
  token: { ...str("Boundary auth token (`at_…`)."), secret: true, defaultInfo: { environment: ["BOUNDARY_TOKEN"] } },
};

const object = (description: string, properties: Record<string, Prop>, required: string[] = []) => ({ type: "object", description, properties, required });

export function packageSchema(version: string) {
  const targetProperties = { ...INPUTS, ...OUTPUTS };
  return {
    name: "boundary",
    displayName: "HashiCorp Boundary",
    version,
    description: "Manage HashiCorp Boundary Targets.",
    keywords: ["pulumi", "boundary", "hashicorp", "category/network"],
    license: "MPL-2.0",
    repository: "https://www.npmjs.com/package/pulumi-boundary",
    config: { variables: configVars },
    provider: { description: "The Boundary provider: one controller address and token.", inputProperties: configVars, properties: configVars },
    types: {
      "boundary:index:Scope": object("A scope summary.", { id: str("Scope id."), type: str("Scope type."), name: str("Name."), description: str("Description."), parentScopeId: str("Parent scope id.") }, ["id", "type"]),
      "boundary:index:HostSetSummary": object("A host set attached to a Target.", { id: str("Host set id."), hostCatalogId: str("Host catalog id.") }, ["id"]),
      "boundary:index:CredentialLibrarySummary": object("A credential library attached to a Target.", { id: str("Library id."), credentialStoreId: str("Credential store id.") }, ["id"]),
      "boundary:index:CredentialLibrary": object("The library that brokered a credential.", {
        id: str("Library id."), name: str("Name."), description: str("Description."), credentialStoreId: str("Credential store id."), type: str("Library type."),
      }, ["id"]),
      "boundary:index:CredentialSecret": object("A credential secret.", { raw: str("Base64 of the provider's bytes."), decoded: { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" }, description: "The decoded JSON object." } as never }, ["raw"]),
      "boundary:index:SessionCredential": object("A credential brokered for a session.", {
        credentialLibrary: ref("CredentialLibrary", "The library that generated it."),
        secret: ref("CredentialSecret", "The secret."),
      }, ["credentialLibrary", "secret"]),
      "boundary:index:TargetSummary": object("A Target found by getTargets.", { id: str("Target id."), ...targetProperties }, ["id", "scopeId", "name"]),
    },
    resources: {
      "boundary:index:Target": {
        description: "A Boundary Target. Fields left out are not managed; removing a field resets it to the controller's default.",
        inputProperties: INPUTS,
        requiredInputs: ["scopeId", "name"],
        properties: targetProperties,
        required: ["scopeId", "name", "type", "hostSetIds", "applicationCredentialLibraryIds", "sessionMaxSeconds", "sessionConnectionLimit", "version"],
      },
    },
    functions: {
      "boundary:index:authorizeSession": {
        description:
          "Authorizes a session on a Target, by id or by name with a scope. Each call creates a real session and runs at every preview and update. `authorizationToken` and `credentials` are secret.",
        inputs: { properties: { targetId: str("Target id."), name: str("Target name (with scopeId or scopeName)."), scopeId: str("Scope id."), scopeName: str("Scope name."), hostId: str("A host of the Target's host sets.") } },
        outputs: {
          properties: {
            sessionId: str("Session id."), targetId: str("Target id."), scopeId: str("Scope id."), createdTime: str("Creation time."), userId: str("User id."),
            hostSetId: str("Host set of the chosen host."), hostId: str("Chosen host."), type: str("Session type."), endpoint: str("Endpoint the worker connects to."),
            authorizationToken: { ...str("Bearer credential for the proxy."), secret: true },
            credentials: { ...refs("SessionCredential", "Brokered credentials."), secret: true },
          },
          required: ["sessionId", "targetId", "authorizationToken", "credentials"],
        },
      },
      "boundary:index:getTargets": {
        description: "Lists Targets of a scope (recursively from global or an org), optionally filtered with a Boundary filter expression.",
        inputs: { properties: { scopeId: str("Scope id."), recursive: { type: "boolean", description: "Include every project below the scope." }, filter: str('Filter, e.g. `"/item/name" matches "^web"`.') }, required: ["scopeId"] },
        outputs: { properties: { targets: refs("TargetSummary", "The Targets found.") }, required: ["targets"] },
      },
    },
    language: { nodejs: { packageName: "pulumi-boundary-sdk" }, python: { packageName: "pulumi_boundary_sdk" } },
  };
}
