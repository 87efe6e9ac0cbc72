/**
 * `pulumi-boundary dev` configuration: the settings (dev-settings.ts: flags, Boundary's own config
 * file, defaults), and the seed data, checked by the store's schemas. Every mistake is a ConfigError
 * naming the key and value; the CLI prints it and exits 2.
 */
import { checkJsonNesting } from "./hcl";
import { ConfigError } from "../errors";
import { defaultFixtures, parseFixtures, type Fixtures } from "../store";
import type { ControllerOptions } from "./options";
import { readDevSettings, readText, type DevSettings } from "./dev-settings";
export { ConfigError } from "../errors";
export { MAX_GRACEFUL_SHUTDOWN_WAIT_MS, configDuration, generateToken, parseListenAddr } from "./dev-settings";

/** The controller's options as the dev command resolved them from flags, config file and defaults. */
export interface DevConfig extends Omit<DevSettings, "fixturesFile">, ControllerOptions {}

/** Builds the dev controller's configuration from argv (after the `dev` word). */
export function loadDevConfig(argv: string[], readFile: (path: string) => string = readText): DevConfig {
  return withFixtures(readDevSettings(argv, readFile), readFile);
}

/** The settings with their seed data: `--fixtures`' file, checked, or the default seed data. */
export function withFixtures(settings: DevSettings, readFile: (path: string) => string = readText): DevConfig {
  const { fixturesFile, ...rest } = settings;
  return { ...rest, fixtures: fixturesFile !== undefined ? readFixtures(fixturesFile, readFile) : defaultFixtures() };
}

function readFixtures(path: string, readFile: (path: string) => string): Fixtures {
  let text: string;
  try {
    text = readFile(path);
  } catch (err) {
    throw new ConfigError(`--fixtures: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    checkJsonNesting(text);
    return parseFixtures(JSON.parse(text));
  } catch (err) {
    throw new ConfigError(`--fixtures ${path}: ${(err as Error).message}`);
  }
}
