/** The typed Boundary API client: the client, its settings, its errors. */
export { BoundaryClient, type TargetPage, type TargetIdentity, type HttpMethod, type ListChange, type CredentialSources } from "./client";
export type { WireCall, ListQuery, ListIds } from "./api";
export { findTargets, type TargetQuery, type FoundTargets } from "./find";
export { resolveSettings, ENV, type BoundaryClientOptions, type ClientSettings, type LoginSettings } from "./settings";
export {
  BoundaryClientError,
  ClientSettingsError,
  BoundaryApiError,
  ActionNotRoutedError,
  VersionConflictError,
  NotFoundError,
  SchemaValidationError,
  TransportError,
  TimeoutError,
  DeadlineError,
  CancelledError,
  UnauthenticatedError,
  UnexpectedAnswerError,
  ListNotAppliedError,
  LoginRefusedError,
} from "./errors";
export { Operation, DEFAULT_OPERATION_TIMEOUT_MS, type OperationOptions } from "./operation";
