/**
 * Once per test run, after every file: removes what global-setup.ts packed and installed (the
 * tarball and its program, about 11,000 files), which each run otherwise left in the temp folder.
 */
import { rmSync } from "node:fs";
import * as path from "node:path";

/** Jest's globalTeardown: removes the folder holding PB_PACKED_TARBALL and PB_PACKED_PROGRAM. */
export default function globalTeardown(): void {
  const tarball = process.env.PB_PACKED_TARBALL;
  if (tarball) rmSync(path.dirname(tarball), { recursive: true, force: true });
}
