/**
 * Reads a Terraform state (format version 4, Terraform 0.12 and later) for the Targets
 * terraform-provider-boundary manages: every instance of every `boundary_target` resource, in the
 * root module or any module, `count` and `for_each` keys included. Each attribute of its schema
 * (`internal/provider/resource_target.go`) maps to one input of this provider; the names are
 * derived from the field table (the current wire names: `host_source_ids`, `default_port`, …), so
 * a field added there is read here too. An id list is also read under the names earlier releases
 * of terraform-provider-boundary gave it (each release's `resource_target.go` at its tag): up to
 * v1.0.5 `host_set_ids` and `application_credential_library_ids` (v1.0.5 also has the newer names,
 * one of each pair set), v1.0.5 to v1.0.12 `application_credential_source_ids`, from v1.0.12
 * `brokered_credential_source_ids`. An attribute holding a value with no input here is reported by
 * name. The state's other `boundary_*` resources are counted: they stay in Terraform.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { INPUT_FIELDS, spec, type InputField } from "../../wire/target-fields";
import { ImportInputError, type Discovery, type FoundTarget, type Skipped, type Unexpressed } from "./discovery";
import { unset } from "./values";

/** terraform-provider-boundary's resource type for a Target. */
export const TERRAFORM_TYPE = "boundary_target";

/** The Terraform attribute of each input: its name on the current wire (association lists under their current names). */
export const TERRAFORM_ATTRIBUTES: ReadonlyMap<string, InputField> = new Map(
  INPUT_FIELDS.map((f) => [spec(f).association?.current.wire ?? spec(f).wire.split(".").pop()!, f]),
);

/**
 * The id lists' names in earlier releases of terraform-provider-boundary, which were Boundary's
 * names in those releases (`host_set_ids`, `application_credential_library_ids`,
 * `application_credential_source_ids`): a state written then holds them, and they mean the same list.
 */
export const EARLIER_TERRAFORM_ATTRIBUTES: ReadonlyMap<string, InputField> = new Map(
  INPUT_FIELDS.flatMap((f) => {
    const a = spec(f).association;
    return a ? [spec(f).wire, ...(a.current.earlier ? [a.current.earlier.wire] : [])].map((w) => [w, f] as const) : [];
  }),
);

/** An attribute's input: under its current name or an earlier one. */
function inputOf(attribute: string): InputField | undefined {
  return TERRAFORM_ATTRIBUTES.get(attribute) ?? EARLIER_TERRAFORM_ATTRIBUTES.get(attribute);
}

