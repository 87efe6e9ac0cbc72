/**
 * The Target's inputs as a Pulumi program writes them (camelCase), their zod schema (the provider's
 * input contract) and `checkInputs`, which turns zod issues into Pulumi check failures. Values not
 * yet known during a preview are skipped, never guessed.
 */
import { z } from "zod";
import { FilterSyntaxError, parseFilter } from "../../wire/filter";
import { Prefix } from "../../wire/target";

/** What Pulumi sends for a value that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const MAX_INT32 = 2 ** 31 - 1;
const ids = (prefix: string, what: string) => z.array(z.string().regex(new RegExp(`^${prefix}[0-9A-Za-z]+$`), `must be a ${what} id starting with ${prefix}`));

export const TargetInputs = z
  .object({
    scopeId: z.string().regex(/^p_[0-9A-Za-z]+$/, "must be a project scope id (p_…): targets live in projects"),
    name: z.string().superRefine((s, ctx) => {
      const why =
        s.trim() === "" ? "must not be empty" : s !== s.trim() ? "must not start or end with white space" : /[\u0000-\u001f\u007f]/.test(s) ? "must contain printable characters only" : undefined;
      if (why) ctx.addIssue({ code: "custom", message: why });
    }),
    description: z.string().optional(),
    type: z.literal("tcp", { error: 'must be "tcp", the only target type' }).optional(),
    hostSetIds: ids(Prefix.hostSet, "host set").optional(),
    applicationCredentialLibraryIds: ids(Prefix.credentialLibrary, "credential library").optional(),
    sessionMaxSeconds: z.number().int("must be a whole number").positive("must be greater than zero").max(MAX_INT32).optional(),
    sessionConnectionLimit: z
      .number()
      .int("must be a whole number")
      .refine((v) => v === -1 || (v > 0 && v <= MAX_INT32), "must be -1 (unlimited) or greater than zero")
      .optional(),
    workerFilter: z
      .string()
      .superRefine((s, ctx) => {
        try {
          parseFilter(s);
        } catch (err) {
          if (err instanceof FilterSyntaxError) ctx.addIssue({ code: "custom", message: `is not a valid filter: ${err.message}` });
        }
      })
      .optional(),
    defaultPort: z.number().int("must be a whole number").min(1, "must be a port from 1 to 65535").max(65535, "must be a port from 1 to 65535").optional(),
  })
  .strict();
export type TargetInputs = z.infer<typeof TargetInputs>;

/** Every input field, in one place: diff, plan, state and read walk this list. */
export const INPUT_FIELDS = Object.keys(TargetInputs.shape) as (keyof TargetInputs)[];
export type InputField = (typeof INPUT_FIELDS)[number];

/** Fields whose change needs a new Target (Boundary cannot move a target or change its type). */
export const REPLACE_FIELDS: readonly InputField[] = ["scopeId", "type"];

export interface CheckFailure {
  property: string;
  reason: string;
}

export function isUnknown(v: unknown): boolean {
  return v === UNKNOWN || (Array.isArray(v) && v.some((e) => e === UNKNOWN));
}

/** Pulumi's property path syntax: `hostSetIds[1]`. */
function propertyPath(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
}

/**
 * Validates program inputs. Unknown values (preview) are not checked; `__provider` and other
 * `__` keys the SDK adds are ignored. Returns the inputs unchanged: no defaults are injected, so
 * the state records exactly what the program wrote.
 */
export function checkInputs(news: Record<string, unknown>): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const known: Record<string, unknown> = {};
  const unknownKeys: Partial<Record<InputField, true>> = {};
  for (const [k, v] of Object.entries(news)) {
    if (k.startsWith("__") || v === undefined) continue;
    if (v === UNKNOWN) unknownKeys[k as InputField] = true;
    else known[k] = v;
  }
  const parsed = TargetInputs.partial(unknownKeys as Record<InputField, true>).safeParse(known);
  const failures: CheckFailure[] = [];
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) failures.push({ property: key, reason: `${key} is not an input of boundary:Target` });
      continue;
    }
    const value = issue.path.reduce<unknown>((v, key) => (v as Record<PropertyKey, unknown> | undefined)?.[key], known);
    if (value === UNKNOWN) continue; // an element not known yet
    const property = propertyPath(issue.path) || "(inputs)";
    failures.push({ property, reason: `${property} ${value === undefined ? "is required" : issue.message}` });
  }
  return { inputs: news, failures };
}
