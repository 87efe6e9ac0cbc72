/**
 * What a Pulumi program registers: runs `new boundary.Target(name, args, opts)` in the program that
 * installed the packed tarball, under the SDK's mocks, and returns each resource's inputs exactly as
 * the engine would receive them (with `__provider` and whatever else the Target class adds). The
 * dynamic route's tests feed these to the real host, so what the class does is part of the path.
 *
 * One Node process per program and test file runs every declaration asked of it, one batch at a
 * time, each under mocks set afresh (a process loading Pulumi's SDK and the package costs about
 * 1.5 CPU-s: a file declaring Targets in every test paid that each time). It is stopped after the
 * file's tests, or when the process asking ends.
 */
import { spawn, type ChildProcess } from "node:child_process";
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
export async function registeredInputs(program: string, declared: readonly Declared[]): Promise<Record<string, unknown>[]> {
  return (await registered(program, declared, false)).map((r) => r.inputs);
}

/**
 * What the SDK sends the engine for each declared Target, in order, during a preview: its type, its
 * name, and its inputs as the RegisterResource request carries them (before the mocks decode them,
 * which drops unknowns). An arg (or list element) equal to `unknown` becomes an Output not known in
 * the preview (another resource's output), so the request carries the engine's unknown sentinel.
 */
export function registeredResources(program: string, declared: readonly Declared[], unknown: string): Promise<Registered[]> {
  return registered(program, declared, true, unknown);
}

/** How long one batch may take before the program is taken as hung (a loaded machine included). */
const BATCH_DEADLINE_MS = 60_000;

/**
 * The program's process: reads one batch (a JSON line) at a time from stdin, sets the mocks afresh
 * (a new monitor, this batch's preview flag), declares the batch's Targets, and writes one JSON line
 * once every one of them is registered: the resources, or the error that stopped the batch.
 */
const SCRIPT = `const pulumi = require("@pulumi/pulumi");
const { MockMonitor } = require("@pulumi/pulumi/runtime/mocks");
const readline = require("node:readline");
let batch; // the batch being declared: its Targets' names, what was registered, its raw requests
const reply = (out) => {
  batch = undefined;
  process.stdout.write(JSON.stringify(out) + "\\n");
};
const register = MockMonitor.prototype.registerResource;
MockMonitor.prototype.registerResource = function (req, callback) {
  batch?.raw.set(req.getName(), req.getObject().toJavaScript());
  return register.call(this, req, callback);
};
let afterwards; // an error after a batch's answer: the next batch fails with it, as the process asking would have failed
const failed = (err) => (batch ? reply({ error: String((err && err.stack) || err) }) : (afterwards ??= err));
process.on("uncaughtException", failed);
process.on("unhandledRejection", failed);
let boundary;
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const { declared, preview, unknown } = JSON.parse(line);
  if (afterwards !== undefined) {
    const err = afterwards;
    afterwards = undefined;
    return process.stdout.write(JSON.stringify({ error: "after the previous batch: " + String((err && err.stack) || err) }) + "\\n");
  }
  const b = (batch = { targets: new Set(declared.map((d) => d.name)), seen: new Map(), raw: new Map() });
  pulumi.runtime.setMocks({
    newResource: (args) => {
      if (batch !== b || !b.targets.has(args.name)) return { id: args.name + "-id", state: {} };
      b.seen.set(args.name, { type: args.type, name: args.name, inputs: preview ? b.raw.get(args.name) : args.inputs });
      if (b.seen.size === declared.length) reply({ registered: declared.map((d) => b.seen.get(d.name)) });
      return { id: args.name + "-id", state: args.inputs };
    },
    call: () => ({}),
  }, "register", "dev", preview);
  boundary ??= require("pulumi-boundary");
  try {
    // an output of another resource, not known in a preview (the mock gives it no value)
    const source = unknown === null ? undefined : new pulumi.CustomResource("test:index:Source", "unknown-source", { value: undefined });
    const late = (v) => (unknown !== null && v === unknown ? source.value : Array.isArray(v) ? v.map(late) : v);
    for (const d of declared) new boundary.Target(d.name, Object.fromEntries(Object.entries(d.args).map(([k, v]) => [k, late(v)])), d.opts);
  } catch (err) {
    failed(err);
  }
});
`;

