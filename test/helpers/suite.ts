/**
 * One thing a whole suite shares (a controller, a hosted provider, …): started in `beforeAll`,
 * stopped in `afterAll`, and handed out at once as a handle that forwards to it, so a suite
 * declares it in one line at the top of a `describe` (or the file).
 */

/**
 * Starts `start()` in `beforeAll` and `stop`s it in `afterAll`; returns a handle whose every read
 * (property, spread, `in`) is asked of the started value. Used before `beforeAll` has run (outside a
 * test), or after the start failed, it throws saying which (`what` names the thing).
 */
export function useForSuite<T extends object>(what: string, start: () => Promise<T>, stop: (t: T) => Promise<void>, timeoutMs?: number): T {
  let running: T | undefined;
  let failed: unknown;
  let starting: Promise<T> | undefined;
  beforeAll(async () => {
    try {
      running = await (starting = start());
    } catch (err) {
      failed = err;
      throw err;
    }
  }, timeoutMs);
  afterAll(async () => {
    // a start that outlived beforeAll's timeout (a loaded machine) is waited for and stopped: a provider
    // process it started would otherwise keep running and keep jest's worker from exiting
    const started = running ?? (await starting?.catch(() => undefined));
    if (started) await stop(started);
    running = undefined;
  }, timeoutMs);
  return forward((): T => {
    if (running) return running;
    if (failed) throw new Error(`the ${what} did not start: ${String(failed)}`, { cause: failed });
    throw new Error(`the ${what} starts in beforeAll: use it inside a test`);
  });
}

/**
 * A handle whose every read (property, spread, `in`) is asked of `current()` at the time: a field of
 * a suite's handle (`forward(() => h.c)`) handed out under its own name before `beforeAll` has run.
 */
export function forward<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(current(), key),
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(current(), key);
      return d && { ...d, configurable: true };
    },
  });
}
