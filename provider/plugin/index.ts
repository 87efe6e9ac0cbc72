/** The plugin route (PulumiPlugin.yaml): the gRPC server, its service, the package schema. */
export { serve } from "./server";
export { BoundaryProviderService } from "./service";
export { packageSchema } from "./schema";
export { runningAsPlugin } from "./main";
