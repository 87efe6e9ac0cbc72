/**
 * Pulumi's secret wrapper on the provider protocol: `{[specialSigKey]: specialSecretSig, value}`,
 * with the SDK's own sentinels. Inputs are unwrapped before any rule sees them; secret outputs
 * (the token, credential secrets) are wrapped.
 */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";

/** True for a secret wrapper. */
export function isSecret(v: unknown): v is { value: unknown } {
  return v !== null && typeof v === "object" && (v as Record<string, unknown>)[specialSigKey] === specialSecretSig;
}

/** Wraps a value as a secret. */
export function wrapSecret(value: unknown): Record<string, unknown> {
  return { [specialSigKey]: specialSecretSig, value };
}

/** Replaces every secret wrapper, at any depth, with its value. */
export function unwrapSecrets(v: unknown): unknown {
  if (isSecret(v)) return unwrapSecrets(v.value);
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
  return v;
}
