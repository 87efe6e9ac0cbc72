/**
 * When a value counts as unset and how two values compare, for the import's two readers (a
 * Terraform state, and the controller with `--live`): both from the field-kinds table
 * (`wire/field-kinds.ts`: `zero`, `zeroIsValue`, `compare`), so they agree with the provider's plan.
 */
import { FIELD_KINDS, kindOf, type KindSpec } from "../../wire/field-kinds";
import { spec, type InputField } from "../../wire/target-fields";

/** The kind whose zero is of the same shape as `v` (an attribute with no input has no row to say). */
function kindOfValue(v: unknown): KindSpec | undefined {
  return Object.values(FIELD_KINDS).find((k: KindSpec) => Array.isArray(k.zero) === Array.isArray(v) && typeof k.zero === typeof v);
}

/** Whether `v` is the zero of `kind`: an empty list, or the zero itself. */
const isZero = (kind: KindSpec, v: unknown) => (Array.isArray(v) ? v.length === 0 : v === kind.zero);

/**
 * Whether `v` is unset: absent or null, or its kind's zero unless the kind's zero is a value
 * (`false`). For an attribute no input takes (`field` undefined) any zero is unset: SDKv2 writes
 * the zero (`false`, `""`, `0`) for every attribute a configuration leaves out, and such an
 * attribute cannot be carried over whatever it holds, so only a value set is worth naming.
 */
export function unset(field: InputField | undefined, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  const kind = field ? kindOf(spec(field).kind) : kindOfValue(v);
  if (!kind || (field && kind.zeroIsValue)) return false;
  return isZero(kind, v);
}

/** `field`'s value as compared: undefined when unset; a list compared as a set (sorted). */
export function comparable(field: InputField, v: unknown): string | undefined {
  if (unset(field, v)) return undefined;
  return JSON.stringify(kindOf(spec(field).kind).compare === "set" && Array.isArray(v) ? [...v].map(String).sort() : v);
}
