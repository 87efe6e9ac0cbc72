/**
 * Drives Pulumi's real dynamic-provider host as the engine does: spawned from a program directory,
 * its port read from the first stdout line, then gRPC calls with the SDK's own grpc-js and protos.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { waitForPacked, waitForPackedBeforeTests } from "./pack";

// a test file reaching the packed program waits for it before its hooks run (see pack.ts)
waitForPackedBeforeTests();

/**
 * The directory of the temp program that installed the packed tarball (see global-setup.ts), once
 * it has: the pack runs in the background, and this waits for it (see pack.ts).
 */
export function packedProgram(): string {
  const dir = process.env.PB_PACKED_PROGRAM;
  if (!dir) throw new Error("PB_PACKED_PROGRAM is not set: run the tests through jest's globalSetup");
  waitForPacked("program");
  return dir;
}

/** Loads a module the way the program sees it (its own node_modules). */
export function programRequire<T = unknown>(program: string, id: string): T {
  return createRequire(path.join(program, "package.json"))(id) as T;
}

/**
 * Runs a Pulumi program under the SDK's mocks in the packed program, declaring one Target, and
 * returns the `__provider` text the SDK serialized for it: exactly what goes into state.
 *
 * The same installed program always serializes to the same text, and each run took a node process
 * loading the SDK (about 1.4 CPU-seconds, asked for by a dozen test files a run): the first call
 * keeps the text in a file inside the program, which lives as long as the run's packed program, and
 * later calls (other test files, the other jest worker) read it. Two workers may ask at once: each
 * writes its own script and its own temp file and renames it into place, so a reader sees either no
 * file or a whole one, never the text of another program.
 */
export function serializedProvider(program: string): string {
  const kept = path.join(program, "serialized-provider.txt");
  if (existsSync(kept)) return readFileSync(kept, "utf8");
  const script = path.join(program, `serialize-${process.pid}.js`);
  writeFileSync(
    script,
    `const pulumi = require("@pulumi/pulumi");
pulumi.runtime.setMocks({
  newResource: (args) => { if (args.inputs.__provider) process.stdout.write(args.inputs.__provider); return { id: "x", state: args.inputs }; },
  call: () => ({}),
}, "host-test", "dev", false);
const boundary = require("pulumi-boundary");
new boundary.Target("t", { scopeId: "p_1234567890", name: "t" });
`,
  );
  const text = execFileSync(process.execPath, [script], { cwd: program, encoding: "utf8", env: { ...process.env, BOUNDARY_TOKEN: "" } });
  rmSync(script, { force: true });
  if (!text) throw new Error(`the SDK serialized no __provider for a Target in ${program}`);
  const temp = `${kept}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, kept);
  return text;
}

/** A started provider process with a gRPC client connected to it (see engine.ts for the calls). */
export interface Host {
  call<T>(method: string, request: unknown): Promise<T>;
  /** A server-streaming call (`list`): every message, once the stream ends; rejects with its status if it ends in an error. */
  stream<T>(method: string, request: unknown): Promise<T[]>;
  /** The provider process's id (a benchmark reads its memory from /proc). */
  pid: number;
  /** Everything the host printed (the engine shows it as diagnostics). */
  output(): string;
  /** The SDK's provider messages, as the program loads them. */
  proto: typeof import("@pulumi/pulumi/proto/provider_pb");
  /** The SDK's gRPC status message (the details of an error). */
  status: typeof import("@pulumi/pulumi/proto/status_pb");
  /** The SDK's Empty message (Cancel's request). */
  empty: typeof import("google-protobuf/google/protobuf/empty_pb");
  toStruct(o: object): import("google-protobuf/google/protobuf/struct_pb").Struct;
  /** Closes the client and kills the process, resolving once it has exited; a second call waits for the same exit. */
  stop(): Promise<void>;
}

/** Pulumi's dynamic-provider host, as the engine starts it for dynamic resources. */
export function startHost(program: string, env: Record<string, string> = {}): Promise<Host> {
  return startProviderProcess(program, [require.resolve("@pulumi/pulumi/cmd/dynamic-provider", { paths: [program] }), "127.0.0.1:1"], env);
}

/**
 * A plugin directory as the Node language host runs it: `node run-plugin <pluginDir> <engineAddr>`
 * with the program's directory as cwd; by default this package as installed in the program.
 */
export function startPlugin(program: string, options: { env?: Record<string, string>; engineAddress?: string; pluginDir?: string } = {}): Promise<Host> {
  const runPlugin = require.resolve("@pulumi/pulumi/cmd/run-plugin", { paths: [options.pluginDir ?? program] });
  const pluginDir = options.pluginDir ?? path.join(program, "node_modules", "pulumi-boundary");
  return startProviderProcess(program, [runPlugin, pluginDir, options.engineAddress ?? "127.0.0.1:1"], options.env ?? {}, options.pluginDir ?? program);
}

/**
 * The port a plugin process prints as its first line of standard output, as the engine reads it
 * (a provider, or a policy pack's analyzer), and everything else it prints after; `what` names it
 * when it exits first.
 */
export async function portOf(child: ChildProcess, what: string): Promise<{ port: string; output: () => string }> {
  let out = "";
  child.stderr!.on("data", (d) => (out += d));
  const port = await new Promise<string>((resolve, reject) => {
    let first = "";
    const onData = (d: Buffer) => {
      first += d;
      const nl = first.indexOf("\n");
      if (nl < 0) return;
      child.stdout!.off("data", onData);
      out += first.slice(nl + 1);
      child.stdout!.on("data", (more) => (out += more));
      resolve(first.slice(0, nl).trim());
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${what} exited ${code} before printing its port: ${first}${out}`)));
  });
  return { port, output: () => out };
}

