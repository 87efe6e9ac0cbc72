/**
 * Creating a Target, with its effects in order: one POST (never sent twice), then the lists the POST
 * did not apply. When the POST's answer does not prove the Target was not made, the controller is
 * asked (the decisions are `recovery.ts`'s), and the outcome is always one of: recorded (adopted,
 * or a partial failure carrying its id), not made, or a Target of our name that is not ours and
 * is left alone, each said in plain words.
 */
import type { Target } from "../../wire/target";
import { spec, type InputField } from "../../wire/target-fields";
import { BoundaryApiError, CancelledError, DeadlineError, TransportError, findTargets, type BoundaryClient, type Operation } from "../client";
import { applyPlan } from "./apply";
import { clause, CreateNotAppliedError, CreateOutcomeUnknownError, NameTakenError, PlanError, ResourceInitError, TargetNotAdoptedError } from "./errors";
import { droppedFields } from "./generation";
import type { TargetInputs } from "./inputs";
import { createRequest, planUpdate } from "./plan";
import { createOutcome, creationWindow, isNameTaken, judgeCandidate } from "./recovery";
import { stateFromTarget, managedFields, type TargetState } from "./state";

/** Time the POST leaves at the end of the operation's budget, so a lost answer can still be looked for. */
const LOOKUP_RESERVE_MS = 1000;
/** What the lookup may take after a Cancel (or once the budget is spent): the outcome must be recorded. */
const LOOKUP_GRACE_MS = 1000;

/**
 * Creates the Target under `op` and applies what the POST did not. A failure once the Target exists
 * is a ResourceInitError carrying its id and state; see the module comment for the rest.
 */
export async function createTarget(
  client: BoundaryClient,
  op: Operation,
  inputs: TargetInputs,
  warn: (m: string) => void,
): Promise<{ id: string; state: TargetState }> {
  const managed = managedFields(inputs);
  // the lists go in the POST only to a controller that may apply them there (the release table's createAppliesLists: the spec's)
  const asked = createRequest(
    inputs,
    client.releases.some((r) => r.createAppliesLists),
  );
  const post = op.reserving(LOOKUP_RESERVE_MS);
  let created: Target;
  try {
    created = await client.within(post).createTarget(asked);
  } catch (err) {
    const outcome = createOutcome(err);
    if (outcome === "foreign") throw err;
    if (outcome === "refused")
      throw isNameTaken(err) ? new NameTakenError(inputs.scopeId, inputs.name ?? "", await nameHolder(client, inputs), err as Error) : err;
    created = await findCreated(client, op, post.lastSentAt, asked, inputs, err as Error);
    const found = `it was created as ${created.id} and is recorded in the stack.`;
    if (op.cancelled)
      throw new ResourceInitError(created.id, stateFromTarget(created, managed), [
        `creating target ${JSON.stringify(inputs.name)} was cancelled after the controller made it: ${found} The next \`pulumi up\` finishes it.`,
      ]);
    warn(`creating target ${JSON.stringify(inputs.name)}: ${(err as Error).message}; ${found}`);
  }
  let state = stateFromTarget(created, managed);
  // Lists the POST did not apply (Boundary ignores them on create) are set now. A field the POST
  // silently dropped (a release older than the field) no later call would keep: the answer check
  // below names it.
  const dropped = new Set(
    droppedFields(inputs, state)
      .filter((d) => !spec(d.property as InputField).association)
      .map((d) => d.property),
  );
  const planned = dropped.size === 0 ? inputs : (Object.fromEntries(Object.entries(inputs).filter(([f]) => !dropped.has(f))) as TargetInputs);
  try {
    const last = await applyPlan(client, created.id, created.version, planUpdate(state, planned));
    if (last) state = stateFromTarget(last, managed);
  } catch (err) {
    if (!(err instanceof PlanError)) throw err;
    if (err.last) state = stateFromTarget(err.last, managed);
    throw new ResourceInitError(created.id, state, [
      `target ${created.id} was created, but ${clause(err.message)}. ` +
        "It is recorded in the stack; the next `pulumi up` finishes it, `pulumi destroy` removes it.",
    ]);
  }
  const notKept = droppedFields(inputs, state);
  if (notKept.length > 0) {
    throw new ResourceInitError(created.id, state, [
      `target ${created.id} was created, but ${notKept.map((d) => d.reason).join("; ")}. It is recorded in the stack as the controller holds it.`,
    ]);
  }
  return { id: created.id, state };
}

/**
 * After an answer that leaves the create's outcome unknown: the Target our POST made, if the
 * controller shows one. A controller that stays away is asked again until the lookup's budget (what
 * is left of the operation, at most the client timeout; a short grace after a Cancel) is spent.
 * Throws CreateNotAppliedError when it shows none, TargetNotAdoptedError when the Target of our
 * name is not ours, CreateOutcomeUnknownError when it cannot be asked.
 */
async function findCreated(
  client: BoundaryClient,
  op: Operation,
  sentAt: number | undefined,
  asked: ReturnType<typeof createRequest>,
  inputs: TargetInputs,
  lost: Error,
): Promise<Target> {
  // as long as the client timeout at most, as the recovery always was
  const budget = op.afterwards(LOOKUP_GRACE_MS, client.settings.timeoutMs);
  const lookup = client.within(budget);
  const name = inputs.name ?? "";
  for (let attempt = 0; ; attempt++) {
    let answer;
    try {
      answer = await findTargets(lookup, { scopeId: inputs.scopeId, filter: `"/item/name" == ${JSON.stringify(name)}` });
    } catch (err) {
      const again =
        (err instanceof TransportError && !(err instanceof CancelledError) && !(err instanceof DeadlineError)) ||
        (err instanceof BoundaryApiError && err.status >= 500);
      // asked again until the budget is spent, the last wait cut to what is left
      const pause = Math.min(200 * 2 ** attempt, 2000, budget.remaining() - 1);
      if (!again || pause <= 0) throw new CreateOutcomeUnknownError(inputs.scopeId, name, lost, err);
      await budget
        .wait(pause, { method: "GET", path: "/v1/targets" }, () => "asking again whether the target was created")
        .catch(() => {
          throw new CreateOutcomeUnknownError(inputs.scopeId, name, lost, err);
        });
      continue;
    }
    const named = answer.targets.filter((t) => t.name === name);
    if (named.length === 0) throw new CreateNotAppliedError(inputs.scopeId, name, lost);
    const window = creationWindow(answer.controllerTime, sentAt);
    const verdicts = named.map((t) => ({ t, v: judgeCandidate(t, asked, window) }));
    const ours = verdicts.find((x) => x.v.ours);
    if (ours) return ours.t;
    const first = verdicts[0]!;
    throw new TargetNotAdoptedError(inputs.scopeId, name, first.t.id, first.v.ours ? [] : first.v.why, lost);
  }
}

/** The id of the Target holding a name Boundary refused as taken, if a lookup finds it (best effort). */
async function nameHolder(client: BoundaryClient, inputs: TargetInputs): Promise<string | undefined> {
  try {
    const found = await findTargets(client, { scopeId: inputs.scopeId, filter: `"/item/name" == ${JSON.stringify(inputs.name ?? "")}` });
    return found.targets.find((t) => t.name === inputs.name)?.id;
  } catch {
    return undefined;
  }
}
