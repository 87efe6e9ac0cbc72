/**
 * The controller's default for a field, as far as the provider can know which release the
 * controller is. "Reset to the controller's default" (a field removed from the program) must use
 * that controller's default, not the newest release's: `session_connection_limit` defaults to 1 up
 * to 0.9.0 and to -1 from 0.9.1 (boundary-current-api.md §6).
 *
 * The provider never guesses the release. It narrows a span of possible releases from what it has
 * seen: actions a Target's `authorized_actions` name (present only on the releases that have them;
 * an absent action proves nothing, since the caller's grants filter them), and, when that does not
 * decide, one probe that changes nothing (`BoundaryClient.hostSetActionsGone`). When the span still
 * holds releases that disagree, the default is unknown and says so.
 *
 * `RELEASE_DEFAULTS` is the one place a release-dependent default lives; a table of releases can
 * replace it without touching its callers.
 */
import { spec, type InputField } from "../../wire/target-fields";

/** A release, `[major, minor, patch]`. */
type Release = readonly [number, number, number];

/** The releases the controller can be: at least `atLeast`, and before `before` (each unbounded when unset). */
export interface ReleaseSpan {
  atLeast?: Release;
  before?: Release;
}

/**
 * Defaults that changed between releases: before `before`, the field defaulted to `value`; from
 * then on to the field table's default.
 */
export const RELEASE_DEFAULTS: Partial<Record<InputField, { value: unknown; before: Release }>> = {
  // Boundary 0.9.1 (PR 2234): 1 → -1 (unlimited)
  sessionConnectionLimit: { value: 1, before: [0, 9, 1] },
};

/** What each action proves about the release when a Target's authorized actions name it. */
const ACTION_EVIDENCE: readonly { actions: RegExp; span: ReleaseSpan }[] = [
  // removed in 0.9.0
  { actions: /^(add|set|remove)-credential-libraries$/, span: { before: [0, 9, 0] } },
  // removed in 0.11.0
  { actions: /^(add|set|remove)-host-sets$/, span: { before: [0, 11, 0] } },
  // named in the actions from 0.7.3
  { actions: /^(add|set|remove)-host-sources$/, span: { atLeast: [0, 7, 3] } },
  // added in 0.5.0
  { actions: /^(add|set|remove)-credential-sources$/, span: { atLeast: [0, 5, 0] } },
];

/** The span a Target's recorded `authorizedActions` prove (every release when they prove nothing). */
export function spanFromActions(actions: readonly string[] | undefined): ReleaseSpan {
  let span: ReleaseSpan = {};
  for (const e of ACTION_EVIDENCE) if (actions?.some((a) => e.actions.test(a))) span = narrow(span, e.span);
  return span;
}

/** The span after the host-set probe: its route gone means 0.11.0 or later, there means before. */
export function spanAfterProbe(span: ReleaseSpan, hostSetActionsGone: boolean | undefined): ReleaseSpan {
  if (hostSetActionsGone === undefined) return span;
  return narrow(span, hostSetActionsGone ? { atLeast: [0, 11, 0] } : { before: [0, 11, 0] });
}

/** Both spans at once. */
export function narrow(a: ReleaseSpan, b: ReleaseSpan): ReleaseSpan {
  const atLeast = !a.atLeast ? b.atLeast : !b.atLeast ? a.atLeast : compare(a.atLeast, b.atLeast) >= 0 ? a.atLeast : b.atLeast;
  const before = !a.before ? b.before : !b.before ? a.before : compare(a.before, b.before) <= 0 ? a.before : b.before;
  return { ...(atLeast && { atLeast }), ...(before && { before }) };
}

/** The controller's default for `field`: known, or the values the releases in the span disagree on. */
export type ControllerDefault = { known: true; value: unknown } | { known: false; candidates: readonly unknown[] };

/** The default a controller whose release lies in `span` gives `field`. */
export function controllerDefault(field: InputField, span: ReleaseSpan): ControllerDefault {
  const current = spec(field).default;
  const earlier = RELEASE_DEFAULTS[field];
  if (!earlier) return { known: true, value: current };
  if (span.before && compare(span.before, earlier.before) <= 0) return { known: true, value: earlier.value };
  if (span.atLeast && compare(span.atLeast, earlier.before) >= 0) return { known: true, value: current };
  return { known: false, candidates: [earlier.value, current] };
}

/** The fields whose default depends on the release. */
export function releaseDependent(field: InputField): boolean {
  return RELEASE_DEFAULTS[field] !== undefined;
}

/** `0.9.1` for messages. */
export function releaseName(r: Release): string {
  return r.join(".");
}

function compare(a: Release, b: Release): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
