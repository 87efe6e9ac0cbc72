/**
 * Once per test run: pack the package as `npm publish` would and install the tarball into a temp
 * Pulumi program, so the provider-host tests load exactly what users install. The program's
 * directory is handed to the tests in PB_PACKED_PROGRAM, the tarball in PB_PACKED_TARBALL.
 */
import * as path from "node:path";
import { packAndInstall } from "../harness/pack";

/** Jest's globalSetup: packs and installs the package once, and sets PB_PACKED_PROGRAM and PB_PACKED_TARBALL for every test file. */
export default function globalSetup(): void {
  // dist/ is fresh: `npm test` builds before jest runs
  const { program, tarball } = packAndInstall(path.join(__dirname, ".."));
  process.env.PB_PACKED_PROGRAM = program;
  process.env.PB_PACKED_TARBALL = tarball;
}
