/**
 * The fast path of the answer and state schemas (`wire/exact-check.ts`): a value it takes is one
 * zod takes and gives back equal, so skipping zod's copy changes nothing; any other value gets
 * zod's own result. Checked on a real controller's answers and the state built from them, on
 * thousands of their mutations, and on the parts of zod it leaves to zod.
 */
import fc from "fast-check";
import { z } from "zod";
import { exactCheck, exactParse } from "../../wire/exact-check";
import { Target, TargetList } from "../../wire/target";
import { TargetState, stateFromTarget } from "../../provider/resource/state";
import { startTestController, type TestController } from "../helpers/controller";

let c: TestController;
let answer: Record<string, unknown>;
let state: Record<string, unknown>;
beforeAll(async () => {
  c = await startTestController();
  answer = (await c.create({ description: "d", host_set_ids: ["hsst_1234567890"] })) as Record<string, unknown>;
  state = stateFromTarget(Target.parse(answer), ["scopeId", "name", "description", "hostSetIds"]) as Record<string, unknown>;
});
afterAll(() => c.shutdown());

/** exactParse agrees with zod: the same success, the same data (and zod's words when it refuses). */
function agrees(schema: z.ZodType, value: unknown): void {
  const zod = schema.safeParse(value);
  const fast = exactParse(schema, value);
  expect(fast.success).toBe(zod.success);
  if (zod.success) expect(fast.data).toEqual(zod.data);
  else expect(fast.error?.issues).toEqual(zod.error.issues);
}

/** A copy of `o` with one key (at the top or one level down) set to `v`, or removed when `v` is undefined. */
function mutated(o: Record<string, unknown>, path: string[], v: unknown): Record<string, unknown> {
  const copy = structuredClone(o);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== "object" || at[key] === null) return copy;
    at = at[key] as Record<string, unknown>;
  }
  if (v === undefined) delete at[path[path.length - 1]!];
  else at[path[path.length - 1]!] = v;
  return copy;
}

/** Paths into a value: its keys, its objects' keys, its arrays' first elements, and keys it lacks. */
function pathsOf(o: Record<string, unknown>): string[][] {
  const paths: string[][] = [["made_up"]];
  for (const [k, v] of Object.entries(o)) {
    paths.push([k]);
    if (Array.isArray(v)) paths.push([k, "0"]);
    else if (typeof v === "object" && v !== null) for (const inner of [...Object.keys(v), "made_up"]) paths.push([k, inner]);
  }
  return paths;
}

test("a real answer and the state built from it take the fast path: the very value, equal to what zod gives", () => {
  for (const [schema, value] of [
    [Target, answer],
    [TargetState, state],
  ] as const) {
    expect(exactCheck(schema)).toBeDefined();
    const parsed = exactParse(schema, value);
    expect(parsed.success && parsed.data).toBe(value);
    expect(parsed.data).toEqual(schema.parse(value));
  }
});

test("a real page of a paginated list (0.21, what List and import read 100 times for 100,000 Targets) takes the fast path, and so does an empty one", async () => {
  const paged = await startTestController({ emulation: "0.21" });
  try {
    for (let i = 0; i < 3; i++) await paged.create({ description: "d", host_set_ids: ["hsst_1234567890"] });
    const page = (await paged.call("GET", "/v1/targets?scope_id=global&recursive=true&page_size=2")).body as Record<string, unknown>;
    const empty = (await paged.call("GET", "/v1/targets?scope_id=p_0987654321")).body as Record<string, unknown>;
    expect([(page.items as unknown[]).length, page.response_type, empty.items]).toEqual([2, "delta", undefined]);
    expect(exactCheck(TargetList)).toBeDefined();
    for (const value of [page, empty]) {
      const parsed = exactParse(TargetList, value);
      expect(parsed.success && parsed.data).toBe(value);
      expect(parsed.data).toEqual(TargetList.parse(value));
    }
  } finally {
    await paged.shutdown();
  }
});

test("on thousands of mutations of them (a field of another kind, removed, added), the fast path and zod agree", () => {
  const value = fc.oneof(fc.constant(undefined), fc.jsonValue(), fc.constantFrom(-1, 1.5, 2 ** 60, "", "x", ["a", 1], { id: 1 }, null));
  for (const [schema, base] of [
    [Target, answer],
    [TargetState, state],
  ] as const) {
    const paths = pathsOf(base);
    fc.assert(
      fc.property(fc.constantFrom(...paths), value, (path, v) => agrees(schema, mutated(base, path, v))),
      { numRuns: 600 },
    );
  }
});

test("state without a field that has a default is zod's to fill: the fast path leaves it to zod", () => {
  const old = mutated(state, ["aliases"], undefined);
  const parsed = exactParse(TargetState, old);
  expect(parsed.success && parsed.data).not.toBe(old);
  expect(parsed.data).toEqual({ ...old, aliases: [] });
});

test("what it does not compile (refinements, transforms, string checks) and stripping objects' extra keys are zod's", () => {
  expect(exactCheck(z.string().min(1))).toBeUndefined();
  expect(exactCheck(z.string().transform((s) => s.length))).toBeUndefined();
  expect(exactCheck(z.object({ a: z.string().refine((s) => s !== "x") }))).toBeUndefined();
  const stripping = z.object({ a: z.string() });
  const extra = { a: "x", b: 1 };
  expect(exactParse(stripping, extra).data).toEqual({ a: "x" });
  agrees(stripping, extra);
  agrees(z.looseObject({ n: z.number().int() }), { n: 1.5 });
  agrees(z.looseObject({ n: z.number() }), { n: Infinity });
  agrees(z.array(z.enum(["a", "b"])), ["a", "c"]);
});
