type Truthy<T> = Exclude<T, false | null | undefined | 0 | "">;

/** Polls a condition instead of sleeping a fixed time: resolves with its first truthy value. */
export async function until<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
