/**
 * Preloaded (`node --require`) into a provider process started only to fill Node's compile cache
 * (compile-cache.ts): once the process prints its first line, the port (so it has loaded what it
 * needs to serve), it writes the cache and exits 0. A provider process has no exit of its own (it
 * is killed when its engine is done with it), and Node writes the cache only at a normal exit or
 * when asked to.
 */
import { flushCompileCache } from "node:module";

const write = process.stdout.write.bind(process.stdout) as (chunk: string | Uint8Array) => boolean;
let flushing = false;
process.stdout.write = ((chunk: string | Uint8Array) => {
  const written = write(chunk);
  if (!flushing && String(chunk).includes("\n")) {
    flushing = true;
    setImmediate(() => {
      flushCompileCache();
      process.exit(0);
    });
  }
  return written;
}) as typeof process.stdout.write;