const Instance = z.looseObject({
  index_key: z.union([z.number(), z.string()]).optional(),
  deposed: z.string().optional(),
  status: z.string().optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
const Resource = z.looseObject({
  module: z.string().optional(),
  mode: z.string(),
  type: z.string(),
  name: z.string(),
  instances: z.array(Instance).default([]),
});
const State = z.looseObject({ version: z.number(), resources: z.array(Resource).default([]) });

/** A Terraform address part: `web`, `web[0]`, `web["eu"]`. */
function indexed(name: string, key: number | string | undefined): string {
  return key === undefined ? name : `${name}[${JSON.stringify(key)}]`;
}

/**
 * The Targets of the state file at `file`. Throws ImportInputError naming the file and what to do:
 * missing or unreadable, not JSON, another format version, no `boundary_target` in it.
 */
export function readTerraformState(file: string): Discovery {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : `cannot be read (${code ?? (err as Error).message})`;
    throw new ImportInputError(
      `--from-terraform ${file}: ${why}: give the path of a Terraform state file ` +
        "(with a remote backend, `terraform state pull > terraform.tfstate` writes one)",
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ImportInputError(
      `--from-terraform ${file}: is not JSON: a Terraform state file is JSON (\`terraform state pull > terraform.tfstate\` writes one)`,
    );
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== 4) {
    throw new ImportInputError(
      `--from-terraform ${file}: state format version ${JSON.stringify(version ?? null)}; this command reads version 4 (Terraform 0.12 and later): ` +
        "run `terraform state pull > terraform.tfstate` with Terraform 0.12 or later, which writes version 4",
    );
  }
  const parsed = State.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImportInputError(`--from-terraform ${file}: ${issue.path.join(".")} ${issue.message}: not a Terraform state as Terraform writes it`);
  }
  const targets: FoundTarget[] = [];
  const skipped: Skipped[] = [];
  const unexpressed: Unexpressed[] = [];
  const types = new Map<string, number>();
  const staying = new Map<string, number>();
  for (const r of parsed.data.resources) {
    const kind = r.mode === "data" ? `data.${r.type}` : r.type;
    types.set(kind, (types.get(kind) ?? 0) + 1);
    if (r.mode === "managed" && r.type.startsWith("boundary_") && r.type !== TERRAFORM_TYPE) {
      staying.set(r.type, (staying.get(r.type) ?? 0) + r.instances.filter((i) => !i.deposed).length);
    }
    if (r.type !== TERRAFORM_TYPE) continue;
    const modules = r.module ? r.module.split(/\.?module\./).filter(Boolean) : [];
    const base = `${r.module ? `${r.module}.` : ""}${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
    if (r.mode !== "managed") {
      skipped.push({ what: base, why: "a data source: Terraform reads it, it manages nothing" });
      continue;
    }
    for (const inst of r.instances) {
      const address = `${r.module ? `${r.module}.` : ""}${r.type}.${indexed(r.name, inst.index_key)}`;
      if (inst.deposed) {
        skipped.push({ what: `${address} (deposed ${inst.deposed})`, why: "a deposed object Terraform is about to delete" });
        continue;
      }
      const attrs = inst.attributes ?? {};
      const id = attrs.id;
      if (typeof id !== "string" || id === "") {
        skipped.push({ what: address, why: "no id in the state (never created)" });
        continue;
      }
      if (inst.status === "tainted") {
        skipped.push({
          what: `${address} (${id}, tainted)`,
          why:
            "Terraform holds it as damaged (a create that failed halfway, or `terraform taint`) and would replace it: " +
            `check it, then \`terraform untaint '${address}'\` and run this again to adopt it, or let Terraform replace it first`,
        });
        continue;
      }
      const inputs: Record<string, unknown> = {};
      // the attribute each input is held under (the set one, where v1.0.5 has two names for a list)
      const attributes: Record<string, string> = {};
      for (const [attribute, value] of Object.entries(attrs).sort(([a], [b]) => a.localeCompare(b))) {
        if (attribute === "id") continue;
        const field = inputOf(attribute);
        if (field && (attributes[field] === undefined || !unset(field, value))) attributes[field] = attribute;
        if (unset(field, value)) continue;
        if (!field) unexpressed.push({ source: address, attribute, value });
        // a list under its earlier and its current name (v1.0.5 has both; one is set): one list
        else if (Array.isArray(value)) inputs[field] = [...new Set([...((inputs[field] as unknown[] | undefined) ?? []), ...value])].sort();
        else inputs[field] = value;
      }
      const key = inst.index_key === undefined ? [] : [String(inst.index_key)];
      targets.push({
        id,
        source: address,
        projectId: typeof attrs.scope_id === "string" ? attrs.scope_id : "",
        nameParts: [...modules, r.name, ...key],
        inputs: ordered(inputs),
        attributes,
      });
    }
  }
  if (targets.length === 0) {
    const found = [...types].map(([t, n]) => `${n} ${t}`).join(", ") + skipped.map((s) => `; skipped ${s.what}: ${s.why}`).join("") || "no resource at all";
    throw new ImportInputError(
      `--from-terraform ${file}: holds no ${TERRAFORM_TYPE} to adopt (it has ${found}): ` +
        "give the state of the Terraform configuration that manages your Targets",
    );
  }
  const stay = [...staying].filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b));
  return { origin: file, targets, skipped, unexpressed, values: "state", staying: stay.map(([type, count]) => ({ type, count })) };
}

/** Inputs in the field table's order (what a generated program lists). */
export function ordered(inputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(INPUT_FIELDS.filter((f) => inputs[f] !== undefined).map((f) => [f, inputs[f]]));
}
