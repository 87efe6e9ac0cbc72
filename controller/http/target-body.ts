/**
 * What a release reads of a create or PATCH body, at the edge, before the wire schema decodes it.
 * Boundary's marshaler discards the keys a release does not know (`DiscardUnknown`, v0.4.0 and
 * v0.21.3 alike: an old name is silently dropped), while its attributes are decoded strictly (an
 * unknown attribute is a 400 naming `attributes`). The spec's controller names every key it does
 * not know instead, and says which later release added a field it lacks. What a release knows is
 * the release table's.
 */
import { fieldSince, firstReleaseWhere, knows, RELEASES, type Release } from "../../wire/releases";
import { READ_ONLY_FIELDS, type RequestField } from "../../wire/target";
import { INPUT_FIELDS, spec } from "../../wire/target-fields";
import { ControllerFault, invalidFields } from "../errors";

/** A body as the release reads it: what is left to decode, the errors found on the way, and the keys that are read-only errors. */
export interface ReadBody {
  body: unknown;
  fields: RequestField[];
  readOnly: readonly string[];
}

/** The output-only fields Boundary names when a request sends them (handlers/verifiers.go); the others are discarded. */
const NAMED_READ_ONLY = ["id", "created_time", "updated_time"] as const;
/** The release that added `with_aliases` (the first with aliases). */
const ALIASES_SINCE = firstReleaseWhere((r) => !!r.aliases)?.release;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The top-level keys of the release's known scalar fields, and the attribute keys it knows. */
function known(r: Release): { top: Set<string>; attributes: Set<string> } {
  const fields = INPUT_FIELDS.filter((f) => knows(r, f) && !spec(f).association).map((f) => spec(f).wire);
  return {
    top: new Set(fields.map((w) => w.split(".")[0]!)),
    attributes: new Set(fields.filter((w) => w.startsWith("attributes.")).map((w) => w.slice("attributes.".length))),
  };
}
const KNOWN = new Map(RELEASES.map((r) => [r, known(r)]));

/** A create (`kind` create) or PATCH body as the release reads it. */
export function readTargetBody(r: Release, raw: unknown, kind: "create" | "update"): ReadBody {
  if (!isObject(raw)) return { body: raw, fields: [], readOnly: READ_ONLY_FIELDS };
  return r.unknownKeys === "named" ? namingLaterFields(r, raw) : discarding(r, raw, kind);
}

/** The spec's controller: the fields a later release added are named with that release; the strict schema names the rest. */
function namingLaterFields(r: Release, raw: Record<string, unknown>): ReadBody {
  const body = { ...raw };
  const fields: RequestField[] = [];
  const refuse = (name: string, since: string | undefined) =>
    fields.push({ name, description: `Unknown field: Boundary ${since} added it; this controller speaks the ${r.generation} API.` });
  for (const f of INPUT_FIELDS.filter((x) => !knows(r, x))) {
    const [head, inner] = spec(f).wire.split(".");
    const attributes = body.attributes;
    if (inner === undefined && head! in body) {
      refuse(head!, fieldSince(f));
      delete body[head!];
    } else if (inner !== undefined && isObject(attributes) && inner in attributes) {
      refuse(spec(f).wire, fieldSince(f));
      const { [inner]: _dropped, ...rest } = attributes;
      body.attributes = rest;
    }
  }
  if ("with_aliases" in body) {
    refuse("with_aliases", ALIASES_SINCE);
    delete body.with_aliases;
  }
  return { body, fields, readOnly: READ_ONLY_FIELDS };
}

/** A Boundary release: unknown keys discarded, unknown attributes refused (subtypes' attribute interceptor), `with_aliases` on create only. */
function discarding(r: Release, raw: Record<string, unknown>, kind: "create" | "update"): ReadBody {
  const { top, attributes } = KNOWN.get(r)!;
  const keep = new Set<string>([...top, "version", ...NAMED_READ_ONLY, ...(r.aliases ? ["with_aliases"] : [])]);
  const body = Object.fromEntries(Object.entries(raw).filter(([k]) => keep.has(k)));
  // the ports are already numbers: the release's gateway decoded them (gateway-body.ts)
  if (isObject(body.attributes) && Object.keys(body.attributes).some((k) => !attributes.has(k))) throw attributesRefused(r, kind);
  const fields: RequestField[] = [];
  if (kind === "update" && "with_aliases" in body) {
    if (Array.isArray(body.with_aliases) && body.with_aliases.length > 0)
      fields.push({ name: "with_aliases", description: "This field can only be set at target creation time." });
    delete body.with_aliases;
  }
  return { body, fields, readOnly: NAMED_READ_ONLY };
}

/**
 * Attributes that do not decode: the 400 on `attributes` (TS validateCreateRequest and, where the
 * release vets a PATCH, validateUpdateRequest), or, on a PATCH of a release that does not, updateInRepo's
 * field-less 400 (v0.4.0 target_service.go).
 */
export function attributesRefused(r: Release, kind: "create" | "update"): ControllerFault {
  if (kind === "update" && !r.ports.vetsUpdate) return new ControllerFault("InvalidArgument", "Provided attributes don't match expected format.");
  return invalidFields([{ name: "attributes", description: "Attribute fields do not match the expected format." }]);
}
