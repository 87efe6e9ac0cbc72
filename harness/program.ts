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
  return registered(program, declared, false).map((r) => r.inputs);
}

/**
 * What the SDK sends the engine for each declared Target, in order, during a preview: its type, its
 * name, and its inputs as the RegisterResource request carries them (before the mocks decode them,
 * which drops unknowns). An arg (or list element) equal to `unknown` becomes an Output not known in
 * the preview (another resource's output), so the request carries the engine's unknown sentinel.
 */
export function registeredResources(program: string, declared: readonly Declared[], unknown: string): Registered[] {
  return registered(program, declared, true, unknown);
}

function registered(program: string, declared: readonly Declared[], preview: boolean, unknown?: string): Registered[] {
  const script = path.join(program, "register.js");
  writeFileSync(
    script,
    `const pulumi = require("@pulumi/pulumi");
const { MockMonitor } = require("@pulumi/pulumi/runtime/mocks");
const declared = ${JSON.stringify(declared)};
const seen = new Map();
const raw = new Map();
const register = MockMonitor.prototype.registerResource;
MockMonitor.prototype.registerResource = function (req, callback) {
  raw.set(req.getName(), req.getObject().toJavaScript());
  return register.call(this, req, callback);
};
const targets = new Set(declared.map((d) => d.name));
pulumi.runtime.setMocks({
  newResource: (args) => {
    if (!targets.has(args.name)) return { id: args.name + "-id", state: {} };
    seen.set(args.name, { type: args.type, name: args.name, inputs: ${preview ? "raw.get(args.name)" : "args.inputs"} });
    if (seen.size === declared.length) process.stdout.write(JSON.stringify(declared.map((d) => seen.get(d.name))));
    return { id: args.name + "-id", state: args.inputs };
  },
  call: () => ({}),
}, "register", "dev", ${preview});
const boundary = require("pulumi-boundary");
const unknown = ${JSON.stringify(unknown ?? null)};
// an output of another resource, not known in a preview (the mock gives it no value)
const source = unknown === null ? undefined : new pulumi.CustomResource("test:index:Source", "unknown-source", { value: undefined });
const late = (v) => (unknown !== null && v === unknown ? source.value : Array.isArray(v) ? v.map(late) : v);
for (const d of declared) new boundary.Target(d.name, Object.fromEntries(Object.entries(d.args).map(([k, v]) => [k, late(v)])), d.opts);
`,
  );
  const out = execFileSync(process.execPath, [script], { cwd: program, encoding: "utf8", env: { ...process.env, BOUNDARY_TOKEN: "" } });
  return JSON.parse(out) as Registered[];
}
