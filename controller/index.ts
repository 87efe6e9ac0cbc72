/** The local controller, for programs and tests that start one in process. */
export { startController, type RunningController } from "./server";
export type { ControllerOptions, HostPort } from "./config/options";
export { loadDevConfig, configDuration, parseListenAddr, generateToken, ConfigError } from "./config/dev-config";
export { createLogger, silentLogger, type Logger } from "./log";
export { Store, defaultFixtures, parseFixtures, DEV_USER_ID, type Fixtures } from "./store";
export { EMULATIONS, type Emulation } from "./emulation";
