/**
 * The package installed the way Pulumi installs a plugin: `pulumi package add`, `pulumi package
 * get-schema` and `pulumi install` run `npm install` in the plugin's directory, then start it with
 * run-plugin. From the npm tarball (no sources, no tsconfig, no dev dependencies) that must leave
 * `dist/` alone, install only what the plugin runs on, and serve the schema; and only this package's
 * own plugin directory makes it serve.
 *
 * The `npm install` (most of this file's time) starts before the tests and runs while the test that
 * needs no install of its own runs; the install's test waits for it.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { engine } from "../../harness/engine";
import { packedTarball } from "../../harness/pack";
import { packedProgram, startPlugin } from "../../harness/provider-host";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let dir: string;
let pluginDir: string;
/** The tarball unpacked into `pluginDir` before anything is installed there: whether sources shipped. */
let shippedTsconfig: boolean;
/** `npm install` in the unpacked package, as the CLI runs it there: its exit status and output, once it ends. */
let installed: Promise<{ status: number | null; signal: NodeJS.Signals | null; output: string }>;

beforeAll(() => {
  const tarball = packedTarball();
  dir = mkdtempSync(path.join(tmpdir(), "pb-install-"));
  execFileSync("tar", ["xzf", tarball, "-C", dir]);
  pluginDir = path.join(dir, "package");
  shippedTsconfig = existsSync(path.join(pluginDir, "tsconfig.build.json"));
  // exactly what the CLI runs there (its `prepare` must not try to build); killed at its deadline
  const child = spawn(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: pluginDir,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 200_000,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  installed = new Promise((resolve) => {
    child.on("error", (err) => (output += `${err.message}\n`));
    child.on("close", (status, signal) => resolve({ status, signal, output }));
  });
});

afterAll(async () => {
  await installed; // it ends by its deadline at the latest
  rmSync(dir, { recursive: true, force: true });
});

test("another package's plugin that imports this one does not make it serve", () => {
  const program = packedProgram();
  const other = path.join(program, "other-plugin");
  mkdirSync(other, { recursive: true });
  writeFileSync(path.join(other, "package.json"), JSON.stringify({ name: "other-plugin", main: "index.js" }));
  // it uses this package as a library, then says so and exits: a second server would print its port first
  writeFileSync(path.join(other, "index.js"), 'require("pulumi-boundary");\nprocess.stdout.write("other plugin ran\\n");\nprocess.exit(0);\n');
  const runPlugin = require.resolve("@pulumi/pulumi/cmd/run-plugin", { paths: [program] });
  const out = execFileSync(process.execPath, [runPlugin, other, "127.0.0.1:1"], { cwd: program, encoding: "utf8" });
  expect(out).toBe("other plugin ran\n");
});

test("pack → unpack → npm install in the package's own directory → run-plugin → GetSchema", async () => {
  expect(shippedTsconfig).toBe(false); // no sources ship
  const r = await installed;
  expect([r.status, r.signal, r.status === 0 ? "" : r.output]).toEqual([0, null, ""]); // npm's output shows when it failed
  expect(existsSync(path.join(pluginDir, "dist", "provider", "index.js"))).toBe(true);
  // the packed package.json names no dev dependency, so npm installed none of them here (TypeScript, jest, a Node binary)
  expect(JSON.parse(readFileSync(path.join(pluginDir, "package.json"), "utf8")).devDependencies).toBeUndefined();
  expect(["typescript", "jest", "node", "eslint"].filter((dev) => existsSync(path.join(pluginDir, "node_modules", dev)))).toEqual([]);
  // the consumer's program directory is the cwd; @pulumi/pulumi resolves from the plugin's directory
  const consumer = path.join(dir, "consumer");
  mkdirSync(consumer);
  const host = await startPlugin(consumer, { pluginDir });
  try {
    const schema = await engine(host, "urn:pulumi:dev::install::boundary:index:Target::t").getSchema();
    expect(schema.name).toBe("boundary");
    expect(Object.keys(schema.resources)).toEqual(["boundary:index:Target"]);
  } finally {
    await host.stop();
  }
}, 240_000);
