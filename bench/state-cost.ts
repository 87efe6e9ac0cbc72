/**
 * Why the host table's ratios are what they are: the cost of a Target's state in the conversions
 * Pulumi makes of it on every call (a protobuf Struct built and serialized by one side, parsed and
 * read back by the other), in process with the SDK's own google-protobuf, for this package's state
 * against the host bench's minimal floor's; and this package's own work on one refresh answer.
 */
import { performance } from "node:perf_hooks";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { TOKEN, benchController } from "./start";
import { TargetCore } from "../provider/resource/core";
import { inputsFromState, stateFromTarget } from "../provider/resource/state";
import { Target } from "../wire/target";

const PROJECT = "p_1234567890";

/** Microseconds per call of `fn`, after a warm-up. */
function perCall(fn: () => unknown, n = 20_000): number {
  for (let i = 0; i < n / 10; i++) fn();
  const started = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - started) / n) * 1000;
}

/** Rows: each conversion for the floor's state and this package's, and this package's refresh work. */
export async function benchStateCost(providerBytes: number): Promise<string[][]> {
  const c = await benchController();
  const core = new TargetCore({ addr: c.apiUrl, token: TOKEN });
  try {
    const { id, state } = await core.create({ scopeId: PROJECT, name: "state-cost", description: "v1" });
    const answer = await (await fetch(`${c.apiUrl}/v1/targets/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    // both as the engine stores them: with the serialized provider
    const __provider = "x".repeat(providerBytes);
    const ours = { ...state, __provider };
    const floor = { scopeId: PROJECT, name: "state-cost", description: "v1", version: state.version, __provider };
    const encode = (o: object) => () => Struct.fromJavaScript(o as Record<string, never>).serializeBinary();
    const decode = (o: object) => {
      const bytes = Struct.fromJavaScript(o as Record<string, never>).serializeBinary();
      return () => Struct.deserializeBinary(bytes).toJavaScript();
    };
    const row = (name: string, f: (o: object) => () => unknown) => {
      const [a, b] = [perCall(f(floor)), perCall(f(ours))];
      return [name, a.toFixed(1), b.toFixed(1), (b / a).toFixed(1)];
    };
    const refresh = perCall(() => {
      const s = stateFromTarget(Target.parse(JSON.parse(answer)), state.__managed);
      return inputsFromState(s);
    });
    return [
      row("build and serialize the Struct", encode),
      row("parse the Struct and read it back", decode),
      ["this package's work on a refresh answer (JSON, zod, state, inputs)", "", refresh.toFixed(1), ""],
    ];
  } finally {
    await core.client.close();
    await c.shutdown();
  }
}
