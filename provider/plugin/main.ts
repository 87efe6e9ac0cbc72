/**
 * How the package's `main` notices that Pulumi runs it as a plugin (PulumiPlugin.yaml): the Node
 * language host starts `node @pulumi/pulumi/cmd/run-plugin <pluginDir> … <engineAddr>`, and
 * run-plugin requires `<pluginDir>`. This package serves only when that directory is its own root:
 * another package's plugin that merely imports this one must not start a second server.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** This package's root: the nearest directory upwards holding its package.json (sources and dist/ agree). */
export function packageRoot(from: string = __dirname): string | undefined {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file) && JSON.parse(fs.readFileSync(file, "utf8")).name === "pulumi-boundary") return dir;
  }
  return undefined;
}

const RUN_PLUGIN = /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]run-plugin[\\/]/;

/**
 * True when Pulumi runs this package as its plugin: run-plugin is the main module and its runner
 * (`run-plugin/run.js`, which requires the plugin directory) loaded `entry`, this package's main
 * module, itself. (run-plugin rewrites `process.argv` first, so the directory is not visible there.)
 */
export function runningAsPlugin(entry: NodeModule, mainFilename = require.main?.filename ?? ""): boolean {
  if (!RUN_PLUGIN.test(mainFilename)) return false;
  const runner = Object.values(require.cache).find((m) => m !== undefined && RUN_PLUGIN.test(m.filename) && /[\\/]run\.js$/.test(m.filename));
  return runner?.children.includes(entry) ?? false;
}
