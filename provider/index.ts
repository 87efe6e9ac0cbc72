/**
 * pulumi-boundary: manage HashiCorp Boundary Targets with Pulumi. Importing it has no side effect:
 * Pulumi runs the plugin through package.json's `main`, `plugin/entry.ts`, which alone decides to serve.
 *
 *   import * as boundary from "pulumi-boundary";
 *   new boundary.Target("web", { scopeId: "p_1234567890", name: "web", hostSetIds: ["hsst_1234567890"] });
 */
// first: an unsupported Node.js fails here with one line, before any dependency loads
import "./node-version";
// next: zod's translations wait for a first use (see the module), before anything loads zod
import "./zod-locales";
export { Target, type TargetArgs } from "./resource/resource";
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
  PROVIDER_ERRORS,
  type ProviderErrorEntry,
} from "./errors";
export {
  authorizeSession,
  getTargets,
  SESSION_SECRET_FIELDS,
  type AuthorizeSessionArgs,
  type AuthorizeSessionInputs,
  type AuthorizeSessionResult,
  type SessionCredential,
  type SessionView,
  type GetTargetsArgs,
  type TargetSummary,
} from "./functions";
export * from "./client";
export { PulumiBoundaryError } from "../common/errors";
export { FilterSyntaxError } from "../common/filter";
export type { Target as ApiTarget, SessionAuthorization } from "../wire/target";
