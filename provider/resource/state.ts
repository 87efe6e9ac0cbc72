/**
 * The resource's Pulumi state: its zod schema (every input field as the controller holds it, the
 * output-only fields, and `__managed`) and the one mapper from the API's Target to it, used by
 * create, read, update and import. `__managed` lists the inputs the program set at the last apply,
 * because the provider host never passes old inputs to diff/update/read, and "removed from the
 * program" must be told from "never set".
 */
import { z } from "zod";
import { ANSWER_NAMES } from "../client/list-check";
import { fieldSince, firstReleaseWhere, summariesOf } from "../../wire/releases";
import { kindOf } from "../../wire/field-kinds";
import type { Target } from "../../wire/target";
import {
  INPUT_FIELDS,
  LIST_FIELDS,
  REFERENTS,
  TARGET_FIELDS,
  associationOf,
  getAt,
  segments,
  spec,
  type FieldSpec,
  type InputField,
  type ListField,
  type ListKind,
  type TargetFields,
  type ValueOf,
} from "../../wire/target-fields";
import type { TargetInputs } from "./inputs";

// the object types' `id` and descriptions name them in the package schema, which is generated from these schemas
const ScopeState = z
  .object({
    id: z.string().describe("Scope id."),
    type: z.string().describe("Scope type."),
    name: z.string().optional().describe("Name."),
    description: z.string().optional().describe("Description."),
    parentScopeId: z.string().optional().describe("Parent scope id."),
  })
  .meta({ id: "Scope", description: "A scope summary." });
/** The release that brought aliases, named in their docs. */
const ALIASES_SINCE = firstReleaseWhere((r) => r.aliases)!.release;
const AliasState = z
  .object({ id: z.string().describe("Alias id (alt_…)."), value: z.string().describe("The alias value, a DNS name usable in place of the Target's id.") })
  .meta({ id: "Alias", description: `An alias pointing to a Target (Boundary ${ALIASES_SINCE}+).` });

/**
 * One output-only field: its state schema (the package schema's property is generated from it),
 * how it is read from a Target, what an update does to it, its doc.
 */
export interface OutputSpec<S extends z.ZodType> {
  /** Its schema in state. */
  schema: S;
  /** Its value, from the API's Target. */
  from: (t: Target) => z.infer<S>;
  /** What an update does to it: keeps it, changes it (unknown in a preview), or follows an input field. */
  onUpdate: "kept" | "changes" | InputField;
  /** Its documentation (package schema, SDKs). */
  doc: string;
}
const output = <S extends z.ZodType>(o: OutputSpec<S>) => o;

type Referents = typeof REFERENTS;
type Assoc<K extends ListField> = TargetFields[K]["association"];
/** One summary in state: its id and its kind's summary fields, camelCased (`hostCatalogId`). */
type SummaryState<Kind extends ListKind> = z.ZodObject<{ id: z.ZodString } & { [P in keyof Referents[Kind]["summary"]]: z.ZodOptional<z.ZodString> }>;
/** The lists' summary outputs (`hostSets`), for the lists whose association names one. */
type ListOutputs = {
  [K in ListField as Assoc<K> extends { output: { name: infer N extends string } } ? N : never]: OutputSpec<z.ZodArray<SummaryState<Assoc<K>["kind"]>>>;
};

/** The outputs of the lists' summaries, from the field table's association entries: one per list whose entry names an output. */
function listOutputs(): ListOutputs {
  const outputs: Record<string, OutputSpec<z.ZodType>> = {};
  for (const f of LIST_FIELDS) {
    const a = associationOf(f);
    if (!a.output) continue;
    const carries: Readonly<Record<string, { wire: string; doc: string }>> = REFERENTS[a.kind].summary;
    const fields = Object.entries(carries);
    const item = z
      .object({
        id: z.string().describe(REFERENTS[a.kind].idDoc),
        ...Object.fromEntries(fields.map(([key, c]) => [key, z.string().optional().describe(c.doc)])),
      })
      .meta({ id: a.output.type, description: a.output.itemDoc });
    // the answer's names of the list's summaries, under any release's name: found once, not on every answer
    const paths = ANSWER_NAMES.get(f)!.map(summariesOf).map(segments);
    outputs[a.output.name] = output({
      schema: z.array(item),
      from: (t) =>
        summaries(t, paths).map((s) => {
          const out: Record<string, unknown> = { id: s.id };
          for (const [key, { wire }] of fields) if (s[wire] !== undefined) out[key] = s[wire];
          return out as { id: string };
        }),
      onUpdate: f,
      doc: a.output.doc,
    });
  }
  return outputs as ListOutputs;
}

