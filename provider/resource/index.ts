/** The Target resource: its core, the dynamic route, and the pieces both routes share. */
export { Target, type TargetArgs } from "./resource";
export { TargetCore, type ReadResult } from "./core";
export { DynamicTargetProvider, providerFor } from "./dynamic";
export {
  ResourceInitError,
  InvalidResourceDataError,
  CreateOutcomeUnknownError,
  CreateNotAppliedError,
  TargetNotAdoptedError,
  NameTakenError,
  TargetDeletedError,
  UnsupportedInputError,
  PlanError,
} from "./errors";
export { TargetInputs } from "./input-schema";
export { checkInputs, UNKNOWN, type CheckFailure } from "./inputs";
export { TargetState, TARGET_OUTPUTS, OUTPUT_FIELDS, stateFromTarget } from "./state";
export { diffTarget, planUpdate, createRequest, type TargetDiff, type Change } from "./plan";
export type { Call } from "./call";
