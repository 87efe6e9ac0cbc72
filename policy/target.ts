/**
 * A Target as a policy sees it, whichever route registered it: recognised by its type, its fields
 * read by the field table's names, and each value either known (set or unset) or not known yet.
 *
 * The analyzer host (`@pulumi/policy`) hands a policy the properties behind a proxy that throws on
 * reading a value the engine marked unknown (during a preview, a value computed from another
 * resource's output). Left to throw, the host turns it into a "can't run policy during preview"
 * diagnostic; here each field is read on its own and an unknown one is just unknown, so a policy
 * claims nothing about it and still checks the fields that are known.
 */
import { trimSpace } from "../common/rules";
import { kindOf, type FieldKind } from "../wire/field-kinds";
import { spec, type InputField, type TargetFields, type ValueOf } from "../wire/target-fields";

/**
 * The types a Target registers as: the plugin's resource token, and the dynamic route's (the SDK
 * names a dynamic resource `pulumi-nodejs:dynamic/<module>:<type>`; the Target class passes
 * `boundary` and `Target`). The engine strips the dynamic route's `__provider` and other `__` keys
 * before analysis, so the type is all that tells a dynamic Target from any other dynamic resource.
 */
export const TARGET_TYPES = {
  plugin: "boundary:index:Target",
  dynamic: "pulumi-nodejs:dynamic/boundary:Target",
} as const;

/** The route a resource of `type` came by, or undefined when it is no Target. */
export function targetRoute(type: string): keyof typeof TARGET_TYPES | undefined {
  return type === TARGET_TYPES.plugin ? "plugin" : type === TARGET_TYPES.dynamic ? "dynamic" : undefined;
}

/** The engine's unknown sentinels (one per kind of value; a program's unknowns arrive as the string's). */
const UNKNOWN_SENTINELS: ReadonlySet<unknown> = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // bool
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421", // number
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9", // string (the SDK's `unknownValue`)
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", // array
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", // object
]);

/** A field's value as the policy may rely on it: known (undefined when unset) or not known yet. */
export type Read<T> = { known: true; value: T | undefined } | { known: false };

const NOT_KNOWN: Read<never> = { known: false };

/**
 * True for what the analyzer host's proxy throws on reading an unknown value (its
 * `UnknownValueError`, which the package does not export: recognised by the sentinel it carries).
 */
function isUnknownValueError(err: unknown): boolean {
  return err instanceof Error && "unknownTypeSentinel" in err;
}

/** Reads `key` of `o` (a proxy or a plain object); unknown when the read throws the host's error or yields a sentinel. */
function readKey(o: object, key: PropertyKey): Read<unknown> {
  try {
    const v: unknown = Reflect.get(o, key);
    return UNKNOWN_SENTINELS.has(v) ? NOT_KNOWN : { known: true, value: v };
  } catch (err) {
    if (isUnknownValueError(err)) return NOT_KNOWN;
    throw err;
  }
}

/**
 * A known value, when it is of the field's kind (the kinds table's wire schema: the kind only, no
 * rule); a value of another kind is none a policy can judge (Check refuses it before any apply).
 */
function fitsKind<T>(kind: FieldKind, v: unknown): Read<T> {
  return kindOf(kind).zod.safeParse(v).success ? { known: true, value: v as T } : NOT_KNOWN;
}

/** A Target's field `f` from its properties, with the field's kind checked (a list known only when each element is). */
export function readField<F extends InputField>(props: Record<string, unknown>, f: F): Read<ValueOf<TargetFields[F]>> {
  const read = readKey(props, f);
  if (!read.known || read.value === undefined || read.value === null) return read.known ? { known: true, value: undefined } : NOT_KNOWN;
  const kind = spec(f).kind;
  const v = read.value;
  if (kind === "ids") {
    if (!Array.isArray(v)) return NOT_KNOWN;
    const items: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const item = readKey(v, i);
      if (!item.known) return NOT_KNOWN;
      items.push(item.value);
    }
    return fitsKind(kind, items);
  }
  return fitsKind(kind, v);
}

/** The field's value, Boundary's default when unset (the table's), or undefined when not known yet. */
export function effective<F extends "sessionConnectionLimit" | "sessionMaxSeconds">(
  props: Record<string, unknown>,
  f: F,
): { value: number; unset: boolean } | undefined {
  const read = readField(props, f);
  if (!read.known) return undefined;
  return read.value === undefined ? { value: spec(f).default as number, unset: true } : { value: read.value as number, unset: false };
}

/** A string field's value as Boundary stores it (trimmed of Go's white space, as Boundary trims), "" when unset; undefined when not known yet. */
export function text(
  props: Record<string, unknown>,
  f: "name" | "scopeId" | "description" | "workerFilter" | "egressWorkerFilter" | "address",
): string | undefined {
  const read = readField(props, f);
  if (!read.known) return undefined;
  return typeof read.value === "string" ? trimSpace(read.value) : "";
}
