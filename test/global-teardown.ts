/**
 * Once per test run, after every file: waits for the background pack global-setup.ts started (it
 * may still run when no file needed it), removes what it packed and installed (the tarball and its
 * program, about 11,000 files, which each run otherwise left in the temp folder), and fails the run
 * when the pack failed, whether or not a file needed it. Then removes the run's compile cache (see global-setup.ts).
 */
import { rmSync } from "node:fs";
import * as path from "node:path";
import { packedReady } from "../harness/pack";
import { COMPILE_CACHE, PACKING } from "./global-setup";

/** Jest's globalTeardown: waits for the pack, removes the folder holding PB_PACKED_TARBALL and PB_PACKED_PROGRAM, and throws the pack's failure. */
export default async function globalTeardown(): Promise<void> {
  const packing = Reflect.get(globalThis, PACKING) as { done: Promise<void> } | undefined;
  let failure: unknown;
  // the pack's processes do not keep jest's process alive (see pack.ts): this does, while it waits
  const alive = setInterval(() => undefined, 1000);
  try {
    // the pack's own commands have deadlines; without its promise (another process), its report says
    await (packing?.done ?? packedReady("program"));
  } catch (err) {
    failure = err;
  } finally {
    clearInterval(alive);
  }
  (Reflect.get(globalThis, COMPILE_CACHE) as { remove(): void } | undefined)?.remove();
  const tarball = process.env.PB_PACKED_TARBALL;
  if (tarball) rmSync(path.dirname(tarball), { recursive: true, force: true });
  if (failure) throw failure;
}
