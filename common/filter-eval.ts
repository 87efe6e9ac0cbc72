/**
 * A parsed filter (common/filter.ts parses one) evaluated against an item, as go-bexpr's evaluate.go
 * evaluates its AST: selectors are looked up as JSON pointers, a local variable of an `any`/`all`
 * collection stands for an element's path (or for a map's key or a list's index), an error anywhere
 * in the evaluation excludes the item (Boundary's `Filter.Match` answers false on any error).
 */
import type { RE2JS } from "re2js";
import { PulumiBoundaryError } from "./errors";

type Selector = string[];
type Op = "==" | "!=" | "matches" | "not matches" | "contains" | "not contains" | "in" | "not in" | "is empty" | "is not empty";

/**
 * How a collection expression names what it iterates: `as v` (`default`: a list's element, a map's
 * key), `as i, v` (`index` and `value`), `as i, _` (`index` only) or `as _, v` (`value` only).
 */
export interface CollectionBinding {
  default?: string;
  index?: string;
  value?: string;
}

/**
 * A parsed filter: `and`/`or` of two filters, `not` of one, a collection expression (`any`/`all` of a
 * list's or map's elements matching `inner`) or one match of a selector against a value with an
 * operator (`value` is go-bexpr's raw value: a selector's path joined as it writes it, a string
 * unquoted; `regex` is the compiled pattern of `matches` and `not matches`, compiled at parse time).
 */
export type FilterExpr =
  | { kind: "and" | "or"; left: FilterExpr; right: FilterExpr }
  | { kind: "not"; expr: FilterExpr }
  | { kind: "any" | "all"; selector: Selector; binding: CollectionBinding; inner: FilterExpr }
  | { kind: "match"; selector: Selector; op: Op; value: string; regex?: RE2JS };

/** The operators of a match. */
export type FilterOp = Op;

/**
 * A selector that is missing from the item: `error` (the item is excluded, except that `is empty`
 * holds and `is not empty` does not, as the fields Boundary omits when empty would read), or
 * `disposition` (go-bexpr from v0.1.12: a key missing from a map answers each operator's
 * NotPresentDisposition, `!=` and `not in` true; a missing key under no map is still an error).
 */
export type MissingSelector = "error" | "disposition";

/**
 * An item the filter cannot be evaluated on (a missing selector, a value of another type): the item
 * does not match, as go-bexpr excludes it. Caught by `matches`; never reaches a caller.
 */
export class FilterEvaluationError extends PulumiBoundaryError {
  static override readonly code = "BOUNDARY_FILTER_EVALUATION";
}

/** A collection's local variable: the path it stands for, or (a key or an index) its value. */
type Local = { name: string; path?: Selector; value?: string | number };

const NO_LOCALS: readonly Local[] = Object.freeze([]);
const MISSING = Symbol("missing");
/** A key missing under a map (go-bexpr's evaluateNotPresent: the parent is a map). */
const ABSENT = Symbol("absent");

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function pointer(data: unknown, sel: Selector): unknown {
  let cur: unknown = data;
  for (const key of sel) {
    if (Array.isArray(cur) && /^\d+$/.test(key)) cur = cur[Number(key)];
    else if (cur !== null && typeof cur === "object" && Object.hasOwn(cur, key)) cur = (cur as Record<string, unknown>)[key];
    else return MISSING;
    if (cur === undefined) return MISSING;
  }
  return cur;
}

/** go-bexpr's getValue: locals first (the innermost collection's last), then the item. */
function lookup(data: unknown, sel: Selector, locals: readonly Local[], missing: MissingSelector): unknown {
  if (locals.length === 0 && missing === "error") return pointer(data, sel);
  let path = sel;
  for (let i = locals.length - 1; i >= 0 && path.length > 0; i--) {
    const lv = locals[i]!;
    if (path[0] !== lv.name) continue;
    if (!lv.path) {
      if (path.length > 1) throw new FilterEvaluationError(`/${lv.name} references a key or an index`);
      return lv.value;
    }
    path = [...lv.path, ...path.slice(1)];
  }
  const found = pointer(data, path);
  if (found !== MISSING || missing === "error") return found;
  if (path.length >= 2 && isObject(pointer(data, path.slice(0, -1)))) return ABSENT;
  throw new FilterEvaluationError("missing selector");
}

/** Compares a filter's literal with a field, coercing the literal to the field's type (as go-bexpr). */
function equal(field: unknown, literal: string): boolean {
  if (typeof field === "number") return literal.trim() !== "" && Number(literal) === field;
  if (typeof field === "boolean") return String(field) === literal;
  if (typeof field === "string") return field === literal;
  throw new FilterEvaluationError("not comparable");
}

