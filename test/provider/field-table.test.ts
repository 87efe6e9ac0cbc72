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
import { fieldSince } from "../../wire/releases";
import { INPUT_FIELDS, MASK_PATHS, TARGET_FIELDS, programMustSet, spec, type InputField, type RequiredField } from "../../wire/target-fields";

/** True when X and Y are the same type (not merely assignable). */
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
const typeIs = <T extends true>(): T => true as T;
type RequiredKeys<T> = { [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K> ? never : K }[keyof T];

/** The inputs as the spec and the README describe them, written out once here as the expectation. */
type Expected = {
  scopeId: pulumi.Input<string>;
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  type?: pulumi.Input<"tcp" | "ssh" | "rdp">;
  hostSetIds?: pulumi.Input<pulumi.Input<string>[]>;
  applicationCredentialLibraryIds?: pulumi.Input<pulumi.Input<string>[]>;
  injectedApplicationCredentialSourceIds?: pulumi.Input<pulumi.Input<string>[]>;
  sessionMaxSeconds?: pulumi.Input<number>;
  sessionConnectionLimit?: pulumi.Input<number>;
  workerFilter?: pulumi.Input<string>;
  egressWorkerFilter?: pulumi.Input<string>;
  ingressWorkerFilter?: pulumi.Input<string>;
  address?: pulumi.Input<string>;
  defaultPort?: pulumi.Input<number>;
  defaultClientPort?: pulumi.Input<number>;
};

test("TargetArgs is derived from the table: its keys, which are required, and each type", () => {
  expect(typeIs<Equal<keyof TargetArgs, InputField>>()).toBe(true);
  expect(typeIs<Equal<RequiredKeys<TargetArgs>, RequiredField>>()).toBe(true);
  expect(typeIs<Equal<TargetArgs, Expected>>()).toBe(true);
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
    } else expect(prop.type).toBe(kind === "integer" ? "integer" : kind === "ids" ? "array" : "string");
    if (kind === "ids") expect(prop.items?.type).toBe("string");
    expect(prop.description).toBe(spec(f).doc);
  }
  expect(target.requiredInputs).toEqual(INPUT_FIELDS.filter(programMustSet));
  expect(target.requiredInputs).toEqual(["scopeId"]);
  expect(Object.keys(target.properties)).toEqual([...INPUT_FIELDS, ...OUTPUT_FIELDS]);
});

test("state holds every input field and every output; the update mask is the masked fields' wire paths", () => {
  const shape = Object.keys(TargetState.shape);
  expect(shape).toEqual([...INPUT_FIELDS, ...OUTPUT_FIELDS, "__managed"]);
  expect(MASK_PATHS).toEqual([
    "name",
    "description",
    "session_max_seconds",
    "session_connection_limit",
    "worker_filter",
    "egress_worker_filter",
    "ingress_worker_filter",
    "address",
    "attributes.default_port",
    "attributes.default_client_port",
  ]);
  // the release each later field came with is the release table's
  expect(INPUT_FIELDS.filter((f) => fieldSince(f)).map((f) => [f, fieldSince(f)])).toEqual([
    ["injectedApplicationCredentialSourceIds", "0.10"],
    ["egressWorkerFilter", "0.12"],
    ["ingressWorkerFilter", "0.12"],
    ["address", "0.12"],
    ["defaultClientPort", "0.13"],
  ]);
  expect(INPUT_FIELDS.filter((f) => spec(f).replaces)).toEqual(["scopeId", "type"]);
  expect(INPUT_FIELDS.filter((f) => TARGET_FIELDS[f].kind === "ids").map((f) => spec(f).association?.action)).toEqual(["host-sets", "credential-libraries"]);
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
