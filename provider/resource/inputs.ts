/**
 * The Target's inputs as a Pulumi program writes them: `checkInputs`, which takes valid inputs by
 * the field table's plain tests and turns the zod schema's issues (`input-schema.ts`) on the others
 * into Pulumi check failures. Values not yet known during a preview are skipped, never guessed.
 */
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import type { z } from "zod";
import { hasAnyIdPrefix } from "../../common/rules";
import { looseName, nearestName } from "../../common/nearest";
import { anyReleasePrefixes } from "../../wire/releases";
import { INPUT_FIELDS, TARGET_FIELDS, programMustSet, spec, type FieldSpec, type InputField } from "../../wire/target-fields";

export type { TargetInputs } from "./input-schema";

/** What the engine sends for a value that is not known yet (during preview): the SDK's own sentinel. */
export const UNKNOWN: string = unknownValue;

/** The inputs' zod schema with every field optional (`input-schema.ts`), loaded at the first inputs that fail (see `failuresOf`). */
let partialInputs: z.ZodType | undefined;

/** `input-schema.ts`, loaded at its first use: building its schemas was a tenth of the package's own load, and valid inputs never need them. */
function inputSchemaModule(): typeof import("./input-schema") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./input-schema") as typeof import("./input-schema");
}

/**
 * A field's input as a plain test, from the same table entries as `inputSchema`: true exactly when
 * its schema takes the value without an issue (its kind, its values, its ids' kinds, its rule).
 * Inputs every field of which passes are taken without zod, which parses (and words) only what
 * fails: most checks, and every changed input's first, see valid inputs.
 */
function inputTest(f: FieldSpec, name: InputField): (v: unknown) => boolean {
  const check = f.check as ((v: unknown) => string | undefined) | undefined;
  const rule = (v: unknown) => check === undefined || !check(v);
  switch (f.kind) {
    case "string":
      return (v) => typeof v === "string" && rule(v);
    case "integer":
      // zod's int(): a safe integer
      return (v) => Number.isSafeInteger(v) && rule(v);
    case "boolean":
      return (v) => typeof v === "boolean" && rule(v);
    case "enum": {
      const values: readonly unknown[] = f.values ?? [];
      return (v) => values.includes(v) && rule(v);
    }
    case "ids": {
      const prefixes = f.association ? anyReleasePrefixes(name) : undefined;
      return (v) => Array.isArray(v) && v.every((id) => typeof id === "string" && (!prefixes || hasAnyIdPrefix(id, prefixes))) && rule(v);
    }
    default:
      return () => false;
  }
}
/** Each input field's plain test (`inputTest`). */
const INPUT_TESTS: ReadonlyMap<string, (v: unknown) => boolean> = new Map(INPUT_FIELDS.map((f) => [f, inputTest(TARGET_FIELDS[f], f)]));

/** True when `PartialInputs` (`input-schema.ts`) takes the known values without an issue (every key an input, every value passing its field's test). */
export function inputsPass(known: Record<string, unknown>): boolean {
  for (const k in known) if (!Object.hasOwn(known, k) || !INPUT_TESTS.get(k)?.(known[k])) return false;
  return true;
}

/** The fields Boundary trims, found once (this runs on every check, diff, create and update). */
const TRIMMED_FIELDS = INPUT_FIELDS.filter((f) => spec(f).trim);

/** The inputs with the fields Boundary trims trimmed (the same object when none needs it). */
function trimmed(news: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const f of TRIMMED_FIELDS) {
    const v = news[f];
    if (typeof v !== "string" || v === UNKNOWN) continue;
    const t = v.trim();
    if (t !== v) (out ??= { ...news })[f] = t;
  }
  return out ?? news;
}

/** A failure Pulumi shows against one property. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** True for the unknown sentinel, or a list holding one. */
export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN || (Array.isArray(v) && v.some((e) => e === UNKNOWN));
}

/** A value that sets something: not absent, not "" (unset), not an empty list. */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && v.length === 0);
}

/**
 * The input (or other name `among`) a misspelt key most likely meant, or undefined when none is close: compared without
 * case and separators (`host_set_ids`, `HostSetIds`), by edit distance, within about a third of the
 * key's length.
 */
