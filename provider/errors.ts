/**
 * THE provider's error catalogue: every error the provider side (the client, the resource, both
 * routes) throws, each with a fixed `code`, in the package's one hierarchy (`common/errors.ts`, so
 * `instanceof` holds across two loaded copies of the package), and `PROVIDER_ERRORS` listing them
 * with the HTTP statuses each stands for. The classes live by side: the client's in
 * `client/errors.ts` (settings, answers, transport), the resource's in `resource/errors.ts`
 * (partial failures, create outcomes, inputs a release cannot take), the plugin's in `plugin/errors.ts`
 * (List refusals, function arguments), the import command's in `estate/errors.ts`; this module assembles them,
 * with the shared classes of `common/` (durations, filters, the release table, internal errors) that the
 * controller's catalogue lists too.
 * The controller's errors, the rules it answers with, are its own catalogue (`controller/`);
 * nothing here is thrown by the controller.
 */
import { InternalError, InvalidDurationError, UnknownReleaseError, type PulumiBoundaryError } from "../common/errors";
import { FilterEvaluationError, FilterSyntaxError } from "../common/filter";
import { ImportInputError, UsageError } from "./estate/errors";
import { FunctionArgumentError, ListRefusal, UnknownFunctionError } from "./plugin/errors";
import {
  ActionNotRoutedError,
  BoundaryApiError,
  BoundaryClientError,
  CancelledError,
  ClientSettingsError,
  DeadlineError,
  ListNotAppliedError,
  LoginRefusedError,
  NotFoundError,
  SchemaValidationError,
  TimeoutError,
  TransportError,
  UnauthenticatedError,
  UnexpectedAnswerError,
  VersionConflictError,
} from "./client/errors";
import {
  CreateNotAppliedError,
  CreateOutcomeUnknownError,
  InvalidResourceDataError,
  NameTakenError,
  PlanError,
  ResourceInitError,
  TargetDeletedError,
  TargetNotAdoptedError,
  UnsupportedInputError,
} from "./resource/errors";

export * from "./client/errors";
export * from "./resource/errors";
export * from "./plugin/errors";
export * from "./estate/errors";
export { InternalError, InvalidDurationError, UnknownReleaseError } from "../common/errors";
export { FilterEvaluationError, FilterSyntaxError } from "../common/filter";

/** One entry of the catalogue: a class and the HTTP statuses that become it. */
export interface ProviderErrorEntry {
  /** The class; its static `code` is the code every instance carries. */
  readonly error: { readonly code: string; readonly name: string; readonly prototype: PulumiBoundaryError };
  /**
   * The HTTP statuses the client turns into this class: a list, "any" (any error status, or any
   * answer that is not the API's), or none for an error that is no answer of the controller.
   */
  readonly statuses: readonly number[] | "any";
}

/** Every error the provider side throws, parents before children (see the module comment). */
export const PROVIDER_ERRORS: readonly ProviderErrorEntry[] = [
  { error: BoundaryClientError, statuses: [] },
  { error: ClientSettingsError, statuses: [] },
  // the login's 400, 401 and 404, named by the setting to fix (an API call's answers keep their own classes)
  { error: LoginRefusedError, statuses: [] },
  { error: BoundaryApiError, statuses: "any" },
  { error: ActionNotRoutedError, statuses: [405] },
  // 409 Aborted (ours); real Boundary's 404 "incorrect version" on PATCH, 500 "0 rows updated" on the actions
  { error: VersionConflictError, statuses: [409, 404, 500] },
  { error: NotFoundError, statuses: [404] },
  { error: UnauthenticatedError, statuses: [401] },
  { error: UnexpectedAnswerError, statuses: "any" },
  { error: SchemaValidationError, statuses: [] },
  { error: TransportError, statuses: [] },
  { error: TimeoutError, statuses: [] },
  { error: DeadlineError, statuses: [] },
  { error: CancelledError, statuses: [] },
  { error: ResourceInitError, statuses: [] },
  { error: InvalidResourceDataError, statuses: [] },
  { error: CreateOutcomeUnknownError, statuses: [] },
  { error: TargetNotAdoptedError, statuses: [] },
  { error: CreateNotAppliedError, statuses: [] },
  { error: NameTakenError, statuses: [] },
  { error: TargetDeletedError, statuses: [] },
  { error: UnsupportedInputError, statuses: [] },
  { error: PlanError, statuses: [] },
  { error: ListNotAppliedError, statuses: [] },
  { error: ListRefusal, statuses: [] },
  { error: FunctionArgumentError, statuses: [] },
  { error: UnknownFunctionError, statuses: [] },
  { error: UsageError, statuses: [] },
  { error: ImportInputError, statuses: [] },
  // shared with the controller's catalogue (common/)
  { error: InvalidDurationError, statuses: [] },
  { error: UnknownReleaseError, statuses: [] },
  { error: FilterSyntaxError, statuses: [] },
  { error: FilterEvaluationError, statuses: [] },
  { error: InternalError, statuses: [] },
];
