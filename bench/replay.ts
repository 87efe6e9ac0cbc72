/**
 * What a Target's create and update one field compute in this package, replayed in one process
 * with no network (no controller, no host): check; the answer parsed and the state built; check of
 * the changed inputs; diff; the update's checks and plan (as `previewUpdate` makes them); the PATCH
 * rendered; its answer parsed; the state after it. N Targets (argv, default 300), cold, as the host
 * runs them. Its use is an instruction count, which the machine's load does not move:
 *
 *   valgrind --tool=callgrind node --single-threaded --predictable --hash-seed=1 --random-seed=1 dist/bench/replay.js 300
 *
 * minus the same with 0 Targets (the process's start); two runs of one build agree within 0.01%.
 */
import { check, diff } from "../provider/resource/dynamic";
import { TargetCore } from "../provider/resource/core";
import { callsFor, changes, wireCall } from "../provider/resource/plan";
import { managedFields, stateAfterChange, stateFromTarget } from "../provider/resource/state";
import { exactParse } from "../wire/exact-check";
import { Target } from "../wire/target";

const PROJECT = "p_1234567890";
/** What the host carries in every Target's inputs and outputs (its size, not its text, matters here). */
const PROVIDER = "x".repeat(263);

/** A copy, as the host hands every step new objects (its Struct conversions). */
const copy = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;

/** The controller's answer for Target `i` at `version`, as the bench's controller writes it. */
function answer(i: number, version: number, description: string): string {
  return JSON.stringify({
    id: `ttcp_${String(i).padStart(10, "0")}`,
    scope_id: PROJECT,
    scope: { id: PROJECT, type: "project", name: "Generated project scope", parent_scope_id: "o_1234567890" },
    name: `replay-${i}`,
    description,
    created_time: "2026-11-27T23:49:21.341Z",
    updated_time: "2026-11-27T23:49:21.424Z",
    version,
    type: "tcp",
    session_max_seconds: 28800,
    session_connection_limit: 1,
    authorized_actions: ["no-op", "read", "update", "delete", "add-host-sets", "set-host-sets", "remove-host-sets", "authorize-session"],
  });
}

/** The replay of `n` Targets. */
export async function replay(n: number): Promise<void> {
  // no call is made: the address is never dialled
  const core = new TargetCore({ addr: "http://127.0.0.1:9", token: "at_1234567890_s1bench" });
  for (let i = 0; i < n; i++) {
    const inputs = { ...(await check({}, { scopeId: PROJECT, name: `replay-${i}`, description: "v1", __provider: PROVIDER })).inputs, __provider: PROVIDER };
    const created = exactParse(Target, JSON.parse(answer(i, 1, "v1"))).data!;
    const outs = { ...stateFromTarget(created, managedFields(inputs)), __provider: PROVIDER };
    const changed = { ...(await check(copy(inputs), copy({ ...inputs, description: "v2" }))).inputs, __provider: PROVIDER };
    await diff(created.id, copy(outs), copy(changed));
    core.previewUpdate(copy(outs), copy(changed), { priorInputs: changed.__priorInputs as string[] });
    const state = copy(outs);
    for (const call of callsFor(state, changes(state, changed, {}))) wireCall(call, created.id, state.version, []);
    const updated = exactParse(Target, JSON.parse(answer(i, 2, "v2"))).data!;
    stateAfterChange(updated, state, managedFields(changed));
  }
}

if (require.main === module) void replay(Number(process.argv[2] ?? 300));
