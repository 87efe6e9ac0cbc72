#!/usr/bin/env node
/**
 * `pulumi-boundary dev`: a local controller, like `boundary dev`. Prints the addresses, the admin
 * token and the seeded ids, logs one line per request, and shuts down gracefully on the first
 * SIGINT/SIGTERM (a second one forces exit).
 */
import { ConfigError, USAGE, loadDevConfig, type DevConfig } from "./config";
import { describeEmulation } from "./emulation";
import { createLogger } from "./log";
import { startController, type RunningController } from "./server";

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== "dev") {
    process.stderr.write(`pulumi-boundary: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return 2;
  }
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
  const logger = createLogger(config.logFormat);
  // Handlers first: a signal that arrives while starting (or right after the banner) must not
  // meet Node's default action, which would kill the process without a graceful shutdown.
  let controller: RunningController | undefined;
  let signals = 0;
  const onSignal = (signal: string) => {
    signals++;
    if (signals > 1 || !controller) {
      logger.info(signals > 1 ? "second signal: exiting now" : "signal before start: exiting", { signal });
      process.exit(signals > 1 ? 1 : 0);
    }
    logger.info("received signal", { signal });
    controller.shutdown().then(() => process.exit(0));
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  try {
    controller = await startController({ ...config, logger });
  } catch (err) {
    // startController closed whatever did start: with nothing open, the process ends
    process.stderr.write(`pulumi-boundary dev: ${(err as Error).message}\n`);
    return 2;
  }
  printBanner(config, controller);
  return -1; // keep running
}

function printBanner(config: DevConfig, c: RunningController): void {
  const f = config.fixtures;
  const lines = [
    "==> Boundary local controller started",
    `           Speaks: ${describeEmulation(c.store.release)}`,
    `        API address: ${c.apiUrl}`,
    `        Ops address: ${c.opsUrl} (GET /health, GET /metrics)`,
    `        Admin token: ${config.generatedToken ? config.token : "(as given with --token)"}`,
    `          Read-only: ${config.readOnlyToken ? "(as given with --read-only-token)" : "disabled"}`,
    `     Graceful wait: ${config.gracefulShutdownWaitMs ? `${config.gracefulShutdownWaitMs} ms` : "disabled"}`,
    `             Scopes: ${f.scopes.map((s) => `${s.id} (${s.type})`).join(", ")}`,
    `          Host sets: ${f.host_sets.map((h) => `${h.id} [${h.hosts.map((x) => `${x.id} ${x.address}`).join(", ")}]`).join(", ")}`,
    `Credential libraries: ${f.credential_libraries.map((l) => l.id).join(", ") || "none"}`,
    ` Static credentials: ${f.credentials.map((l) => l.id).join(", ") || "none"} (current releases only, as plugin host sets hsplg_…)`,
    `            Workers: ${f.workers.map((w) => w.name).join(", ") || "none"}`,
    `     Try: BOUNDARY_ADDR=${c.apiUrl} BOUNDARY_TOKEN=<token> curl -H "Authorization: Bearer $BOUNDARY_TOKEN" "$BOUNDARY_ADDR/v1/targets?scope_id=${f.scopes.find((s) => s.type === "project")?.id ?? "p_…"}"`,
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`pulumi-boundary: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  },
);
