/**
 * Once per test run: pack the package as `npm publish` would and install the tarball into a temp
 * Pulumi program, so the provider-host tests load exactly what users install. The program's
 * directory is handed to the tests in PB_PACKED_PROGRAM, the tarball in PB_PACKED_TARBALL.
 *
 * The pack and the install (10-20 s, longer under load) run in the background: the folders are
 * named at once and the test files start, those that need no package at once; those that do wait
 * for it (harness/pack.ts) and fail with its failure, and global-teardown.ts fails the run with it.
 * dist/ is built first, before any file starts, when it is stale: tests run the built CLI, and the
 * pack would otherwise rebuild it from scratch under them.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { useCompileCache } from "../harness/compile-cache";
import { startPackAndInstall } from "../harness/pack";

/** Where global-teardown.ts finds the background pack (both run in jest's own process). */
export const PACKING = Symbol.for("pulumi-boundary.packing");
/** Where global-teardown.ts finds this run's compile cache. */
export const COMPILE_CACHE = Symbol.for("pulumi-boundary.compile-cache");

/**
 * Jest's globalSetup: turns Node's compile cache on for the run (harness/compile-cache.ts), starts
 * packing and installing the package, and sets PB_PACKED_PROGRAM, PB_PACKED_TARBALL and PB_PACKED_STATUS for every test file.
 */
export default function globalSetup(): void {
  const root = path.join(__dirname, "..");
  // `npm test` has built already (this then only compares times); a bare `npx jest` may not have
  execFileSync(process.execPath, [path.join(root, "scripts", "lifecycle.js"), "stale"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  // before jest starts its workers: they pass it to every process their tests start (test/environment.js)
  const cache = useCompileCache();
  // the packed program's plugin, once, before any file starts its own (2 s more of the files' wait for the program)
  const preload = path.join(root, "dist", "harness", "flush-at-port.js");
  const packing = startPackAndInstall(root, { warmCompileCache: cache.dir ? preload : undefined });
  // settled here too, so a failure is no unhandled rejection before teardown reads it
  packing.done.catch(() => undefined);
  Reflect.set(globalThis, PACKING, packing);
  Reflect.set(globalThis, COMPILE_CACHE, cache);
  process.env.PB_PACKED_PROGRAM = packing.program;
  process.env.PB_PACKED_TARBALL = packing.tarball;
  process.env.PB_PACKED_STATUS = packing.status;
}
