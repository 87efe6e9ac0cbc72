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

/** True when `v` is, or holds at any depth, a secret wrapper. */
export function holdsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(holdsSecret);
  if (v !== null && typeof v === "object") return Object.values(v).some(holdsSecret);
  return false;
}

/** The top-level keys of the objects whose value is, or holds, a secret. */
export function secretKeys(...objects: Record<string, unknown>[]): Set<string> {
  const keys = new Set<string>();
  for (const o of objects) for (const [k, v] of Object.entries(o)) if (holdsSecret(v)) keys.add(k);
  return keys;
}

/** `o` with the value of each key in `keys` wrapped as a secret: what was secret going in stays secret coming out. */
export function rewrap(o: Record<string, unknown>, keys: Set<string>): Record<string, unknown> {
  const out = { ...o };
  for (const k of keys) if (out[k] !== undefined && !isSecret(out[k])) out[k] = wrapSecret(out[k]);
  return out;
}

/** Replaces every secret wrapper, at any depth, with its value. */
export function unwrapSecrets(v: unknown): unknown {
  if (isSecret(v)) return unwrapSecrets(v.value);
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
  return v;
}
