/**
 * The SDK's own copies of grpc-js, google-protobuf and Pulumi's protos, resolved from the
 * `@pulumi/pulumi` this package runs with, so that messages and the server agree with the engine's
 * side of the SDK.
 */
import { createRequire } from "node:module";

/**
 * Loads the SDK's gRPC pieces (typed from their own declarations), each resolved from the directory of
 * the `@pulumi/pulumi` this package runs with. Synchronous and on demand: only the plugin serving gRPC
 * pays for loading the protos, never a program that imports the package.
 */
export function loadSdk() {
  const load: (id: string) => unknown = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  return {
    grpc: load("@grpc/grpc-js") as typeof import("@grpc/grpc-js"),
    services: load("@pulumi/pulumi/proto/provider_grpc_pb") as typeof import("@pulumi/pulumi/proto/provider_grpc_pb"),
    proto: load("@pulumi/pulumi/proto/provider_pb") as typeof import("@pulumi/pulumi/proto/provider_pb"),
    plugin: load("@pulumi/pulumi/proto/plugin_pb") as typeof import("@pulumi/pulumi/proto/plugin_pb"),
    engine: load("@pulumi/pulumi/proto/engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb"),
    engineServices: load("@pulumi/pulumi/proto/engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb"),
    status: load("@pulumi/pulumi/proto/status_pb") as typeof import("@pulumi/pulumi/proto/status_pb"),
    struct: load("google-protobuf/google/protobuf/struct_pb") as typeof import("google-protobuf/google/protobuf/struct_pb"),
    empty: load("google-protobuf/google/protobuf/empty_pb") as typeof import("google-protobuf/google/protobuf/empty_pb"),
    any: load("google-protobuf/google/protobuf/any_pb") as typeof import("google-protobuf/google/protobuf/any_pb"),
  };
}
/** The SDK's gRPC pieces as `loadSdk` returns them: grpc-js, the provider, plugin, engine and status protos, and protobuf's well-known types. */
export type Sdk = ReturnType<typeof loadSdk>;
