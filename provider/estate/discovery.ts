/**
 * What `pulumi-boundary import` found: Targets to adopt, each with its id, where it came from and
 * the parts of its Pulumi name; what was skipped and why; the attributes this provider cannot
 * express. Both sources (a live scope, a Terraform state) produce one of these; the writers
 * (`output.ts`) turn it into the bulk-import file, the TypeScript program and the summary.
 */

/** One Target to adopt. */
export interface FoundTarget {
  /** Boundary's id: what `pulumi import` passes to Read. */
  id: string;
  /** Where it was found, for the summary: a Terraform address, or `<project>/<name>`. */
  source: string;
  /** Its project (`p_…`). */
  projectId: string;
  /** The parts its Pulumi name is made of, most significant first (see `names.ts`). */
  nameParts: string[];
  /** The provider's inputs (the program's camelCase names), when known: what a generated program declares. */
  inputs?: Record<string, unknown>;
  /** From a Terraform state: the attribute each input is held under there (`host_set_ids` → hostSetIds's). */
  attributes?: Record<string, string>;
}

/** Something found and left out, and why. */
export interface Skipped {
  what: string;
  why: string;
}

/** An attribute of a Target that this provider has no input for: reported, never dropped silently. */
export interface Unexpressed {
  /** The Target it belongs to (its source). */
  source: string;
  attribute: string;
  value: unknown;
}

/** Resources of a Terraform state that are not Targets (`boundary_host_catalog_static`, …): they stay in Terraform. */
export interface Staying {
  type: string;
  /** Its instances in the state. */
  count: number;
}

/** An attribute whose value in a Terraform state is not the controller's (`--live`): one line of the summary. */
export interface Difference {
  /** The Target's address in the state. */
  source: string;
  /** The attribute as the state holds it (`application_credential_library_ids`). */
  attribute: string;
  /** The input it maps to (the program's name, `applicationCredentialLibraryIds`). */
  input: string;
  state: unknown;
  live: unknown;
}

/** What one run found. */
export interface Discovery {
  /** What was read, for the summary: `scope global (recursive)`, `terraform.tfstate`. */
  origin: string;
  targets: FoundTarget[];
  skipped: Skipped[];
  unexpressed: Unexpressed[];
  /** From a Terraform state: its other `boundary_*` resources, by type. */
  staying?: Staying[];
  /** From a Terraform state: whose values the inputs are, the state's or the controller's (`--live`). */
  values?: "state" | "live";
  /** With `--live`: where the state and the controller differ. */
  differences?: Difference[];
}

export { ImportInputError } from "./errors";
