/**
 * The field table is the one source: TargetArgs, the plugin's package schema, the provider's state
 * and the controller's update mask all follow it. The TargetArgs assertions are type-level: a
 * wrong type is a compile error, which `npx jest` alone does NOT report (ts-jest here transpiles
 * without failing on type errors: checked), but `npm test` runs `npm run typecheck` (tsc over
 * test/ too) before jest, so the suite fails there.
 */
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import * as ts from "typescript";
import { packageSchema } from "../../provider/plugin/schema";
import type { TargetArgs } from "../../provider/resource/resource";
import { OUTPUT_FIELDS, TargetState } from "../../provider/resource/state";
import { FIELD_KINDS, kindOf } from "../../wire/field-kinds";
import { RELEASES, fieldSince, knows } from "../../wire/releases";
import { INPUT_FIELDS, MASK_PATHS, programMustSet, spec, type InputField, type RequiredField, type TargetFields, type ValueOf } from "../../wire/target-fields";

/** True when X and Y are the same type (not merely assignable). */
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
const typeIs = <T extends true>(): T => true as T;
type RequiredKeys<T> = { [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K> ? never : K }[keyof T];

/** What a program writes for a field: an Input of its value, and for a list an Input of Inputs. */
type ArgOf<K extends InputField> = TargetFields[K]["kind"] extends "ids" ? pulumi.Input<pulumi.Input<string>[]> : pulumi.Input<ValueOf<TargetFields[K]>>;
type Flat<T> = { [K in keyof T]: T[K] };
/** TargetArgs as the table and the kinds say it must be: each field's kind, required where a program must set it. */
type Expected = Flat<{ [K in RequiredField]: ArgOf<K> } & { [K in Exclude<InputField, RequiredField>]?: ArgOf<K> }>;

test("TargetArgs is derived from the table: its keys, which are required, and each type", () => {
  expect(typeIs<Equal<keyof TargetArgs, InputField>>()).toBe(true);
  expect(typeIs<Equal<RequiredKeys<TargetArgs>, RequiredField>>()).toBe(true);
  expect(typeIs<Equal<TargetArgs, Expected>>()).toBe(true);
  // each kind as the spec and the README describe it, on a field of that kind
  expect(typeIs<Equal<TargetArgs["scopeId"], pulumi.Input<string>>>()).toBe(true);
  expect(typeIs<Equal<TargetArgs["type"], pulumi.Input<"tcp" | "ssh" | "rdp"> | undefined>>()).toBe(true);
  expect(typeIs<Equal<TargetArgs["hostSetIds"], pulumi.Input<pulumi.Input<string>[]> | undefined>>()).toBe(true);
  expect(typeIs<Equal<TargetArgs["sessionMaxSeconds"], pulumi.Input<number> | undefined>>()).toBe(true);
  expect(typeIs<Equal<ValueOf<{ kind: "boolean"; wire: "x"; doc: "" }>, boolean>>()).toBe(true);
});

test("the package schema's Target inputs are the table's, typed by kind, required as the table says", () => {
  const target = packageSchema("0.0.0").resources["boundary:index:Target"];
  expect(Object.keys(target.inputProperties)).toEqual(INPUT_FIELDS);
  for (const f of INPUT_FIELDS) {
    const kind = spec(f).kind;
    const prop = target.inputProperties[f] as { type?: string; $ref?: string; items?: { type: string }; description: string };
    if (kind === "enum") {
      // an enum type of its own, so generated SDKs carry the values as constants
      const types: Record<string, unknown> = packageSchema("0.0.0").types;
      const type = types[prop.$ref!.replace("#/types/", "")] as { type: string; enum: { value: string }[] };
      expect([type.type, type.enum.map((v) => v.value)]).toEqual(["string", spec(f).values]);
    } else expect(prop).toMatchObject(kindOf(kind).pulumi(f));
    expect(prop.description).toBe(spec(f).doc);
  }
  expect(target.requiredInputs).toEqual(INPUT_FIELDS.filter(programMustSet));
  expect(target.requiredInputs).toEqual(["scopeId"]);
  expect(Object.keys(target.properties)).toEqual([...INPUT_FIELDS, ...OUTPUT_FIELDS]);
});

test("state holds every input field and every output; the update mask is the masked fields' wire paths", () => {
  const shape = Object.keys(TargetState.shape);
  expect(shape).toEqual([...INPUT_FIELDS, ...OUTPUT_FIELDS, "__managed"]);
  // each field changes one way: in place under the mask, through the list actions, or by a replacement
  for (const f of INPUT_FIELDS) expect([f, [spec(f).mask, spec(f).association, spec(f).replaces].filter(Boolean).length]).toEqual([f, 1]);
  expect(MASK_PATHS).toEqual(INPUT_FIELDS.filter((f) => spec(f).mask).map((f) => spec(f).wire));
  expect(MASK_PATHS).toEqual(expect.arrayContaining(["name", "attributes.default_port"]));
  // a list is of the kind compared as a set, and every list is
  for (const f of INPUT_FIELDS) expect([f, kindOf(spec(f).kind).compare === "set"]).toEqual([f, !!spec(f).association]);
  // the release each later field came with is the first the release table says knows it
  for (const f of INPUT_FIELDS) {
    const first = RELEASES.filter((r) => r.release !== "spec").find((r) => knows(r, f))!;
    expect([f, fieldSince(f)]).toEqual([f, first === RELEASES.find((r) => r.release !== "spec") ? undefined : first.release]);
  }
  expect(fieldSince("defaultClientPort")).toBe("0.13");
  expect(INPUT_FIELDS.filter((f) => spec(f).replaces)).toEqual(["scopeId", "type"]);
  expect(INPUT_FIELDS.flatMap((f) => spec(f).association?.action ?? [])).toEqual(["host-sets", "credential-libraries"]);
  // every kind is a kind some field may have: each says its schema, package-schema type, protobuf type, doc words and zero
  for (const [name, kind] of Object.entries(FIELD_KINDS)) {
    expect([name, kind.zod.safeParse(kind.zero).success]).toEqual([name, true]);
    expect([name, kind.docType({ values: ["a"] }).length > 0]).toEqual([name, true]);
  }
});

test("TargetArgs carries each field's doc for editors: hover shows it", () => {
  // the generated input-docs.ts it comes through is held to the table by test/wire/generated.test.ts;
  // what an editor shows on hover: the compiler's documentation of each property of TargetArgs
  const resource = path.join(__dirname, "../../provider/resource/resource.ts");
  const program = ts.createProgram([resource], {
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
  });
  const checker = program.getTypeChecker();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(resource)!)!);
  const args = checker.getDeclaredTypeOfSymbol(exported.find((s) => s.name === "TargetArgs")!);
  const docs = Object.fromEntries(args.getProperties().map((p) => [p.name, ts.displayPartsToString(p.getDocumentationComment(checker)).replace(/\s+/g, " ")]));
  for (const f of INPUT_FIELDS) expect(docs[f]).toContain(spec(f).doc.replace(/\s+/g, " "));
});
