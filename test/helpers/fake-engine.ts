/**
 * The engine's `pulumirpc.Engine` service as far as a provider uses it: Log. Each request is kept,
 * so a test can see the warnings a user would, with their severity and URN.
 */
import type * as enginePb from "@pulumi/pulumi/proto/engine_pb";
import { programRequire } from "../../harness/provider-host";

/** One Log request as the engine received it: severity (`LogSeverity`), message, the resource's URN. */
export interface LoggedLine {
  severity: number;
  message: string;
  urn: string;
}

/** The running fake engine: its address for Handshake, the lines logged so far, the severities' values, and stop. */
export interface FakeEngine {
  address: string;
  logs: LoggedLine[];
  severity: typeof enginePb.LogSeverity;
  stop(): Promise<void>;
}

/** Starts a fake engine on a loopback port, with the SDK's grpc-js as the program loads it. */
export async function startFakeEngine(program: string): Promise<FakeEngine> {
  const grpc = programRequire<typeof import("@grpc/grpc-js")>(program, "@grpc/grpc-js");
  const services = programRequire<typeof import("@pulumi/pulumi/proto/engine_grpc_pb")>(program, "@pulumi/pulumi/proto/engine_grpc_pb");
  const pb = programRequire<typeof enginePb>(program, "@pulumi/pulumi/proto/engine_pb");
  const empty = programRequire<typeof import("google-protobuf/google/protobuf/empty_pb")>(program, "google-protobuf/google/protobuf/empty_pb");
  const logs: LoggedLine[] = [];
  const server = new grpc.Server();
  const unimplemented = (_call: unknown, callback: (err: unknown) => void) => callback({ code: grpc.status.UNIMPLEMENTED });
  const handlers: Record<string, unknown> = {};
  for (const name of Object.keys(services.EngineService)) handlers[name] = unimplemented;
  handlers.log = (call: { request: enginePb.LogRequest }, callback: (err: unknown, res: unknown) => void) => {
    logs.push({ severity: call.request.getSeverity(), message: call.request.getMessage(), urn: call.request.getUrn() });
    callback(null, new empty.Empty());
  };
  server.addService(services.EngineService, handlers as import("@grpc/grpc-js").UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    logs,
    severity: pb.LogSeverity,
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}
