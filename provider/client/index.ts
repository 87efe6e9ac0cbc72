/** The typed Boundary API client: the client, its settings, its errors. */
export { BoundaryClient, type TargetIdentity, type HttpMethod } from "./client";
export { resolveSettings, ENV, type BoundaryClientOptions, type ClientSettings } from "./settings";
export {
  BoundaryClientError,
  ClientSettingsError,
  BoundaryApiError,
  VersionConflictError,
  NotFoundError,
  SchemaValidationError,
  TransportError,
  TimeoutError,
} from "./errors";