/** The output-only fields of the resource: what the controller adds to what the program set. */
export const TARGET_OUTPUTS = {
  version: output({
    schema: z.number().int(),
    from: (t) => t.version,
    onUpdate: "changes",
    doc: "The Target's version after the last change Pulumi made or saw.",
  }),
  createdTime: output({ schema: z.string().optional(), from: (t) => t.created_time, onUpdate: "kept", doc: "Creation time (RFC 3339)." }),
  updatedTime: output({
    schema: z.string().optional(),
    from: (t) => t.updated_time,
    onUpdate: "changes",
    doc: "Time of the last update (RFC 3339).",
  }),
  scope: output({
    schema: ScopeState.optional(),
    from: (t) =>
      t.scope && compact({ id: t.scope.id, type: t.scope.type, name: t.scope.name, description: t.scope.description, parentScopeId: t.scope.parent_scope_id }),
    onUpdate: "kept",
    doc: "The Target's scope.",
  }),
  ...listOutputs(),
  authorizedActions: output({
    schema: z.array(z.string()),
    from: (t) => t.authorized_actions ?? [],
    onUpdate: "kept",
    doc: "Actions the caller may perform on the Target.",
  }),
  // state written before aliases existed has none
  aliases: output({
    schema: z.array(AliasState).default([]),
    from: (t) => (t.aliases ?? []).map((a) => ({ id: a.id, value: a.value })),
    onUpdate: "kept",
    doc: `The aliases pointing to the Target (Boundary ${ALIASES_SINCE}+): their values can name it in place of its id. Managed outside the Target resource.`,
  }),
};
type Outputs = typeof TARGET_OUTPUTS;
/** The output-only fields' names, in the order state and the package schema list them. */
export const OUTPUT_FIELDS = Object.keys(TARGET_OUTPUTS) as (keyof Outputs)[];

/** A field is always present in state when every Target has it or the controller has a default. */
type Stored = { [K in InputField]: TargetFields[K] extends { required: true } | { default: unknown } ? K : never }[InputField];
type StateShape = { [K in InputField]: K extends Stored ? z.ZodType<ValueOf<TargetFields[K]>> : z.ZodOptional<z.ZodType<ValueOf<TargetFields[K]>>> } & {
  [K in keyof Outputs]: Outputs[K]["schema"];
} & { __managed: z.ZodArray<z.ZodType<InputField>> };

/** The server's value of a field as state holds it: the kind only, no rule (the server is the truth). */
function stateSchema(f: FieldSpec, name?: InputField): z.ZodType {
  const s = kindOf(f.kind).zod;
  // state written before a field existed lacks it: it reads as the controller's default
  if (name && fieldSince(name) && f.default !== undefined) return (s as z.ZodType<unknown>).default(f.default);
  return f.required || f.default !== undefined ? s : s.optional();
}

/**
 * The resource's state. Loose: `__provider` and keys of other versions pass through untouched, so
 * state written by an earlier version still reads.
 */
export const TargetState = z.looseObject(stateShape());

/** The state's zod shape: each input field's schema, each output's, and `__managed`. */
function stateShape(): StateShape {
  const shape: Record<string, z.ZodType> = {
    ...Object.fromEntries(INPUT_FIELDS.map((f) => [f, stateSchema(TARGET_FIELDS[f], f)])),
    ...Object.fromEntries(OUTPUT_FIELDS.map((k) => [k, TARGET_OUTPUTS[k].schema])),
    __managed: z.array(z.enum(INPUT_FIELDS as [InputField, ...InputField[]])),
  };
  return shape as StateShape;
}
/** The resource's state, as read and written. */
export type TargetState = z.infer<typeof TargetState>;

/**
 * Drops undefined values: Pulumi state must not hold them (the provider host would never answer).
 * A loop, not `Object.fromEntries` of the entries: this runs on every answer and every summary in it.
 */
function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  return out as T;
}

