/**
 * The rules of a create and a PATCH body, as the release emulated words them: required fields,
 * each field's rule (`../rules/fields.ts`), ids and the referents they name, what an update may not
 * change, and the update mask (given, or derived from the body). Nothing here writes: the store
 * asks, then records.
 */
import { trimSpace } from "../../common/rules";
import { knows, listIn, type ListField, type Release } from "../../wire/releases";
import type { CreateTargetRequest, RequestField, UpdateTargetRequest } from "../../wire/target";
import { INPUT_FIELDS, MASK_PATHS, REFERENTS, associationOf, deletePath, getPath, setPath, spec, type InputField } from "../../wire/target-fields";
import type { Aliases } from "./aliases";
import type { Dialect } from "../dialect";
import { createRules, patchAlwaysApplies, updateFieldRules } from "../emulation";
import { ControllerFault, invalidField, invalidFields } from "../errors";
import type { TargetRecord } from "../record";
import * as rules from "../rules/fields";
import type { Referents } from "./referents";

/** The input field behind a wire path, for the fields the table has. */
const BY_WIRE = new Map(INPUT_FIELDS.map((f) => [spec(f).wire, f] as const));
/** Fields set on create and never by PATCH: identity (replaces) and associations (actions). */
const FIXED_ON_UPDATE = INPUT_FIELDS.filter((f) => !spec(f).mask);

/** A body's rules for one store: its release, its seed and aliases, and whether creates take id lists. */
export class TargetRules {
  /** Rules as `release` words them; `ignoreCreateAssociations` drops a create's id lists (as v0.4 does). */
  constructor(
    readonly release: Release,
    readonly dialect: Dialect,
    private readonly seed: Referents,
    private readonly aliases: Aliases,
    private readonly ignoreCreateAssociations: boolean,
  ) {}

  /** The field errors of a create body (shape and rules, nothing that needs other Targets). */
  checkCreate(req: CreateTargetRequest): RequestField[] {
    const errors: RequestField[] = [];
    const push = (f: RequestField | undefined) => f && errors.push(f);
    if (req.version !== undefined && req.version !== 0) push({ name: "version", description: this.dialect.versionOnCreate });
    // TS validateCreateRequest: handlers.ValidId(scope_id, "p"); whether it exists is asked after
    if (this.dialect.vetsScopeIdFormat && !rules.validId(req.scope_id, "p"))
      push({ name: "scope_id", description: "This field is required to have a properly formatted project scope id." });
    else if (!req.scope_id) push({ name: "scope_id", description: "This field is required." });
    else if ((this.seed.scope(req.scope_id)?.type ?? "project") !== "project") {
      push({ name: "scope_id", description: "Targets can only be created in a project scope." });
    }
    // the release's own create rules come first; like Boundary's map of bad fields, one message per field
    const released = createRules(this.release, req);
    for (const f of released) errors.push(f);
    if (this.release.aliases) for (const f of this.aliases.check(req.with_aliases)) errors.push(f);
    if (req.name === undefined || req.name === null) push({ name: "name", description: "This field is required." });
    if (req.type === undefined || req.type === null) push({ name: "type", description: this.dialect.missingType(this.release.ports.vetsUpdate) });
    for (const f of INPUT_FIELDS) {
      const association = spec(f).association;
      if (association) {
        for (const e of rules.checkIds(spec(f).wire, this.prefixes(f), this.createIds(req, f)).errors) errors.push(e);
      } else if (f !== "scopeId" && this.knows(f) && !released.some((r) => r.name === spec(f).wire))
        push(rules.checkField(f, getPath(req, spec(f).wire), this.release));
    }
    return errors;
  }

