/**
 * Field rules of a Target, as pure checks that return the offending fields. The store combines
 * them with what only it can know (scopes, uniqueness, versions).
 */
import type { RequestField } from "../wire/target";
import { FilterSyntaxError, parseFilter } from "../wire/filter";

const MAX_INT32 = 2 ** 31 - 1;

/** Boundary's check for names and descriptions: printable characters only. */
function printable(s: string): boolean {
  return !/[\u0000-\u001f\u007f]/.test(s);
}

export function checkName(name: string | null | undefined): RequestField | undefined {
  if (name === undefined || name === null || name.trim() === "") return { name: "name", description: "This field is required." };
  if (!printable(name)) return { name: "name", description: "Name contains non-printable characters." };
  if (name !== name.trim()) return { name: "name", description: "Name must not start or end with white space." };
  return undefined;
}

export function checkDescription(description: string | null | undefined): RequestField | undefined {
  if (typeof description === "string" && !printable(description)) {
    return { name: "description", description: "Description contains non-printable characters." };
  }
  return undefined;
}

export function checkSessionMaxSeconds(v: number | null | undefined): RequestField | undefined {
  if (typeof v === "number" && (v <= 0 || v > MAX_INT32)) {
    return { name: "session_max_seconds", description: `This must be greater than zero and at most ${MAX_INT32}.` };
  }
  return undefined;
}

export function checkSessionConnectionLimit(v: number | null | undefined): RequestField | undefined {
  if (typeof v === "number" && (v === 0 || v < -1 || v > MAX_INT32)) {
    return { name: "session_connection_limit", description: "This must be -1 (unlimited) or greater than zero." };
  }
  return undefined;
}

export function checkDefaultPort(v: number | null | undefined): RequestField | undefined {
  if (typeof v === "number" && (v < 1 || v > 65535)) {
    return { name: "attributes.default_port", description: "This must be a port number from 1 to 65535." };
  }
  return undefined;
}

export function checkWorkerFilter(v: string | null | undefined): RequestField | undefined {
  if (typeof v !== "string") return undefined;
  try {
    parseFilter(v);
    return undefined;
  } catch (err) {
    const why = err instanceof FilterSyntaxError ? err.message : String(err);
    return { name: "worker_filter", description: `Unable to parse the worker filter: ${why}.` };
  }
}

export function checkType(v: string | undefined): RequestField | undefined {
  if (v === undefined) return { name: "type", description: "This field is required." };
  if (v !== "tcp") return { name: "type", description: `Unknown type ${JSON.stringify(v)}: the only target type is "tcp".` };
  return undefined;
}

/**
 * Checks a list of ids for the action endpoints and create: each must carry `prefix`. Returns the
 * de-duplicated, sorted list, or the fields that fail.
 */
export function normalizeIds(
  field: string,
  prefix: string,
  ids: readonly string[] | null | undefined,
): { ids: string[]; errors: RequestField[] } {
  const errors: RequestField[] = [];
  for (const id of ids ?? []) {
    if (!id.startsWith(prefix) || id.length === prefix.length) {
      errors.push({ name: field, description: `Incorrectly formatted identifier ${JSON.stringify(id)}: it must start with ${prefix}.` });
    }
  }
  return { ids: [...new Set(ids ?? [])].sort(), errors };
}

export function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
