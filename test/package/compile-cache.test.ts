/**
 * Node's compile cache for the run (harness/compile-cache.ts): every process the tests start inherits
 * it, and the packed program's plugin is compiled into it before any file starts one. A provider
 * process never exits of itself, so the warm-up's is preloaded with flush-at-port.ts, which writes
 * the cache and exits once the port is out.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { getCompileCacheDir } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { warm } from "../../harness/compile-cache";
import { packedReady } from "../../harness/pack";
import { packedProgram } from "../../harness/provider-host";

const PRELOAD = path.join(__dirname, "..", "..", "dist", "harness", "flush-at-port.js");

/** How many entries a compile cache folder holds (Node keeps one file per module, in a folder per Node build). */
function entries(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

test("the tests' processes inherit the run's compile cache, which holds the packed program's plugin before a file starts one", async () => {
  const dir = process.env.NODE_COMPILE_CACHE;
  expect(dir).toMatch(/pb-compile-cache-/); // set by jest's global setup (unless the environment set it already)
  await packedReady("program"); // the warm-up is part of the program's stage
  // Pulumi's SDK, gRPC and this package: hundreds of modules
  expect(entries(dir!)).toBeGreaterThan(300);
});

test("jest's worker does not compile into it itself: Node would write the worker's cache as it exits, past the 500 ms jest waits before force-exiting it", () => {
  // in a whole run this file runs in a worker, which jest started after the global setup made the folder
  expect(process.env.PB_COMPILE_CACHE).toBe(process.env.NODE_COMPILE_CACHE);
  expect(getCompileCacheDir()).toBeUndefined();
});

test("a warm-up's plugin writes the cache and exits 0 once it has printed its port", async () => {
  const program = packedProgram();
  const dir = mkdtempSync(path.join(tmpdir(), "pb-compile-cache-check-"));
  const run = process.env.NODE_COMPILE_CACHE;
  process.env.NODE_COMPILE_CACHE = dir;
  try {
    // a preload that did not exit would leave it to be killed at its deadline
    expect(await warm(program, PRELOAD)).toEqual({ code: 0, signal: null });
    expect(entries(dir)).toBeGreaterThan(300);
  } finally {
    process.env.NODE_COMPILE_CACHE = run;
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
