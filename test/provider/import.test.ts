/**
 * Importing the package has no side effect: only the plugin's own entry (package.json's `main`,
 * which run-plugin loads for PulumiPlugin.yaml) serves gRPC. Run in child processes against the
 * installed tarball, with the environment the Node language host gives a plugin.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { packedProgram, startPlugin } from "../../harness/provider-host";

const program = packedProgram();
const installed = path.join(program, "node_modules", "pulumi-boundary");
/** What the language host sets for a plugin it runs (the engine's address comes as the last argument). */
const PLUGIN_ENV = { PULUMI_NODEJS_PROJECT: "import-test", PULUMI_NODEJS_STACK: "dev", PULUMI_RUNTIME_VIRTUALENV: "" };

/** Runs node with `args` in the program's directory; a server would print its port and keep running (killed after 8 s). */
function run(args: string[]): { status: number | null; stdout: string; stderr: string; signal: NodeJS.Signals | null } {
  const r = spawnSync(process.execPath, args, { cwd: program, env: { ...process.env, ...PLUGIN_ENV }, encoding: "utf8", timeout: 8000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

test("require('pulumi-boundary') under the plugin's environment: the API, no server, the process ends", () => {
  const r = run(["-e", 'const b = require("pulumi-boundary"); process.stdout.write(typeof b.BoundaryClient + " " + typeof b.Target + "\\n");', "127.0.0.1:1"]);
  expect([r.signal, r.status, r.stdout]).toEqual([null, 0, "function function\n"]);
});

test("the package's index loaded as run-plugin's program (as the plugin's entry was before) does not serve", () => {
  const runPlugin = require.resolve("@pulumi/pulumi/cmd/run-plugin", { paths: [program] });
  const r = run([runPlugin, path.join(installed, "dist", "provider", "index.js"), "127.0.0.1:1"]);
  // a server prints its port as its first line and never ends by itself
  expect(r.signal).toBeNull();
  expect(r.stdout).not.toMatch(/^\d+$/m);
});

test("run-plugin with the package's directory (PulumiPlugin.yaml's route) serves: its main is the plugin's entry", async () => {
  const host = await startPlugin(program);
  try {
    const info = await host.call<{ getVersion(): string }>("getPluginInfo", new host.empty.Empty());
    expect(info.getVersion()).toMatch(/^\d+\.\d+\.\d+/);
  } finally {
    await host.stop();
  }
});
