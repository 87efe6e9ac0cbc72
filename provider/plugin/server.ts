/**
 * Serves `boundary` as a Pulumi resource provider plugin: `pulumirpc.ResourceProvider` with the
 * SDK's own grpc-js and protos (the SDK's `provider.main` never calls Configure, drops detailed
 * diffs and lacks Handshake). Every implemented RPC goes through the same try/translate/catch
 * wrapper, and List (a server stream the SDK's server answers UNIMPLEMENTED) through its stream
 * writer; the rest answer UNIMPLEMENTED.
 */
import type * as grpc from "@grpc/grpc-js";
import * as fs from "node:fs";
import * as path from "node:path";
import { engineAddressFrom } from "./engine-log";
import { ListHeap, fullCollector, heapBytes, holdYoungGeneration } from "./list-heap";
import { packageRoot } from "./main";
import { loadSdk } from "./sdk";
import { BoundaryProviderService } from "./service";

/** This package's version, from its package.json. */
function packageVersion(): string {
  const root = packageRoot();
  return root ? JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version : "0.0.0";
}

const IMPLEMENTED = [
  "handshake",
  "getPluginInfo",
  "getSchema",
  "checkConfig",
  "diffConfig",
  "configure",
  "check",
  "diff",
  "create",
  "read",
  "update",
  "delete",
  "invoke",
  "cancel",
] as const;
/** The server-streaming RPCs this provider serves (the SDK's own server answers List with UNIMPLEMENTED). */
const STREAMING = ["list"] as const;
type Implemented = (typeof IMPLEMENTED)[number];

/**
 * Answers a server-streaming call (`List`) from the service's generator: each message written as it
 * comes, waiting for the stream to drain when its buffer is full (so a page is never held twice),
 * stopping when the engine goes away; an error ends the stream with its status. Once the call has
 * ended, the heap may be collected (`list-heap.ts`: pages read back to back leave their garbage).
 */
async function stream(service: BoundaryProviderService, call: grpc.ServerWritableStream<unknown, unknown>, heap: ListHeap): Promise<void> {
  try {
    for await (const message of service.list(call.request as Parameters<BoundaryProviderService["list"]>[0])) {
      if (call.cancelled) return;
      if (!call.write(message)) await new Promise((resolve) => (call.once("drain", resolve), call.once("cancelled", resolve)));
    }
    call.end();
  } catch (err) {
    call.emit("error", service.grpcError(err));
  } finally {
    // after the status has gone out: the engine is not kept waiting for the collection
    setImmediate(() => heap.afterPage());
  }
}

/** Serves the provider on a loopback port; prints the port as the first stdout line (the plugin protocol). */
export async function serve(): Promise<{ port: number; stop: () => void }> {
  // the plugin's own process only (run-plugin loaded this package as the plugin): see list-heap.ts
  holdYoungGeneration();
  const heap = new ListHeap(heapBytes, fullCollector());
  const s = loadSdk();
  // run-plugin passes the engine's address as the last argument; Handshake may give it again
  const service = new BoundaryProviderService(s, packageVersion(), engineAddressFrom(process.argv.slice(2)));
  const handlers: grpc.UntypedServiceImplementation = {};
  for (const name of Object.keys(s.services.ResourceProviderService)) {
    if ((STREAMING as readonly string[]).includes(name)) {
      handlers[name] = (call: grpc.ServerWritableStream<unknown, unknown>) => void stream(service, call, heap);
      continue;
    }
    handlers[name] = (IMPLEMENTED as readonly string[]).includes(name)
      ? (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
          Promise.resolve()
            .then(() => (service[name as Implemented] as (req: unknown) => unknown).call(service, call.request))
            .then(
              (res) => callback(null, res),
              (err) => {
                const g = service.grpcError(err);
                callback(g, null, g.metadata);
              },
            );
        }
      : (call: grpc.ServerUnaryCall<unknown, unknown>, callback?: grpc.sendUnaryData<unknown>) => {
          const err = { code: s.grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by the boundary provider` };
          if (callback) callback(err);
          else call.emit("error", err);
        };
  }
  const server = new s.grpc.Server();
  server.addService(s.services.ResourceProviderService, handlers);
  const port: number = await new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", s.grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  process.stdout.write(`${port}\n`);
  return { port, stop: () => server.forceShutdown() };
}
