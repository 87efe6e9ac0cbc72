/**
 * What `terraform apply` with terraform-provider-boundary did before a team moves to Pulumi, for
 * the demo and the tests (no Terraform here): each `boundary_target` instance of a state file is
 * created on the controller as the Terraform provider creates it (a POST with its fields, then the
 * set actions for its lists), and the state is written back with the ids the controller assigned,
 * as Terraform records them.
 */
import { readFileSync } from "node:fs";
import { LIST_FIELDS, setPath, spec, type InputField, type ListField } from "../../wire/target-fields";
import type { BoundaryClient } from "../../provider/client";
import { readTerraformState } from "../../provider/estate/terraform";

/** Creates the Targets of the state at `file` through `client`; the state's text with the assigned ids. */
export async function applyTerraformState(file: string, client: BoundaryClient): Promise<string> {
  const found = readTerraformState(file);
  const assigned = new Map<string, string>();
  for (const t of found.targets) {
    const inputs = t.inputs ?? {};
    const body: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(inputs)) if (!LIST_FIELDS.includes(field as ListField)) setPath(body, spec(field as InputField).wire, value);
    let created = await client.createTarget(body as Parameters<BoundaryClient["createTarget"]>[0]);
    const lists = Object.fromEntries(LIST_FIELDS.filter((f) => inputs[f] !== undefined).map((f) => [f, inputs[f] as string[]]));
    if (lists.hostSetIds) created = await client.changeLists(created.id, created.version, "set", { hostSetIds: lists.hostSetIds });
    const { hostSetIds: _, ...credentials } = lists;
    if (Object.keys(credentials).length > 0) created = await client.changeLists(created.id, created.version, "set", credentials);
    assigned.set(t.id, created.id);
  }
  const state = JSON.parse(readFileSync(file, "utf8")) as { resources: { instances: { attributes?: { id?: string } }[] }[] };
  for (const r of state.resources)
    for (const i of r.instances) if (i.attributes?.id && assigned.has(i.attributes.id)) i.attributes.id = assigned.get(i.attributes.id);
  return `${JSON.stringify(state, null, 2)}\n`;
}
