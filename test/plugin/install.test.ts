/**
 * The package installed the way Pulumi installs a plugin: `pulumi package add`, `pulumi package
 * get-schema` and `pulumi install` run `npm install` in the plugin's directory, then start it with
 * run-plugin. From the npm tarball (no sources, no tsconfig) that must leave `dist/` alone and serve
 * the schema; and only this package's own plugin directory makes it serve.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { engine } from "../../harness/engine";
import { packedProgram, startPlugin } from "../../harness/provider-host";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

test("pack → unpack → npm install in the package's own directory → run-plugin → GetSchema", async () => {
  const tarball = process.env.PB_PACKED_TARBALL;
  if (!tarball) throw new Error("PB_PACKED_TARBALL is not set: run the tests through jest's globalSetup");
  const dir = mkdtempSync(path.join(tmpdir(), "pb-install-"));
  execFileSync("tar", ["xzf", tarball, "-C", dir]);
  const pluginDir = path.join(dir, "package");
  expect(existsSync(path.join(pluginDir, "tsconfig.build.json"))).toBe(false); // no sources ship
  // exactly what the CLI runs there (its `prepare` must not try to build)
  execFileSync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: pluginDir, stdio: "pipe" });
  expect(existsSync(path.join(pluginDir, "dist", "provider", "index.js"))).toBe(true);
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
