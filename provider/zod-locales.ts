/**
 * zod's translations, loaded when someone first asks for one instead of with zod. zod's CommonJS
 * entries (`zod`, `zod/v4/core`) each require `zod/v4/locales`, which requires all of its 60-odd
 * languages (0.5 MB of source): about a fifth of this package's load in Pulumi's dynamic-provider
 * host, paid again by every `pulumi up`. Nothing here uses them: zod's messages come from English,
 * which zod sets up from its own file (`locales/en`), not from this index.
 *
 * So, before zod is first loaded, the index's place in Node's module cache is taken by a stand-in
 * that loads the real index at its first use and answers from it (`z.locales.fr`, `Object.keys`,
 * `in`): a program that sets another language still gets it. Where zod is already loaded, or its
 * files are not where this expects them, nothing is done, and zod loads as it always did.
 *
 * Loaded by the package's entries, before anything that loads zod.
 */
import Module from "node:module";

/** Installs the stand-in unless the index is loaded already or cannot be found; true when installed. */
export function deferZodLocales(): boolean {
  let id: string;
  try {
    id = require.resolve("zod/v4/locales");
  } catch {
    return false;
  }
  if (require.cache[id]) return false;
  let real: object | undefined;
  const load = (): object => {
    if (!real) {
      // the stand-in leaves the cache, the real index takes its place for every later require
      delete require.cache[id];
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      real = require(id) as object;
    }
    return real;
  };
  const standIn = new Module(id);
  standIn.filename = id;
  standIn.loaded = true;
  standIn.exports = new Proxy(
    {},
    {
      // zod's `__importStar` takes a module marked `__esModule` as it is, without reading its keys
      get: (_, key) => (key === "__esModule" ? true : Reflect.get(load(), key)),
      has: (_, key) => key === "__esModule" || Reflect.has(load(), key),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_, key) => {
        const d = Reflect.getOwnPropertyDescriptor(load(), key);
        // a proxy may not report a property its own target lacks as non-configurable
        return d && { ...d, configurable: true };
      },
    },
  );
  require.cache[id] = standIn;
  return true;
}

deferZodLocales();
