/**
 * Runs a TypeScript program written against the plugin route's SDK (`pulumi-boundary-sdk`, which
 * `pulumi package add` generates) in the offline engine, where the CLI that generates it is absent:
 * the program is compiled as the Node language host compiles it (TypeScript to CommonJS), and its
 * `pulumi-boundary-sdk` is a stand-in declaring the same resource type, `boundary:index:Target`,
 * with the program's inputs, as the generated class does; its resource options (`import`) pass on
 * unchanged. `@pulumi/pulumi` is the engine's own, so the engine's mocks see its resources.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import ts from "typescript";

/** The stand-in for the generated SDK's Target: the resource type and the inputs as given. */
export class Target extends pulumi.CustomResource {
  /** Boundary's id of the Target. */
  declare readonly id: pulumi.Output<string>;
  /** Registers `boundary:index:Target` `name` with `args` (the program's camelCase inputs) and `opts`. */
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super("boundary:index:Target", name, { ...args }, opts);
  }
}

/** The program in `file` (TypeScript), as the offline engine runs a program: a function running it anew, returning its exports. */
export function pluginProgram(file: string): () => Record<string, unknown> {
  const js = ts.transpileModule(readFileSync(file, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    fileName: file,
  }).outputText;
  // compiled in this module's realm (not a vm context's): its arrays and objects are the SDK's own
  const run = new Function("exports", "require", "module", "__filename", "__dirname", js) as (...args: unknown[]) => void;
  const modules: Record<string, unknown> = { "pulumi-boundary-sdk": { Target }, "@pulumi/pulumi": pulumi };
  const nodeRequire = createRequire(file);
  return () => {
    const module = { exports: {} as Record<string, unknown> };
    run(module.exports, (id: string) => (id in modules ? modules[id] : nodeRequire(id)), module, file, path.dirname(file));
    return module.exports;
  };
}
