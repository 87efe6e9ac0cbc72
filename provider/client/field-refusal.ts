/**
 * A 400 that refuses a Target's `attributes` because they hold a field the controller's release
 * does not have. Boundary discards a body's unknown top-level keys, but decodes `attributes` into
 * the subtype's own message, strictly: before 0.13 an `attributes.default_client_port` is the 400
 * `attributes` "Attribute fields do not match the expected format." (on a PATCH of 0.4–0.7, the
 * field-less "Provided attributes don't match expected format."), words that name neither the input
 * nor the release. When the body sent attributes that some release the controller may be lacks,
 * that answer says the controller is one of those: the client learns it (so what follows is refused
 * before any call) and names the input and the release that brought it.
 */
import { describeReleases, fieldSince, knows, type Release } from "../../wire/releases";
import { INPUT_FIELDS, spec, type InputField } from "../../wire/target-fields";
import { BoundaryApiError, UnexpectedAnswerError } from "./errors";

/** The input fields a body sends inside `attributes` (`defaultClientPort` for `attributes.default_client_port`). */
function sentAttributes(body: Record<string, unknown> | undefined): InputField[] {
  const attributes = body?.attributes;
  if (attributes === null || typeof attributes !== "object" || Array.isArray(attributes)) return [];
  const keys = Object.keys(attributes);
  return INPUT_FIELDS.filter((f) => {
    const [head, inner] = spec(f).wire.split(".");
    return head === "attributes" && inner !== undefined && keys.includes(inner);
  });
}

/** The answer refuses the body's `attributes` as a whole (not one attribute's value). */
function refusesAttributes(err: BoundaryApiError): boolean {
  if (err.status !== 400) return false;
  return err.requestFields.some((f) => f.name === "attributes") || (err.requestFields.length === 0 && /attributes don't match/i.test(err.apiMessage));
}

/**
 * What a refusal of `attributes` teaches: the releases that explain it (those lacking an attribute
 * the body sent) and the inputs none of them has. Undefined when the error is not that refusal, or
 * every release the controller may be has every attribute sent (then it refused a value: its own
 * words stand).
 */
export function attributesRefusal(
  err: unknown,
  body: Record<string, unknown> | undefined,
  releases: readonly Release[],
): { releases: Release[]; fields: InputField[] } | undefined {
  if (!(err instanceof BoundaryApiError) || err instanceof UnexpectedAnswerError || !refusesAttributes(err)) return undefined;
  const sent = sentAttributes(body);
  const lacking = releases.filter((r) => sent.some((f) => !knows(r, f)));
  if (lacking.length === 0) return undefined;
  return { releases: lacking, fields: sent.filter((f) => lacking.every((r) => !knows(r, f))) };
}

/** The controller's refusal again, with a note naming each input and the release that added it. */
export function namedAttributesRefusal(err: BoundaryApiError, refusal: { releases: Release[]; fields: InputField[] }): BoundaryApiError {
  const those = describeReleases(refusal.releases.map((r) => r.release));
  const named = refusal.fields.map((f) => `${f} (${spec(f).wire}) needs Boundary ${fieldSince(f)} or later`).join("; ");
  const note =
    `${named}: the controller refused it, so it is ${those}. Nothing was changed; remove ` +
    `${refusal.fields.join(" and ")} from the program or upgrade the controller.`;
  return new BoundaryApiError(err.method, err.path, err.status, err.kind, err.apiMessage, err.requestFields, err.headers, note);
}