export function closestInput(key: string, among: readonly string[] = INPUT_FIELDS): string | undefined {
  return nearestName(key, among, looseName);
}

/** Pulumi's property path syntax: `hostSetIds[1]`. */
function propertyPath(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
}

/**
 * Validates program inputs. Unknown values (preview) are not checked; `__provider` and other
 * `__` keys the SDK adds are ignored. Returns the inputs as the controller will hold them: trimmed
 * where Boundary trims (so state never differs from the server by white space), and otherwise
 * unchanged: no defaults are injected, so the state records exactly what the program wrote.
 */
export function checkInputs(given: Record<string, unknown>): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const news = trimmed(given);
  const known: Record<string, unknown> = {};
  const pending = new Set<string>();
  // the own keys as Object.entries lists them, without its array of pairs (this runs on every check, diff, create and update)
  for (const k in news) {
    if (!Object.hasOwn(news, k)) continue;
    const v = news[k];
    if (k.startsWith("__") || v === undefined) continue;
    if (v === UNKNOWN) pending.add(k);
    else known[k] = v;
  }
  // the same inputs are checked on check, then again on diff, create and update: their failures are kept
  const key = memoKey(known, pending);
  const kept = key === undefined ? undefined : CHECKED.get(key);
  if (kept) return { inputs: news, failures: kept.map((f) => ({ ...f })) };
  const failures = failuresOf(known, pending);
  if (key !== undefined) {
    if (CHECKED.size >= CHECKED_MAX) CHECKED.delete(CHECKED.keys().next().value!);
    CHECKED.set(key, Object.freeze(failures.map((f) => Object.freeze({ ...f }))));
  }
  return { inputs: news, failures };
}

/**
 * The failures of the known values (`pending`: the fields whose value is not known yet). A pure
 * function of its arguments (the schema and the field table do not change): `checkInputs` keeps its answers.
 */
function failuresOf(known: Record<string, unknown>, pending: ReadonlySet<string>): CheckFailure[] {
  // zod only for inputs that fail: its issues word the failures
  const parsed = inputsPass(known) ? undefined : (partialInputs ??= inputSchemaModule().PartialInputs).safeParse(known);
  const failures: CheckFailure[] = [];
  for (const issue of parsed === undefined || parsed.success ? [] : parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const near = closestInput(key);
        failures.push({ property: key, reason: `${key} is not an input of boundary:Target${near ? `: did you mean ${near}?` : ""}` });
      }
      continue;
    }
    const value = issue.path.reduce<unknown>((v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key], known);
    if (value === UNKNOWN) continue; // an element not known yet
    const property = propertyPath(issue.path) || "(inputs)";
    failures.push({ property, reason: `${property} ${issue.message}` });
  }
  for (let i = 0; i < INPUT_FIELDS.length; i++) {
    const f = INPUT_FIELDS[i]!;
    if (programMustSet(f) && known[f] === undefined && !pending.has(f)) failures.push({ property: f, reason: `${f} is required` });
    const excludes = spec(f).excludes;
    const other = excludes?.fields.find((o) => isSet(known[o]));
    if (other && isSet(known[f])) failures.push({ property: f, reason: `${f} and ${other} exclude each other: ${excludes!.why}` });
  }
  return failures;
}

/** `checkInputs`' kept answers: the failures (frozen; each caller gets copies) by `memoKey`, the oldest let go past CHECKED_MAX. */
const CHECKED = new Map<string, readonly CheckFailure[]>();
/** Enough for the Targets a deploy works on at once (Pulumi's --parallel), each checked on check, then on diff, create or update. */
const CHECKED_MAX = 1024;

/**
 * A key that tells the inputs apart exactly: their JSON, when every value is of a kind JSON
 * writes one way only (a string, a finite number, a boolean, a list of strings); otherwise none
 * (not kept), so that no two different inputs can share one.
 */
function memoKey(known: Record<string, unknown>, pending: ReadonlySet<string>): string | undefined {
  for (const k in known) {
    const v = known[k];
    const plain =
      typeof v === "string" ||
      typeof v === "boolean" ||
      (typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0)) ||
      (Array.isArray(v) && v.every((e) => typeof e === "string"));
    if (!plain) return undefined;
  }
  return JSON.stringify([known, [...pending]]);
}
