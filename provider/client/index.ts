/** The typed Boundary API client. */
export { BoundaryClient, type TargetIdentity, type HttpMethod } from "./client";
export { resolveSettings, ClientSettingsError, type BoundaryClientOptions, type ClientSettings } from "./settings";
export {
  BoundaryClientError,
  BoundaryApiError,
  VersionConflictError,
  NotFoundError,
  SchemaValidationError,
  TransportError,
  TimeoutError,
} from "./errors";