  /** The record a PATCH would make, with its field errors and how many valid mask paths it named. */
  updated(
    current: TargetRecord,
    req: UpdateTargetRequest,
    mask: string[] | undefined,
  ): { errors: RequestField[]; paths: number; masked: ReadonlySet<string>; next: TargetRecord } {
    const errors: RequestField[] = [];
    // version 0 is missing: the request message's zero value (handlers/verifiers.go, v0.4.0 and v0.21.3)
    if (!req.version) errors.push({ name: "version", description: this.dialect.versionMissingOnUpdate });
    const names = this.dialect.namesUnpatchable;
    // Boundary: a type other than the Target's is refused where the release vets a PATCH (0.8+); the mask manager drops the other fixed fields
    if (!names && this.release.ports.vetsUpdate && req.type !== undefined && req.type !== null && req.type !== "" && req.type !== current.type)
      errors.push({ name: "type", description: "Cannot modify the resource type." });
    for (const f of names ? FIXED_ON_UPDATE : []) {
      const { wire, association } = spec(f);
      const sent = getPath(req, wire);
      if (sent === undefined || !this.knows(f)) continue;
      const now = getPath(current, wire);
      const same = association ? sameSet(now as string[], rules.checkIds(wire, this.prefixes(f), sent as string[] | null).ids) : sent === now;
      const how = association ? `use the :set-${listIn(this.release, f)?.routes.at(-1)?.noun} action` : "replace the target instead";
      if (!same) errors.push({ name: wire, description: `This field cannot be changed by an update; ${how}.` });
    }
    const paths = new Set<string>();
    for (const raw of [...(mask ?? derivedMask(req)), ...patchAlwaysApplies(this.release, req)]) {
      const f = BY_WIRE.get(raw);
      if (MASK_PATHS.includes(raw) && this.knows(f!)) paths.add(raw);
      else if (raw === "attributes" && names) MASK_PATHS.filter((p) => p.startsWith("attributes.") && this.knows(BY_WIRE.get(p)!)).forEach((p) => paths.add(p));
      else if (mask && f && spec(f).replaces && names)
        errors.push({ name: raw, description: "This field cannot be changed by an update; replace the target instead." });
      // Boundary's mask manager drops the paths it cannot map; ours names them
      else if (mask && raw !== "version" && !(f && spec(f).association) && names)
        errors.push({ name: "update_mask", description: `Unknown field ${JSON.stringify(raw)} in the update mask.` });
    }
    const next = structuredClone(current) as TargetRecord;
    for (const path of paths) {
      const f = BY_WIRE.get(path)!;
      let value = getPath(req, path);
      // before 0.8 a PATCH's attributes are never vetted: port 0 is the proto's zero value, which clears the column
      if (this.dialect.zeroPortClears && f === "defaultPort" && value === 0 && !this.release.ports.vetsUpdate) value = undefined;
      if (spec(f).required && (value === undefined || value === null || value === ""))
        errors.push({ name: path, description: this.dialect.emptyRequired(path) });
      else {
        const bad = rules.checkField(f, value, this.release, "update");
        if (bad) errors.push(bad);
        else setValue(next, f, value, this.defaultOf(f));
      }
    }
    for (const e of updateFieldRules(this.release, req, paths)) errors.push(e);
    return { errors, paths: paths.size, masked: paths, next };
  }

  /**
   * Every id names a referent (of the Target's project, unless `scopeId` is undefined); `bad` makes
   * the error (400 on create, the release's answer on an action).
   */
  checkMembers(
    field: InputField,
    scopeId: string | undefined,
    ids: readonly string[],
    bad: (id: string, why: string) => ControllerFault = (id, why) => invalidField(spec(field).wire, `${id} ${why}.`),
  ): void {
    const { kind } = associationOf(field as ListField);
    const noun = REFERENTS[kind].noun;
    for (const id of ids) {
      const item = this.seed.referent(kind, id);
      if (!item) throw bad(`${noun} ${id}`, "was not found");
      if (scopeId !== undefined && item.scope_id !== scopeId)
        throw bad(`${noun} ${id}`, `belongs to scope ${item.scope_id}, not to the target's scope ${scopeId}`);
    }
  }

  /** The controller's value of a field left unset or cleared: the table's default, unless this release's differs. */
  defaultOf(f: InputField): unknown {
    return this.release.defaults[f] ?? spec(f).default;
  }

  /** The ids a create body asks for in an association field (none when creates ignore them). */
  createIds(req: CreateTargetRequest, f: InputField): string[] {
    return this.ignoreCreateAssociations ? [] : ((getPath(req, spec(f).wire) as string[] | null | undefined) ?? []);
  }

  /** The release emulated has the field (the bodies of other releases' fields were discarded or named at the edge). */
  knows(f: InputField): boolean {
    return knows(this.release, f);
  }

  /** The id prefixes a list takes in the release emulated (the release table's). */
  private prefixes(f: InputField): readonly string[] {
    return listIn(this.release, f)?.prefixes ?? [];
  }
}

/**
 * Stores a field's value in a record, trimmed where Boundary trims: a value is kept; unset, null or
 * "" (Boundary omits zero values) becomes `fallback` (the field's default), or removes it.
 */
export function setValue(record: Record<string, unknown>, f: InputField, value: unknown, fallback: unknown): void {
  const { wire, trim } = spec(f);
  const v = trim && typeof value === "string" ? trimSpace(value) : value;
  if (v !== undefined && v !== null && v !== "") setPath(record, wire, v);
  else if (fallback !== undefined) setPath(record, wire, fallback);
  else deletePath(record, wire);
}

/** A PATCH whose mask names no field the release updates (TS updateInRepo, v0.4.0 to v0.21.3). */
export function noValidMask(): ControllerFault {
  return invalidFields([{ name: "update_mask", description: "No valid paths provided in the update mask." }], "No valid fields included in the update mask.");
}

/** Two id lists hold the same ids, whatever their order. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

/**
 * Without `update_mask`, the mask is the body's fields, a nested object's as `parent.field`
 * (`attributes.default_client_port`): a PATCH that clears one attribute leaves the others out of
 * the mask (grpc-gateway's field mask from the request body). An empty or null parent is the
 * parent itself.
 */
function derivedMask(req: UpdateTargetRequest): string[] {
  return Object.entries(req).flatMap(([key, value]) => {
    if (key === "version") return [];
    const inner = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
    return inner.length > 0 ? inner.map((k) => `${key}.${k}`) : [key];
  });
}
