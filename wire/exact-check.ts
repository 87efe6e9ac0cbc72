/**
 * A zod schema's fast path, for the schemas every step reads: a Target answer (`wire/target.ts`)
 * and a Target's state. `exactParse` first asks a plain function, compiled once per schema from the
 * schema's own definition, whether the value is one zod would take and give back unchanged (every
 * field of its kind, no default left to fill, no key a stripping object would drop); then the value
 * is the answer, as zod would have rebuilt it. Anything else (a value zod refuses, a default to
 * fill, a schema using a part not compiled here) goes through zod itself, whose result and words
 * stand. So the fast path never takes what zod refuses: it only skips zod's copy of what it takes.
 */
import type { z } from "zod";

/** True when zod would take the value and give back an equal one. */
type Exact = (v: unknown) => boolean;

/** The parts of zod's definition read here (zod v4's `_zod.def`). */
interface Def {
  type: string;
  checks?: { _zod: { def: { check?: string; format?: string } } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  entries?: Record<string, unknown>;
}
const defOf = (s: z.ZodType): Def => s._zod.def as Def;

/** A plain object (what JSON and Pulumi's Struct give), not an array. */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The exact check of a schema, or undefined when it uses a part not compiled here (then zod decides). */
export function exactCheck(schema: z.ZodType): Exact | undefined {
  const def = defOf(schema);
  const checks = def.checks ?? [];
  switch (def.type) {
    case "string":
      return checks.length === 0 ? (v) => typeof v === "string" : undefined;
    case "boolean":
      return (v) => typeof v === "boolean";
    case "number": {
      if (checks.length === 0) return (v) => typeof v === "number" && Number.isFinite(v);
      const only = checks.length === 1 ? checks[0]!._zod.def : undefined;
      return only?.check === "number_format" && only.format === "safeint" ? (v) => Number.isSafeInteger(v) : undefined;
    }
    case "enum": {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v);
    }
    case "optional": {
      const inner = exactCheck(def.innerType!);
      return inner && ((v) => v === undefined || inner(v));
    }
    case "default": {
      // undefined is zod's to fill with the default: not an exact value
      const inner = exactCheck(def.innerType!);
      return inner && ((v) => v !== undefined && inner(v));
    }
    case "array": {
      const element = checks.length === 0 ? exactCheck(def.element!) : undefined;
      if (!element) return undefined;
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case "object":
      return objectCheck(def);
    default:
      return undefined;
  }
}

/** An object's exact check: each key of its shape, and no extra key unless the object is loose (kept) rather than stripping. */
function objectCheck(def: Def): Exact | undefined {
  const loose = def.catchall !== undefined && defOf(def.catchall).type === "unknown";
  if ((def.catchall !== undefined && !loose) || (def.checks ?? []).length > 0) return undefined;
  const shape = def.shape ?? {};
  // two lists walked by index, not pairs by for…of: every answer and state goes through this loop, mostly
  // before V8 optimises it, where for…of's iterator and each pair's destructuring cost more than the checks
  const keys: string[] = [];
  const checks: Exact[] = [];
  for (const [key, s] of Object.entries(shape)) {
    const check = exactCheck(s);
    if (!check) return undefined;
    keys.push(key);
    checks.push(check);
  }
  const n = keys.length;
  return (v) => {
    if (!isRecord(v)) return false;
    for (let i = 0; i < n; i++) if (!checks[i]!(v[keys[i]!])) return false;
    if (!loose) for (const key of Object.keys(v)) if (!Object.hasOwn(shape, key)) return false;
    return true;
  };
}

/** Each schema's compiled check (null: zod decides every value). */
const COMPILED = new WeakMap<z.ZodType, Exact | null>();

/**
 * `schema.safeParse(value)`, without zod's copy when the value is exactly one zod takes unchanged
 * (see the module comment): the same success and data, or zod's own result.
 */
export function exactParse<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.infer<S>> {
  let exact = COMPILED.get(schema);
  if (exact === undefined) COMPILED.set(schema, (exact = exactCheck(schema) ?? null));
  if (exact?.(value)) return { success: true, data: value as z.infer<S> };
  return schema.safeParse(value) as z.ZodSafeParseResult<z.infer<S>>;
}
