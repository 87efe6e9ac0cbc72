/**
 * `pulumi-boundary dev`: a local controller, like `boundary dev`. Prints the addresses, the admin
 * token and the seeded ids, logs at `--log-level` (a line per request from debug), and shuts down
 * gracefully on the first SIGINT/SIGTERM (a second one forces exit; the starting process ending
 * after the first does not) or when the process that started it goes away; SIGHUP reloads the
 * listeners' TLS files and nothing else.
 */
import { parseArgs } from "node:util";
import type { DevConfig } from "./config/dev-config";
import { readDevSettings } from "./config/dev-settings";
import { DEV_FLAGS, USAGE } from "./config/flags";
import { ConfigError } from "./errors";
import { createLogger, type Logger } from "./log";
import type { RunningController } from "./server";
import { printVersion } from "../common/version";

/**
 * Runs `pulumi-boundary dev` with the arguments after `dev`: an exit code, or -1 while the
 * controller keeps running (the process then ends on a signal). The help, the version and every
 * flag and config-file mistake are answered before the seed data's schemas and the server load
 * (their imports are here, at the point of use): a refusal loads a few dozen small modules, not
 * the controller.
 */
export async function main(rest: string[]): Promise<number> {
  const asked = parseArgs({
    args: rest,
    strict: false,
    allowPositionals: true,
    options: { ...DEV_FLAGS, help: { type: "boolean", short: "h" }, version: { type: "boolean" } },
  }).values;
  if (asked.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (asked.version) return printVersion();
  let config: DevConfig;
  try {
    const settings = readDevSettings(rest);
    config = (await import("./config/dev-config")).withFixtures(settings);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`pulumi-boundary dev: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  for (const w of config.warnings) process.stderr.write(`pulumi-boundary dev: ${w}\n`);
  const logger = createLogger(config.logFormat, undefined, config.logLevel);
  // stdout may be a pipe whose reader is gone (the terminal's `npx` exited): lose lines, not the process
  process.stdout.on("error", () => {});
  const exit = (code: number) => {
    logger.flush?.();
    process.exit(code);
  };
  // Handlers first: a signal that arrives while starting (or right after the banner) must not
  // meet Node's default action, which would kill the process without a graceful shutdown.
  let controller: RunningController | undefined;
  let first: string | undefined;
  const onSignal = (signal: string, fromUser = true) => {
    if (first) {
      // Only a signal the user sends again ends the wait. The starting process ending after the
      // first signal is that signal's effect: timeout, a process manager or a group SIGTERM reach
      // npx, npm and sh too, and they exit at once.
      if (!fromUser) {
        logger.info(`${signal}: already shutting down (the graceful wait goes on; send the signal again to exit now)`);
        return;
      }
      logger.info("second signal: exiting now", { signal });
      return exit(1);
    }
    first = signal;
    if (!controller) {
      logger.info("signal before start: exiting", { signal });
      return exit(0);
    }
    logger.info("received signal", { signal });
    void controller.shutdown().then(() => exit(0));
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  // SIGHUP's default action kills at once (requests cut, every Target lost): as `boundary server`,
  // reload what can be reloaded (the listeners' certificates), and nothing else
  process.on("SIGHUP", () => reload(controller, logger));
  watchParent(() => onSignal("parent exited", false));
  // loaded once the handlers are in place: a signal while they load ends the process as before a start
  const [{ startController }, { printBanner }] = await Promise.all([import("./server"), import("./dev-banner")]);
  try {
    controller = await startController({ ...config, logger });
  } catch (err) {
    // startController closed whatever did start: with nothing open, the process ends
    process.stderr.write(`pulumi-boundary dev: ${(err as Error).message}${addressInUse(err)}\n`);
    return 2;
  }
  printBanner(config, controller);
  return -1; // keep running
}

/** For a port already taken, what to do: the flag that picks a free port, or stop what holds it. */
function addressInUse(err: unknown): string {
  const cause = (err as { cause?: NodeJS.ErrnoException }).cause;
  if (cause?.code !== "EADDRINUSE") return "";
  const flag = /the ops address/.test((err as Error).message) ? "--ops-addr" : "--api-addr";
  return (
    ` (another process listens there, perhaps another pulumi-boundary dev): stop it, or give another address: ` +
    `${flag} 127.0.0.1:0 picks a free port and the banner shows it`
  );
}

function reload(controller: RunningController | undefined, logger: Logger): void {
  const results = controller?.reloadTls() ?? [];
  if (results.length === 0) logger.info("SIGHUP: no TLS listener to reload; configuration reloading is not supported, taking no action");
  for (const r of results) (r.ok ? logger.info : logger.error)(`SIGHUP: ${r.message}`, { listener: r.listener });
}

/**
 * Calls `gone` once when the process that started this one exits. `npx pulumi-boundary dev` runs
 * npm, which runs `sh -c`, which runs this: a SIGTERM to npx reaches sh (npm passes it on), sh dies
 * without passing it on, and this process is adopted by another. Its parent id then changes.
 */
function watchParent(gone: () => void): void {
  const parent = process.ppid;
  if (parent <= 1) return; // started by init (a container's entry point, a service): nothing to watch
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, 200);
  timer.unref();
}
