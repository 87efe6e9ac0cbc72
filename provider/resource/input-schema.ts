/**
 * The Target's inputs as a zod schema, derived from the field table with each field's shared rule:
 * what words a failure of `checkInputs` (`inputs.ts`), and the inputs' type. Not loaded with the
 * provider: valid inputs pass the field table's plain tests (`inputsPass`) without zod, so this
 * module, its forty-odd schemas built at load, waits for the first inputs that fail (`inputs.ts`
 * requires it then) or for the package's index, which exports `TargetInputs`.
 */
import { z } from "zod";
import { hasAnyIdPrefix, oneOf } from "../../common/rules";
import { anyReleasePrefixes } from "../../wire/releases";
import { kindOf } from "../../wire/field-kinds";
import { INPUT_FIELDS, TARGET_FIELDS, type FieldSpec, type InputField, type RequiredField, type TargetFields, type ValueOf } from "../../wire/target-fields";

/** A field's input schema: its kind, and its rule with the provider's wording. */
function inputSchema(f: FieldSpec, name: InputField): z.ZodType {
  // a list takes the ids of every kind some release takes (the release table's); what the controller's release does not take is generation.ts's to refuse
  const prefixes = f.association ? anyReleasePrefixes(name) : [];
  const id = f.association && {
    takes: (id: string) => hasAnyIdPrefix(id, prefixes),
    message: `must be a ${f.association.noun} id starting with ${oneOf(prefixes)}`,
  };
  let s: z.ZodType = kindOf(f.kind).input({ values: f.values, id: id || undefined });
  const check = f.check as ((v: unknown) => string | undefined) | undefined;
  if (check) {
    s = s.superRefine((v, ctx) => {
      const why = check(v);
      if (why) ctx.addIssue({ code: "custom", message: why });
    });
  }
  return f.required && !f.autoname ? s : s.optional();
}

type InputShape = { [K in InputField]: K extends RequiredField ? z.ZodType<ValueOf<TargetFields[K]>> : z.ZodOptional<z.ZodType<ValueOf<TargetFields[K]>>> };

/** The program's inputs of a Target, strict: a key that is not a field is refused. */
export const TargetInputs = z.strictObject(Object.fromEntries(INPUT_FIELDS.map((f) => [f, inputSchema(TARGET_FIELDS[f], f)])) as InputShape);
/** A Target's inputs as check returns them: every required field set, each value within its rule. */
export type TargetInputs = z.infer<typeof TargetInputs>;

/** The same with every field optional: fields whose value is not known yet are left out before parsing. */
export const PartialInputs = TargetInputs.partial();
