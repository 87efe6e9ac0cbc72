/**
 * The policies' errors: a setting of the pack's config that breaks its schema. The engine checks the
 * config against each policy's schema before it configures the pack, so this comes only from a pack
 * that configures the policies another way; it fails the preview naming the policy, the setting and
 * the fix, rather than letting a policy judge against a limit it cannot read.
 */
import { PulumiBoundaryError } from "../common/errors";

/** A policy's setting is not what its config schema says; the message names the policy, the setting and the rule. */
export class PolicySettingError extends PulumiBoundaryError {
  static override readonly code: string = "BOUNDARY_POLICY_SETTING";
}
