/**
 * What the offline engine reports: each resource's step, as the Pulumi CLI names it, the inputs
 * that differ, and the results of `up` and `preview`; and how it reads an Output's value.
 */
import * as pulumi from "@pulumi/pulumi";

/**
 * What a step did to one resource, as the CLI names it; `import` adopts an existing resource (the
 * `import` option); `skipped` is a resource not reached because an earlier step failed (the engine
 * starts no new step after a failure).
 */
export type StepOp = "create" | "import" | "update" | "replace" | "same" | "delete" | "refresh" | "skipped";
/** One input of a resource, before and after (an absent one is `undefined`). */
export interface FieldDiff {
  field: string;
  old: unknown;
  new: unknown;
}
/** One resource's step in a run: its logical name, what was (or would be) done, the inputs that differ, why it failed. */
export interface Step {
  name: string;
  op: StepOp;
  /** The inputs that change (update, replace) or that changed outside Pulumi (refresh). */
  diffs?: FieldDiff[];
  /** Why the step failed (the resource is recorded as the provider left it, if it exists). */
  failed?: string;
}

/** The result of `up`: the stack's outputs, the steps, and whether any step failed. */
export interface UpResult {
  outputs: Record<string, unknown>;
  steps: Step[];
  failed: boolean;
}

/** The result of `preview`: the steps it would take; with `expectNoChanges`, the CLI's error and exit code when it would change something. */
export interface PreviewResult {
  steps: Step[];
  changes: boolean;
  error?: string;
  /** What the Pulumi CLI exits with: 0, or 7 for changes under --expect-no-changes (its ExitNoChanges), or 1 for a failure. */
  exitCode: number;
}

/** The inputs whose values differ (the engine's `__` bookkeeping left out; id lists compared as sets). */
export function fieldDiffs(olds: Record<string, unknown>, news: Record<string, unknown>): FieldDiff[] {
  const comparable = (v: unknown) => JSON.stringify(Array.isArray(v) && v.every((x) => typeof x === "string") ? [...v].sort() : v);
  const fields = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((f) => !f.startsWith("__")).sort();
  return fields.filter((f) => comparable(olds[f]) !== comparable(news[f])).map((field) => ({ field, old: olds[field], new: news[field] }));
}

/**
 * The value of an Output once known: "[secret]" for a secret, "(unknown)" when a preview cannot
 * know it, "(failed: …)" when what it depends on failed. Never rejects, never waits forever.
 */
export async function settle<T>(o: pulumi.Output<T>): Promise<unknown> {
  try {
    if (await pulumi.isSecret(o)) return "[secret]";
    // as the SDK sends it to the engine: the unknown sentinel when a preview cannot know the value
    const value: unknown = await pulumi.runtime.serializeProperty("stack output", o);
    return value === pulumi.runtime.unknownValue ? "(unknown)" : value;
  } catch (err) {
    return `(failed: ${(err as Error).message})`;
  }
}