/**
 * Spawns a provider process in `program` (its cwd), reads its port, and connects the SDK's gRPC
 * client, loaded from `sdkFrom`. The process is killed if any of that fails.
 */
async function startProviderProcess(program: string, args: string[], env: Record<string, string>, sdkFrom = program): Promise<Host> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: program,
    env: { ...process.env, PULUMI_NODEJS_PROJECT: "host-test", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { port, output } = await portOf(child, "host");
  try {
    return connect(child, port, sdkFrom, output);
  } catch (err) {
    child.kill();
    throw err;
  }
}

/** The SDK's gRPC client for a provider process listening on `port`. */
function connect(child: ChildProcess, port: string, sdkFrom: string, output: () => string): Host {
  const grpc = programRequire<typeof import("@grpc/grpc-js")>(sdkFrom, "@grpc/grpc-js");
  const services = programRequire<typeof import("@pulumi/pulumi/proto/provider_grpc_pb")>(sdkFrom, "@pulumi/pulumi/proto/provider_grpc_pb");
  const proto = programRequire<typeof import("@pulumi/pulumi/proto/provider_pb")>(sdkFrom, "@pulumi/pulumi/proto/provider_pb");
  const struct = programRequire<typeof import("google-protobuf/google/protobuf/struct_pb")>(sdkFrom, "google-protobuf/google/protobuf/struct_pb");
  const status = programRequire<typeof import("@pulumi/pulumi/proto/status_pb")>(sdkFrom, "@pulumi/pulumi/proto/status_pb");
  const empty = programRequire<typeof import("google-protobuf/google/protobuf/empty_pb")>(sdkFrom, "google-protobuf/google/protobuf/empty_pb");
  const client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  /** The generated client's method for an RPC, which tests name as strings (`"create"`). */
  const rpc = (method: string): ((this: typeof client, req: unknown, cb: (err: unknown, res: unknown) => void) => void) => {
    const fn: unknown = Reflect.get(client, method);
    if (typeof fn !== "function") throw new Error(`the provider's gRPC client has no method ${method}`);
    return fn as (this: typeof client, req: unknown, cb: (err: unknown, res: unknown) => void) => void;
  };
  const exited = new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once("exit", () => r())));
  let stopping: Promise<void> | undefined;
  const stopOnce = async () => {
    client.close();
    child.kill();
    await exited;
  };
  return {
    pid: child.pid!,
    proto,
    status,
    empty,
    toStruct: (o) => struct.Struct.fromJavaScript(o as Record<string, never>),
    output,
    call: <T>(method: string, request: unknown) =>
      new Promise<T>((resolve, reject) => rpc(method).call(client, request, (err, res) => (err ? reject(err) : resolve(res as T)))),
    stream: <T>(method: string, request: unknown) =>
      new Promise<T[]>((resolve, reject) => {
        const messages: T[] = [];
        const call = (Reflect.get(client, method) as (req: unknown) => import("node:stream").Readable).call(client, request);
        call.on("data", (m: T) => messages.push(m));
        call.on("error", reject);
        call.on("end", () => resolve(messages));
      }),
    // once: a second stop (a test's own, then its suite's) waits for the same exit
    stop: () => (stopping ??= stopOnce()),
  };
}
