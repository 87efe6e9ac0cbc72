/**
 * The SDK's own copies of grpc-js, google-protobuf and Pulumi's protos, resolved from the
 * `@pulumi/pulumi` this package runs with, so that messages and the server agree with the engine's
 * side of the SDK.
 */
import * as path from "node:path";

/** Loads the SDK's gRPC pieces (typed from their own declarations). */
export function loadSdk() {
  const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const from = (id: string): unknown => require(require.resolve(id, { paths: [sdkDir] }));
  return {
    grpc: from("@grpc/grpc-js") as typeof import("@grpc/grpc-js"),
    services: require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof import("@pulumi/pulumi/proto/provider_grpc_pb"),
    proto: require("@pulumi/pulumi/proto/provider_pb") as typeof import("@pulumi/pulumi/proto/provider_pb"),
    plugin: require("@pulumi/pulumi/proto/plugin_pb") as typeof import("@pulumi/pulumi/proto/plugin_pb"),
    engine: require("@pulumi/pulumi/proto/engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb"),
    engineServices: require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb"),
    status: require("@pulumi/pulumi/proto/status_pb") as typeof import("@pulumi/pulumi/proto/status_pb"),
    struct: from("google-protobuf/google/protobuf/struct_pb") as typeof import("google-protobuf/google/protobuf/struct_pb"),
    empty: from("google-protobuf/google/protobuf/empty_pb") as typeof import("google-protobuf/google/protobuf/empty_pb"),
    any: from("google-protobuf/google/protobuf/any_pb") as typeof import("google-protobuf/google/protobuf/any_pb"),
  };
}
export type Sdk = ReturnType<typeof loadSdk>;
