/**
 * `import --from-terraform --live`: a state is often days old, so each Target it holds is read from
 * the controller as well (one GET each, through the provider's own client and settings: the same
 * BOUNDARY_ADDR, BOUNDARY_TOKEN, … as `--scope`). The controller's values replace the state's, so
 * the adoption plans no change; every attribute where the two differ is named, and a Target the
 * controller no longer has is named and left out. It only reads.
 */
import { BoundaryClient, NotFoundError, type BoundaryClientOptions } from "../client";
import { refusal } from "./refusal";
import { inputsFromState, stateFromTarget } from "../resource/state";
import { ImportInputError, type Difference, type Discovery, type FoundTarget, type Skipped } from "./discovery";
import { ordered, TERRAFORM_ATTRIBUTES } from "./terraform";
import { comparable } from "./values";
import type { InputField } from "../../wire/target-fields";

/** Each input's attribute in the current state shape (where the state does not hold the input at all). */
const CURRENT_ATTRIBUTE = new Map([...TERRAFORM_ATTRIBUTES].map(([attribute, field]) => [field as string, attribute]));

/**
 * Where `state` and `live` differ, input by input, in the field table's order, each named by the
 * attribute the state holds it under (`attributes`; else the current shape's name).
 */
export function differences(
  source: string,
  state: Record<string, unknown>,
  live: Record<string, unknown>,
  attributes: Record<string, string> = {},
): Difference[] {
  const fields = Object.keys(ordered({ ...state, ...live })) as InputField[];
  return fields
    .filter((f) => comparable(f, state[f]) !== comparable(f, live[f]))
    .map((input) => ({ source, attribute: attributes[input] ?? CURRENT_ATTRIBUTE.get(input) ?? input, input, state: state[input], live: live[input] }));
}

/**
 * `found` (read from a Terraform state) with each Target's inputs as the controller has them now,
 * the differences named, and the Targets the controller no longer has moved to `skipped`. Throws
 * ImportInputError for a refused token or one that may not read a Target; a controller that
 * cannot be reached is the client's error (one message naming the address and what to do).
 */
export async function readLive(found: Discovery, options: BoundaryClientOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Discovery> {
  const client = new BoundaryClient(options, env);
  const targets: FoundTarget[] = [];
  const gone: Skipped[] = [];
  const diffs: Difference[] = [];
  try {
    for (const t of found.targets) {
      let target;
      try {
        target = await client.getTarget(t.id);
      } catch (err) {
        if (err instanceof NotFoundError) {
          gone.push({
            what: `${t.source} (${t.id})`,
            why:
              "the controller has no such Target (deleted since the state was written): left out; " +
              `once you have checked, \`terraform state rm '${t.source}'\` takes it out of Terraform too`,
          });
          continue;
        }
        throw readFailure(t, err);
      }
      const live = ordered(inputsFromState(stateFromTarget(target, []), true));
      diffs.push(...differences(t.source, t.inputs ?? {}, live, t.attributes));
      targets.push({ ...t, projectId: target.scope_id ?? target.scope?.id ?? t.projectId, inputs: live });
    }
  } finally {
    await client.close();
  }
  if (targets.length === 0) {
    throw new ImportInputError(
      `--live: the controller has none of the ${found.targets.length} Target(s) of ${found.origin} (${found.targets.map((t) => t.id).join(", ")}): ` +
        "check that BOUNDARY_ADDR is the controller this state manages; if they were all deleted, there is nothing to adopt",
    );
  }
  return { ...found, targets, skipped: [...found.skipped, ...gone], values: "live", differences: diffs };
}

/** A read's failure as the setting it is about and what to do; anything else is passed on. */
function readFailure(t: FoundTarget, err: unknown): unknown {
  return (
    refusal(
      err,
      (said) =>
        `--live: the token may not read ${t.source} (${t.id}) ${said}: ` +
        "use a token whose role grants read on targets in that project, or leave out --live to use the state's values",
    ) ?? err
  );
}
