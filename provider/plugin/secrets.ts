/**
 * Pulumi's secret wrapper on the provider protocol: `{"4dabf…": "1b47…", "value": …}`. Inputs are
 * unwrapped before any rule sees them; secret outputs (the token, credential secrets) are wrapped.
 */
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

export function isSecret(v: unknown): v is { value: unknown } {
  return v !== null && typeof v === "object" && (v as Record<string, unknown>)[SIG] === SECRET;
}

export function wrapSecret(value: unknown): Record<string, unknown> {
  return { [SIG]: SECRET, value };
}

/** Replaces every secret wrapper, at any depth, with its value. */
export function unwrapSecrets(v: unknown): unknown {
  if (isSecret(v)) return unwrapSecrets(v.value);
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
  return v;
}