/** A running program process and the batches waiting for it, oldest first (the first one sent, the others not yet). */
interface Registrar {
  child: ChildProcess;
  waiting: { line: string; resolve(r: Registered[]): void; reject(err: Error): void }[];
  /** What the process wrote to stderr (for an error's message). */
  stderr: string;
}

const registrars = new Map<string, Registrar>();

/** How long a program process may take to end once its input is closed before it is killed. */
const END_DEADLINE_MS = 5_000;

/**
 * Stops every program process this file started (after its tests; a worker runs many files), and
 * waits for each to end, so that it is reaped (and its CPU time counted for the file) before the next.
 * Each ends of itself when its input closes (so Node writes its compile cache: harness/compile-cache.ts),
 * or is killed past a deadline.
 */
async function stopAll(): Promise<void> {
  const all = [...registrars.values()];
  registrars.clear();
  await Promise.all(
    all.map(({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const ended = new Promise((resolve) => child.once("exit", resolve));
      child.stdin!.end();
      const kill = setTimeout(() => child.kill(), END_DEADLINE_MS);
      return ended.finally(() => clearTimeout(kill));
    }),
  );
}
// under jest (the bench loads this module too, without it): after the file's tests
const jestAfterAll = (globalThis as { afterAll?: (fn: () => Promise<void>) => void }).afterAll;
if (typeof jestAfterAll === "function") jestAfterAll(stopAll);

function registrarFor(program: string): Registrar {
  const running = registrars.get(program);
  if (running) return running;
  const script = path.join(program, "register.js");
  writeFileSync(script, SCRIPT);
  const child = spawn(process.execPath, [script], { cwd: program, stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, BOUNDARY_TOKEN: "" } });
  const r: Registrar = { child, waiting: [], stderr: "" };
  registrars.set(program, r);
  let out = "";
  child.stdout!.on("data", (d) => {
    out += d;
    for (let end = out.indexOf("\n"); end >= 0; end = out.indexOf("\n")) {
      const answer = JSON.parse(out.slice(0, end)) as { registered?: Registered[]; error?: string };
      out = out.slice(end + 1);
      const done = r.waiting.shift();
      if (answer.error !== undefined) done?.reject(new Error(`the program's declarations failed: ${answer.error}`));
      else done?.resolve(answer.registered!);
      // one batch at a time: the process sets the mocks afresh for each
      if (r.waiting[0]) child.stdin!.write(r.waiting[0].line);
    }
  });
  child.stderr!.on("data", (d) => (r.stderr += d));
  child.on("exit", (code, signal) => {
    if (registrars.get(program) === r) registrars.delete(program);
    for (const w of r.waiting.splice(0)) w.reject(new Error(`the program's process ended (${signal ?? code}) before it registered the Targets:\n${r.stderr}`));
  });
  // the process asking may end without afterAll (outside jest): the program's process does not keep it alive
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?(): void }).unref?.();
  return r;
}

function registered(program: string, declared: readonly Declared[], preview: boolean, unknown?: string): Promise<Registered[]> {
  const r = registrarFor(program);
  return new Promise<Registered[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      r.child.kill(); // a hung batch would hold every later one: the next call starts a new process
      reject(new Error(`the program did not register ${declared.map((d) => d.name).join(", ")} within ${BATCH_DEADLINE_MS} ms:\n${r.stderr}`));
    }, BATCH_DEADLINE_MS);
    const line = JSON.stringify({ declared, preview, unknown: unknown ?? null }) + "\n";
    r.waiting.push({
      line,
      resolve: (v) => (clearTimeout(timer), resolve(v)),
      reject: (e) => (clearTimeout(timer), reject(e)),
    });
    if (r.waiting.length === 1) r.child.stdin!.write(line);
  });
}
