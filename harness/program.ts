/**
 * What a Pulumi program registers: runs `new boundary.Target(name, args, opts)` in the program that
 * installed the packed tarball, under the SDK's mocks, and returns each resource's inputs exactly as
 * the engine would receive them (with `__provider` and whatever else the Target class adds). The
 * dynamic route's tests feed these to the real host, so what the class does is part of the path.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";

/** One `new boundary.Target(name, args, opts)`; JSON-able values only. */
export interface Declared {
  name: string;
  args: Record<string, unknown>;
  opts?: Record<string, unknown>;
}

/** One resource as the SDK registers it: its type token, its logical name, and its inputs as the engine receives them. */
export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/** The inputs the SDK registers for each declared Target, in order. */
export function registeredInputs(program: string, declared: readonly Declared[]): Record<string, unknown>[] {
  return registeredResources(program, declared).map((r) => r.inputs);
}

/** What the SDK registers for each declared Target, in order: type, name and inputs. */
export function registeredResources(program: string, declared: readonly Declared[]): Registered[] {
  const script = path.join(program, "register.js");
  writeFileSync(
    script,
    `const pulumi = require("@pulumi/pulumi");
const declared = ${JSON.stringify(declared)};
const seen = new Map();
pulumi.runtime.setMocks({
  newResource: (args) => {
    seen.set(args.name, { type: args.type, name: args.name, inputs: args.inputs });
    if (seen.size === declared.length) process.stdout.write(JSON.stringify(declared.map((d) => seen.get(d.name))));
    return { id: args.name + "-id", state: args.inputs };
  },
  call: () => ({}),
}, "register", "dev", false);
const boundary = require("pulumi-boundary");
for (const d of declared) new boundary.Target(d.name, d.args, d.opts);
`,
  );
  const out = execFileSync(process.execPath, [script], { cwd: program, encoding: "utf8", env: { ...process.env, BOUNDARY_TOKEN: "" } });
  return JSON.parse(out) as Registered[];
}
