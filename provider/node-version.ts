/**
 * Loaded first by every entry of the package: on a Node.js older than the package needs, loading
 * fails at once with one line naming both versions, instead of deep inside a dependency (undici
 * fails on Node 20 with "Cannot read properties of undefined (reading 'bind')").
 */

/** The oldest Node.js major this package runs on: package.json's `engines` (undici and @pulumi/pulumi need it). */
export const NODE_MAJOR_NEEDED = 22;

/** The one-line message for a Node.js that is too old, or undefined when `version` will do. */
export function nodeVersionProblem(version: string = process.versions.node): string | undefined {
  const major = Number(version.split(".")[0]);
  return major >= NODE_MAJOR_NEEDED ? undefined : `pulumi-boundary needs Node.js ${NODE_MAJOR_NEEDED} or later; this is Node.js ${version}.`;
}

const problem = nodeVersionProblem();
if (problem) {
  // one line, not a trace into the module loader
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const err = new Error(problem);
  Error.stackTraceLimit = limit;
  // Uncaught, Node prints the throwing line of this file and a caret before the message: when
  // nothing catches this error, print the message alone. A program that catches it gets the error
  // as thrown, and the listener is gone before its next turn of the event loop.
  const uncaught = (e: unknown): void => {
    if (e !== err) throw e;
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  };
  process.once("uncaughtException", uncaught);
  setImmediate(() => process.off("uncaughtException", uncaught)).unref();
  throw err;
}