function contains(field: unknown, literal: string): boolean {
  if (typeof field === "string") return field.includes(literal);
  if (Array.isArray(field)) return field.some((el) => el !== null && typeof el !== "object" && equal(el, literal));
  if (isObject(field)) return Object.hasOwn(field, literal);
  throw new FilterEvaluationError("not a collection");
}

/** NotPresentDisposition: nothing equals, holds or matches a missing key. */
const NOT_PRESENT: Record<Op, boolean> = {
  "==": false,
  "!=": true,
  in: false,
  "not in": true,
  contains: false,
  "not contains": true,
  "is empty": true,
  "is not empty": false,
  matches: false,
  "not matches": true,
};

function evalMatch(e: Extract<FilterExpr, { kind: "match" }>, field: unknown): boolean {
  if (field === ABSENT) return NOT_PRESENT[e.op];
  if (e.op === "is empty" || e.op === "is not empty") {
    const empty =
      field === MISSING ||
      field === null ||
      field === "" ||
      (Array.isArray(field) && field.length === 0) ||
      (isObject(field) && Object.keys(field).length === 0);
    return e.op === "is empty" ? empty : !empty;
  }
  if (field === MISSING) throw new FilterEvaluationError("missing selector");
  switch (e.op) {
    case "==":
      return equal(field, e.value);
    case "!=":
      return !equal(field, e.value);
    case "matches":
    case "not matches": {
      if (typeof field !== "string") throw new FilterEvaluationError("matches needs a string");
      if (!e.regex) throw new FilterEvaluationError("the pattern does not compile");
      return e.regex.matcher(field).find() === (e.op === "matches");
    }
    case "contains":
    case "in":
      return contains(field, e.value);
    case "not contains":
    case "not in":
      return !contains(field, e.value);
  }
}

/** go-bexpr's evaluateCollectionExpression: each element bound, `any` true at the first match, `all` false at the first miss. */
function evalCollection(e: Extract<FilterExpr, { kind: "any" | "all" }>, data: unknown, locals: readonly Local[], missing: MissingSelector): boolean {
  const field = lookup(data, e.selector, locals, missing);
  if (field === ABSENT) return e.kind === "all";
  const b = e.binding;
  const steps: Local[][] = [];
  // an element's local stands for the selector's path as written (a local in it is replaced when looked up)
  const base = e.selector;
  if (Array.isArray(field)) {
    field.forEach((_, i) => {
      const at = [...base, String(i)];
      steps.push([
        ...(b.index ? [{ name: b.index, value: i }] : []),
        ...(b.default ? [{ name: b.default, path: at }] : []),
        ...(b.value ? [{ name: b.value, path: at }] : []),
      ]);
    });
  } else if (isObject(field)) {
    for (const key of Object.keys(field)) {
      steps.push([
        ...(b.default ? [{ name: b.default, value: key }] : []),
        ...(b.index ? [{ name: b.index, value: key }] : []),
        ...(b.value ? [{ name: b.value, path: [...base, key] }] : []),
      ]);
    }
  } else throw new FilterEvaluationError("not a list or a map");
  for (const bound of steps) {
    if (b.index !== undefined && b.index === b.value) throw new FilterEvaluationError(`${JSON.stringify(b.index)} is both the index and the value`);
    const result = evaluate(e.inner, data, [...locals, ...bound], missing);
    if (result === (e.kind === "any")) return result;
  }
  return e.kind === "all";
}

function evaluate(e: FilterExpr, data: unknown, locals: readonly Local[], missing: MissingSelector): boolean {
  switch (e.kind) {
    case "and":
      return evaluate(e.left, data, locals, missing) && evaluate(e.right, data, locals, missing);
    case "or":
      return evaluate(e.left, data, locals, missing) || evaluate(e.right, data, locals, missing);
    case "not":
      return !evaluate(e.expr, data, locals, missing);
    case "any":
    case "all":
      return evalCollection(e, data, locals, missing);
    case "match":
      return evalMatch(e, lookup(data, e.selector, locals, missing));
  }
}

/** True when the item matches. An evaluation error (missing field, wrong type) excludes the item. */
export function matches(expr: FilterExpr, data: unknown, missing: MissingSelector = "error"): boolean {
  try {
    return evaluate(expr, data, NO_LOCALS, missing);
  } catch {
    return false;
  }
}
