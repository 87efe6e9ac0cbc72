/**
 * How the package's `main` notices that Pulumi runs it as a plugin (PulumiPlugin.yaml): the Node
 * language host loads it through `@pulumi/pulumi/cmd/run-plugin`, with the engine's address as
 * argument and the consumer's directory as cwd. Programs that `import` the package never match.
 */
export function runningAsPlugin(mainFilename = require.main?.filename ?? ""): boolean {
  return /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]run-plugin[\\/]/.test(mainFilename);
}
