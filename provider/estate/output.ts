/**
 * What `pulumi-boundary import` writes, as pure functions of what it found: Pulumi's bulk-import
 * file (`pulumi import --file`), a TypeScript program on the plugin route that adopts the same
 * Targets with the `import` resource option, and the human summary. Everything is sorted by
 * Pulumi name, so two runs over the same estate give the same bytes and a diff between two runs
 * shows what changed in the estate.
 */
import type { Discovery, FoundTarget } from "./discovery";
import { resourceNames } from "./names";
import { unset } from "./values";
import type { InputField } from "../../wire/target-fields";

/** The plugin route's resource type: the one resource `pulumi import` can adopt. */
export const TARGET_TYPE = "boundary:index:Target";

/** The TypeScript package `pulumi package add <this package>` generates for the plugin route. */
export const PLUGIN_SDK = "pulumi-boundary-sdk";

/** One resource of the bulk-import file. */
export interface ImportResource {
  type: typeof TARGET_TYPE;
  name: string;
  id: string;
}

/** Pulumi's bulk-import file: `{"resources": [{type, name, id}, …]}`. */
export interface ImportFile {
  resources: ImportResource[];
}

/** The Targets with their Pulumi names, sorted by name (then id). */
export function named(d: Discovery): { name: string; target: FoundTarget }[] {
  const names = resourceNames(d.targets);
  return d.targets
    .map((target) => ({ name: names.get(target.id)!, target }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.target.id < b.target.id ? -1 : 1));
}

/** The bulk-import file of what was found. */
export function importFile(d: Discovery): ImportFile {
  return { resources: named(d).map(({ name, target }) => ({ type: TARGET_TYPE, name, id: target.id })) };
}

/** The bulk-import file as written: two-space JSON and a final new line. */
export function importFileText(d: Discovery): string {
  return `${JSON.stringify(importFile(d), null, 2)}\n`;
}

/**
 * A TypeScript program declaring each Target with the inputs found and the `import` option: on the
 * plugin route, through the package `pulumi package add` generates (`pulumi-boundary-sdk`). Its
 * first `pulumi up` adopts them; the next preview shows no changes.
 */
export function typescriptProgram(d: Discovery, command: string): string {
  const lines = [
    `// Written by \`${command}\`: the Targets of ${d.origin}, adopted by the next \`pulumi up\`.`,
    `// On the plugin route (the route whose resources can be imported): in this program's folder,`,
    `// \`pulumi package add <path to the pulumi-boundary package>\` generates the package ${PLUGIN_SDK}.`,
    `// Each \`import\` option adopts an existing Target instead of creating one; once adopted, it can be removed.`,
    `import * as boundary from "${PLUGIN_SDK}";`,
    "",
  ];
  for (const { name, target } of named(d)) {
    lines.push(`// ${target.source}`);
    const inputs = Object.entries(target.inputs ?? {}).map(([k, v]) => `  ${k}: ${JSON.stringify(v)},`);
    lines.push(`new boundary.Target(${JSON.stringify(name)}, {`, ...inputs, `}, { import: ${JSON.stringify(target.id)} });`, "");
  }
  return lines.join("\n");
}

/**
 * The summary for stderr: how many, from where (by project), what was skipped and why, what cannot
 * be expressed; from a Terraform state also whose values were used (with `--live`, each difference
 * from the controller) and what stays in Terraform.
 */
export function summary(d: Discovery): string {
  const projects = new Map<string, number>();
  for (const t of d.targets) projects.set(t.projectId || "(no scope_id)", (projects.get(t.projectId || "(no scope_id)") ?? 0) + 1);
  const perProject = [...projects].sort(([a], [b]) => a.localeCompare(b)).map(([p, n]) => `${p} (${n})`);
  const lines = [`${d.targets.length} Target(s) from ${d.origin}, in ${projects.size} project(s): ${perProject.join(", ")}`];
  if (d.skipped.length === 0) lines.push("skipped: none");
  for (const s of d.skipped) lines.push(`skipped ${s.what}: ${s.why}`);
  for (const u of d.unexpressed) {
    lines.push(`not expressible: ${u.source}: ${u.attribute} = ${JSON.stringify(u.value)} (this provider has no input for it: not imported, left as it is)`);
  }
  for (const x of d.differences ?? []) {
    const [state, live] = [shown(x.input, x.state), shown(x.input, x.live)];
    const named = x.attribute === x.input ? x.attribute : `${x.attribute} (${x.input})`;
    lines.push(`differs: ${x.source}: ${named}: state ${state}, controller ${live} (the controller's value written)`);
  }
  if (d.values === "live") lines.push(`values: the controller's, read now (${(d.differences ?? []).length} difference(s) from the state)`);
  if (d.values === "state") {
    lines.push(
      "values: the state's, as Terraform last wrote them; a Target changed or deleted since is not seen: " +
        "run again with --live to read each one from the controller (BOUNDARY_ADDR, BOUNDARY_TOKEN), or `terraform apply -refresh-only` first",
    );
  }
  if (d.staying?.length) {
    lines.push(
      `staying in Terraform: ${d.staying.map((s) => `${s.count} ${s.type}`).join(", ")} ` +
        "(this command adopts Targets only: keep them in Terraform, and `terraform state rm` only the Targets' addresses)",
    );
  }
  return lines.join("\n") + "\n";
}

/** A value as a difference line shows it: JSON, or `(none)` where the side does not hold one. */
function shown(input: string, v: unknown): string {
  return unset(input as InputField, v) ? "(none)" : JSON.stringify(v);
}
