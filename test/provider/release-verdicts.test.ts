/**
 * The release verdicts on the inputs (`generationFailures`, `needsGeneration`) ask one release of
 * each kind per field, not every release: they must say exactly what asking every release says.
 * Held here against that reference, over every field's telling values (set, unset, of a kind only
 * some releases take), with and without state, over every run of consecutive releases and sets of
 * releases picked at random.
 */
import { generationFailures, needsGeneration, refusal } from "../../provider/resource/generation";
import type { TargetInputs } from "../../provider/resource/inputs";
import type { TargetState } from "../../provider/resource/state";
import { BOUNDARY_RELEASES, RELEASES, anyReleasePrefixes, type Release } from "../../wire/releases";
import { INPUT_FIELDS, LIST_FIELDS, type InputField } from "../../wire/target-fields";

/** Values worth trying per field: unset, ordinary, and what only some releases take. */
function candidates(f: InputField): unknown[] {
  if ((LIST_FIELDS as readonly string[]).includes(f)) return [undefined, [], ...anyReleasePrefixes(f).map((p) => [`${p}1234567890`]), ["nope_1234567890"]];
  switch (f) {
    case "type":
      return [undefined, "tcp", "ssh", "rdp"];
    case "description":
      return [undefined, "", "one line", "two\nlines", "a\ttab"];
    case "sessionMaxSeconds":
    case "sessionConnectionLimit":
    case "defaultPort":
    case "defaultClientPort":
      return [undefined, 22];
    default:
      return [undefined, "", "x"];
  }
}

/** A seeded generator, so a failure is the same on every run. */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** The reference: every release asked; a failure where all give the same refusal. */
function expectedFailures(inputs: Partial<TargetInputs>, releases: readonly Release[], state: TargetState | undefined, stateless: boolean): string[] {
  return INPUT_FIELDS.filter((f) => {
    const verdicts = new Set(releases.map((r) => refusal(r, f, inputs, state)));
    if (verdicts.size !== 1) return false;
    const [v] = [...verdicts];
    return v !== undefined && !(stateless && (v === "required" || v === "replaced"));
  });
}

function releaseSets(next: () => number): (readonly Release[])[] {
  const sets: (readonly Release[])[] = [RELEASES, BOUNDARY_RELEASES];
  for (let i = 0; i < RELEASES.length; i++) for (let j = i + 1; j <= RELEASES.length; j++) sets.push(RELEASES.slice(i, j));
  for (let k = 0; k < 40; k++) sets.push(RELEASES.filter(() => next() < 0.5));
  return sets.filter((s) => s.length > 0);
}

test("the verdicts asked of one release per kind are those of every release, for every field's telling values", () => {
  const next = random(34);
  const sets = releaseSets(next);
  let compared = 0;
  const mismatches: unknown[] = [];
  for (let round = 0; round < 150; round++) {
    const inputs: Record<string, unknown> = {};
    for (const f of INPUT_FIELDS) {
      const values = candidates(f);
      const v = values[Math.floor(next() * values.length)];
      if (v !== undefined) inputs[f] = v;
    }
    const managed = INPUT_FIELDS.filter(() => next() < 0.5);
    const state = next() < 0.5 ? undefined : ({ __managed: managed, workerFilter: next() < 0.5 ? "x" : undefined } as unknown as TargetState);
    for (const releases of sets) {
      const stateless = state === undefined && next() < 0.5;
      const got = generationFailures(inputs, releases, state, { stateless }).map((f) => f.property);
      const expected = expectedFailures(inputs, releases, state, stateless);
      if (got.join() !== expected.join()) mismatches.push({ inputs, state, releases: releases.map((r) => r.release), got, expected });
      compared++;
    }
    const needs = INPUT_FIELDS.some((f) => inputs[f] !== undefined && new Set(BOUNDARY_RELEASES.map((r) => refusal(r, f, inputs, undefined))).size > 1);
    expect(needsGeneration(inputs)).toBe(needs);
  }
  expect(mismatches.slice(0, 3)).toEqual([]);
  expect(compared).toBeGreaterThan(10_000);
});

test("the verdicts keep telling releases apart where the table does (a field some releases lack, a value only later ones take)", () => {
  // guards the test above against a reference that never differs: these inputs split the releases
  expect(generationFailures({ egressWorkerFilter: "x" }, RELEASES.slice(0, 3)).map((f) => f.property)).toEqual(["egressWorkerFilter"]);
  expect(generationFailures({ egressWorkerFilter: "x" }, RELEASES).map((f) => f.property)).toEqual([]);
  expect(generationFailures({ type: "ssh" }, RELEASES.slice(0, 3)).map((f) => f.property)).toEqual(["type"]);
  expect(needsGeneration({ type: "ssh" })).toBe(true);
  expect(needsGeneration({ name: "x" })).toBe(false);
});

test("lists of the same releases made anew are judged alike, and rows of the same names but other facts on their own facts", () => {
  const old = RELEASES.slice(0, 3);
  expect(generationFailures({ egressWorkerFilter: "x" }, [...old]).map((f) => f.property)).toEqual(["egressWorkerFilter"]);
  expect(generationFailures({ egressWorkerFilter: "x" }, [...old]).map((f) => f.property)).toEqual(["egressWorkerFilter"]);
  // rows named as the old ones that know the field (a test's own table): asked of their own facts, not the kept kinds'
  const knowing = old.map((r) => ({ ...r, fields: [...r.fields, "egressWorkerFilter"] }) as Release);
  expect(generationFailures({ egressWorkerFilter: "x" }, knowing).map((f) => f.property)).toEqual([]);
  expect(generationFailures({ egressWorkerFilter: "x" }, [...old]).map((f) => f.property)).toEqual(["egressWorkerFilter"]);
});