/** A wire path as its keys (`attributes.default_port` → `["attributes", "default_port"]`: `segments`), split once where the readers are made. */
type Keys = readonly string[];

/**
 * The value at the first of `paths` (each as its keys) the answer holds one at: a field under
 * whichever release's name it came. The keys split once, not looked up per read: every field of
 * every answer of create, read and update goes through here, mostly before V8 optimises it.
 */
function firstAt(t: Target, paths: readonly Keys[]): unknown {
  for (let i = 0; i < paths.length; i++) {
    const v = getAt(t, paths[i]!);
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** A list's summaries (`host_sets`, `host_sources`, …) as the answer carries them under one of `paths` (any release's name); none when it has none. */
function summaries(t: Target, paths: readonly Keys[]): ({ id: string } & Record<string, unknown>)[] {
  const found = firstAt(t, paths);
  return Array.isArray(found) ? found : [];
}

/** How state reads one input field from an answer, from the field table: where (under any release's name), its kind, its value when absent. */
interface FieldReader {
  name: InputField;
  paths: readonly Keys[];
  kind: ReturnType<typeof kindOf>;
  absent: unknown;
}
/** Every input field's reader, found once: every answer of create, read and update is mapped through them. */
const READERS: readonly FieldReader[] = INPUT_FIELDS.map((name) => {
  const f: FieldSpec = spec(name);
  const kind = kindOf(f.kind);
  const absent = kind.zeroIsValue ? kind.zero : (f.default ?? (f.required ? "" : undefined));
  return { name, paths: (f.association ? ANSWER_NAMES.get(name)! : [f.wire]).map(segments), kind, absent };
});

/**
 * A field's value as the controller holds it, under any release's name; zero values (omitted on
 * the wire, or `"address": ""` as 0.12+ always answer) become the default, or unset.
 */
function serverValue(t: Target, r: FieldReader): unknown {
  const v = firstAt(t, r.paths);
  if (r.kind.compare === "set") return [...((v as string[] | undefined) ?? [])].sort();
  if (v === undefined || v === null || v === r.kind.zero) return r.absent;
  return v;
}

/** The one mapper from an API Target to state; `managed` are the inputs the program sets. */
export function stateFromTarget(t: Target, managed: readonly InputField[]): TargetState {
  // built without undefined values in the first place (see `compact`): the state of every answer
  const state: Record<string, unknown> = {};
  // by index, not for…of (every answer of create, read and update, mostly before V8 optimises this)
  for (let i = 0; i < READERS.length; i++) {
    const r = READERS[i]!;
    const v = serverValue(t, r);
    if (v !== undefined) state[r.name] = v;
  }
  for (let i = 0; i < OUTPUT_FIELDS.length; i++) {
    const k = OUTPUT_FIELDS[i]!;
    const v = TARGET_OUTPUTS[k].from(t);
    if (v !== undefined) state[k] = v;
  }
  state.__managed = [...managed];
  return state as TargetState;
}

/**
 * The state after a change the controller answered with `t`: real Boundary's PATCH answer carries
 * no `aliases` (only a read loads them), so an answer without them keeps the ones `before` holds;
 * an answer that carries them is the truth.
 */
export function stateAfterChange(t: Target, before: Pick<TargetState, "aliases">, managed: readonly InputField[]): TargetState {
  const state = stateFromTarget(t, managed);
  // a new object of this function's own: set in place, not copied
  if (t.aliases === undefined) state.aliases = before.aliases ?? [];
  return state;
}

/** The input fields a program set (present and not undefined). */
export function managedFields(inputs: Partial<Record<string, unknown>>): InputField[] {
  return INPUT_FIELDS.filter((f) => inputs[f] !== undefined);
}

/**
 * The inputs as the controller now has them, for the fields the program manages: what `read`
 * returns as refreshed inputs, so a refresh followed by a preview shows drift field by field.
 * With `all`, every field (an import, where nothing is managed yet).
 */
export function inputsFromState(s: TargetState, all = false): Partial<TargetInputs> {
  const out: Record<string, unknown> = {};
  for (const f of all ? INPUT_FIELDS : s.__managed) {
    const v = s[f];
    if (v === undefined) continue;
    if (all && Array.isArray(v) && v.length === 0) continue;
    out[f] = v;
  }
  return out as Partial<TargetInputs>;
}
