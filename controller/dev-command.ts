/**
 * `pulumi-boundary dev`: a local controller, like `boundary dev`. Prints the addresses, the admin
 * token and the seeded ids, logs at `--log-level` (a line per request from debug), and shuts down
 * gracefully on the first SIGINT/SIGTERM (a second one forces exit; the starting process ending
 * after the first does not) or when the process that started it goes away; SIGHUP reloads the
 * listeners' TLS files and nothing else.
 */
import { X509Certificate } from "node:crypto";
import { parseArgs } from "node:util";
import { ConfigError, loadDevConfig, type DevConfig } from "./config/dev-config";
import { DEV_FLAGS, USAGE } from "./config/flags";
import { describeEmulation } from "./emulation";
import { createLogger, printable, type Logger } from "./log";
import { startController, type RunningController } from "./server";
import { hasAnyIdPrefix } from "../common/rules";
import { printVersion } from "../common/version";

/**
 * Runs `pulumi-boundary dev` with the arguments after `dev`: an exit code, or -1 while the
 * controller keeps running (the process then ends on a signal).
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
    config = loadDevConfig(rest);
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

/** A token's life as the banner shows it: Boundary's default 7 days unless configured. */
function formatTtl(ms: number | undefined): string {
  if (ms === undefined) return "7 days";
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${ms / 1000}s`;
}

/** A shell word that bash, zsh and sh read back as `text` (single quotes; `'` as '\''). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The banner's example: one line that works pasted into bash, zsh or sh. The variables are
 * exported first (an assignment in front of a command is not seen by `$VAR` on the same line),
 * every value is quoted (`?` and `[` are globs in zsh), and no `<placeholder>` (a redirect).
 */
function tryLine(config: DevConfig, c: RunningController, project: string): string {
  const vars = [`BOUNDARY_ADDR=${shellWord(c.apiUrl)}`];
  if (config.generatedToken) vars.push(`BOUNDARY_TOKEN=${shellWord(config.token)}`);
  const cacert = config.api.tls && selfSigned(config.api.tls.cert) ? ` --cacert ${shellWord(config.api.tls.certFile)}` : "";
  const curl = `curl -sS${cacert} -H "Authorization: Bearer $BOUNDARY_TOKEN" "$BOUNDARY_ADDR/v1/targets?scope_id=${project}"`;
  return `export ${vars.join(" ")}; ${curl}`;
}

/** True when the certificate signed itself (then curl needs it as its CA). */
function selfSigned(pem: string): boolean {
  try {
    const cert = new X509Certificate(pem);
    return cert.checkIssued(cert);
  } catch {
    return false;
  }
}

/** The seeded ids the emulated release takes (the spec's controller refuses plugin host sets and static credentials). */
function acceptedFixtures(config: DevConfig, c: RunningController) {
  const lists = c.store.release.lists;
  const hostPrefixes = lists.hostSetIds?.prefixes ?? [];
  const credentialPrefixes = Object.entries(lists).flatMap(([field, l]) => (field === "hostSetIds" ? [] : l.prefixes));
  const f = config.fixtures;
  return {
    hostSets: f.host_sets.filter((h) => hasAnyIdPrefix(h.id, hostPrefixes)),
    libraries: f.credential_libraries.filter((l) => hasAnyIdPrefix(l.id, credentialPrefixes)),
    credentials: f.credentials.filter((l) => hasAnyIdPrefix(l.id, credentialPrefixes)),
  };
}

function printBanner(config: DevConfig, c: RunningController): void {
  const f = config.fixtures;
  const project = f.scopes.find((s) => s.type === "project")?.id ?? "p_1234567890";
  const seeded = acceptedFixtures(config, c);
  const lines = [
    "==> Boundary local controller started",
    `           Speaks: ${describeEmulation(c.store.release)}`,
    `        API address: ${c.apiUrl}${config.api.tls ? ` (TLS: ${config.api.tls.certFile})` : ""}`,
    `        Ops address: ${c.opsUrl} (GET /health, GET /metrics)${config.ops.tls ? ` (TLS: ${config.ops.tls.certFile})` : ""}`,
    `        Admin token: ${config.generatedToken ? config.token : "(as given with --token)"}`,
    `          Read-only: ${config.readOnlyToken ? "(as given with --read-only-token)" : "disabled"}`,
    ...f.auth_methods.map(
      (m) =>
        `        Auth method: ${m.id} (${m.accounts.map((a) => `${a.login_name}${a.grant === "read-only" ? " read-only" : ""}`).join(", ")}; ` +
        `POST /v1/auth-methods/${m.id}:authenticate, tokens live ${formatTtl(config.authTokenTtlMs)})`,
    ),
    `     Graceful wait: ${config.gracefulShutdownWaitMs ? `${config.gracefulShutdownWaitMs} ms` : "disabled"}`,
    `          Log level: ${config.logLevel}${config.logLevel === "info" ? " (--log-level debug logs each request)" : ""}`,
    `            Storage: in memory: Targets are gone when the controller stops`,
    `             Scopes: ${f.scopes.map((s) => `${s.id} (${s.type})`).join(", ")}`,
    `          Host sets: ${seeded.hostSets.map((h) => `${h.id} [${h.hosts.map((x) => `${x.id} ${x.address}`).join(", ")}]`).join(", ") || "none"}`,
    `Credential libraries: ${seeded.libraries.map((l) => l.id).join(", ") || "none"}`,
    ` Static credentials: ${seeded.credentials.map((l) => l.id).join(", ") || "none"}`,
    `            Workers: ${f.workers.map((w) => w.name).join(", ") || "none"}`,
    ...(config.generatedToken ? [] : ["     (set BOUNDARY_TOKEN to the token given with --token, then:)"]),
    `     Try: ${tryLine(config, c, project)}`,
    "",
  ];
  // what the fixtures file says is data: never a control character to the terminal
  process.stdout.write(lines.map(printable).join("\n") + "\n");
}
