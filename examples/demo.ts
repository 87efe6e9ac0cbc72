/**
 * `npm run demo`: starts the local controller on free ports and runs examples/basic against it.
 * With a Pulumi CLI on PATH: a real `pulumi up` on a local file backend (no login), then
 * `pulumi destroy`. Without one: the same program in offline mode (the SDK's mock runtime wired to
 * the real provider), then the targets the controller now holds.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { defaultFixtures, generateToken, startController, type RunningController } from "../controller";
import { BoundaryClient } from "../provider/client";
import { OfflineEngine } from "./offline/engine";

const repo = path.join(__dirname, "..", "..");
const programDir = path.join(repo, "examples", "basic");

/** The program resolves `pulumi-boundary` from its folder, as `npm install ../..` would link it. */
function linkPackage(): void {
  const link = path.join(programDir, "node_modules", "pulumi-boundary");
  if (existsSync(link)) return;
  mkdirSync(path.dirname(link), { recursive: true });
  symlinkSync(path.relative(path.dirname(link), repo), link, "dir");
}

function hasPulumiCli(): boolean {
  return spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
}

function pulumi(args: string[], env: NodeJS.ProcessEnv, input?: string): void {
  const r = spawnSync("pulumi", args, { cwd: programDir, env, stdio: [input === undefined ? "inherit" : "pipe", "inherit", "inherit"], input });
  if (r.status !== 0) throw new Error(`pulumi ${args[0]} failed (exit ${r.status})`);
}

async function withCli(c: RunningController, token: string): Promise<void> {
  const backend = mkdtempSync(path.join(tmpdir(), "pulumi-boundary-demo-"));
  const env = { ...process.env, PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "demo", PULUMI_SKIP_UPDATE_CHECK: "true" };
  console.log(`Pulumi CLI found: real \`pulumi up\` on a local file backend (${backend})\n`);
  pulumi(["stack", "init", "dev", "--non-interactive"], env);
  try {
    pulumi(["config", "set", "boundary:addr", c.apiUrl], env);
    pulumi(["config", "set", "--secret", "boundary:token"], env, token);
    pulumi(["up", "--yes", "--skip-preview"], env);
    pulumi(["stack", "output"], env);
    await printTargets(c, token);
    pulumi(["destroy", "--yes"], env);
  } finally {
    pulumi(["stack", "rm", "--yes", "--force"], env);
  }
}

async function offline(c: RunningController, token: string): Promise<void> {
  console.log(
    "No Pulumi CLI on PATH: running examples/basic in OFFLINE MODE, through the Pulumi SDK's mock runtime\n" +
      "wired to the real provider. Every Boundary API call is real; the Pulumi engine is simulated (state in memory).\n" +
      "Install the CLI (https://www.pulumi.com/docs/install/) and run `npm run demo` again for a real `pulumi up`.\n",
  );
  process.env.BOUNDARY_ADDR = c.apiUrl;
  process.env.BOUNDARY_TOKEN = token;
  const engine = new OfflineEngine({ programDir, project: "boundary-basic", stack: "dev" });
  const program = () => {
    const file = require.resolve(path.join(__dirname, "basic", "index.js"));
    delete require.cache[file];
    return require(file);
  };
  const first = await engine.up(program);
  console.log("pulumi up (offline):", first.steps.map((s) => `${s.op} ${s.name}`).join(", "));
  console.log("Outputs:", JSON.stringify(first.outputs, null, 2));
  await printTargets(c, token);
  const second = await engine.up(program);
  console.log("\npulumi up again:", second.steps.map((s) => `${s.op} ${s.name}`).join(", "), "(no changes: no target API calls)");
  const destroyed = await engine.destroy();
  console.log("pulumi destroy (offline):", destroyed.map((s) => `${s.op} ${s.name}`).join(", "));
}

async function printTargets(c: RunningController, token: string): Promise<void> {
  const client = new BoundaryClient({ addr: c.apiUrl, token });
  const targets = await client.listTargets({ scopeId: "global", recursive: true });
  await client.close();
  console.log(`\nThe controller now holds ${targets.length} target(s):`);
  for (const t of targets) {
    console.log(`  ${t.id}  ${t.name}  v${t.version}  port ${t.attributes?.default_port ?? "-"}  host sets [${(t.host_set_ids ?? []).join(", ")}]  libraries [${(t.application_credential_library_ids ?? []).join(", ")}]`);
  }
}

async function main(): Promise<void> {
  const token = generateToken();
  const c = await startController({
    api: { host: "127.0.0.1", port: 0 },
    ops: { host: "127.0.0.1", port: 0 },
    token,
    gracefulShutdownWaitMs: 0,
    fixtures: defaultFixtures(),
  });
  console.log(`Local Boundary controller: API ${c.apiUrl}, ops ${c.opsUrl} (seed data as in the README)\n`);
  try {
    linkPackage();
    if (hasPulumiCli()) await withCli(c, token);
    else await offline(c, token);
  } finally {
    await c.shutdown();
  }
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 1;
});
