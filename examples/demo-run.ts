/**
 * What `npm run demo` does once its flags are read (demo.ts): starts the local controller on free
 * ports, runs onboarding, then examples/basic through the Pulumi CLI when one is on PATH, or the
 * offline engine when not; whatever happens, the controller is shut down.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { defaultFixtures, generateToken, startController, type RunningController } from "../controller";
import type { Emulation } from "../controller/emulation";
import { isSpec, release } from "../wire/releases";
import { BoundaryClient } from "../provider/client";
import { OfflineEngine, type Step } from "./offline/engine";
import { onboarding } from "./onboarding";

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

function pulumi(args: string[], env: NodeJS.ProcessEnv, input?: string, allowFailure = false): number {
  const r = spawnSync("pulumi", args, { cwd: programDir, env, stdio: [input === undefined ? "inherit" : "pipe", "inherit", "inherit"], input });
  if (r.status !== 0 && !allowFailure) throw new Error(`pulumi ${args[0]} failed (exit ${r.status})`);
  return r.status ?? 1;
}

/** The description another operator gives web, outside Pulumi. */
const DRIFTED = "changed by another operator";

/** What another operator does: a PATCH of web's description through the API, outside Pulumi. */
async function changeOutsidePulumi(c: RunningController, token: string, webId: string): Promise<void> {
  const client = new BoundaryClient({ addr: c.apiUrl, token });
  try {
    const t = await client.getTarget(webId);
    await client.updateTarget(webId, t.version, ["description"], { description: DRIFTED });
    console.log(
      `\nAnother operator changes web outside Pulumi: PATCH /v1/targets/${webId}?update_mask=description {"description": ${JSON.stringify(DRIFTED)}}`,
    );
  } finally {
    await client.close();
  }
}

async function withCli(c: RunningController, token: string): Promise<void> {
  const backend = mkdtempSync(path.join(tmpdir(), "pulumi-boundary-demo-"));
  const env = { ...process.env, PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "demo", PULUMI_SKIP_UPDATE_CHECK: "true" };
  console.log(`Pulumi CLI found: real \`pulumi up\` on a local file backend (${backend})\n`);
  pulumi(["stack", "init", "dev", "--non-interactive"], env);
  try {
    pulumi(["config", "set", "boundary:addr", c.apiUrl], env);
    pulumi(["config", "set", "--secret", "boundary:token"], env, token);
    try {
      pulumi(["up", "--yes", "--skip-preview"], env);
      pulumi(["stack", "output"], env);
      await printTargets(c, token);
      const webId = (await listTargets(c, token)).find((t) => t.name === "web")?.id;
      if (webId) {
        await changeOutsidePulumi(c, token, webId);
        console.log("\n$ pulumi preview --refresh --expect-no-changes --diff");
        const status = pulumi(["preview", "--refresh", "--expect-no-changes", "--diff"], env, undefined, true);
        console.log(`(exit code ${status}: drift detected)\n\n$ pulumi up --refresh --yes`);
        pulumi(["up", "--refresh", "--yes", "--skip-preview"], env);
      }
    } finally {
      pulumi(["destroy", "--yes"], env);
    }
  } finally {
    pulumi(["stack", "rm", "--yes", "--force"], env);
  }
}

/** How a step reads in the demo's output: `update web (description: "a" → "b")`. */
function describe(step: Step): string {
  const diffs = step.diffs?.length ? ` (${step.diffs.map((d) => `${d.field}: ${JSON.stringify(d.old)} → ${JSON.stringify(d.new)}`).join(", ")})` : "";
  return `${step.op} ${step.name}${diffs}${step.failed ? ` FAILED: ${step.failed}` : ""}`;
}
const steps = (list: Step[]) => list.map(describe).join(", ");

/** Returns true when every step succeeded. */
async function offline(c: RunningController, token: string): Promise<boolean> {
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
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- run anew on every run, as Pulumi runs a program: import caches
    return require(file);
  };
  let ok = true;
  try {
    const first = await engine.up(program);
    console.log("pulumi up (offline):", steps(first.steps));
    console.log("Outputs:", JSON.stringify(first.outputs, null, 2));
    await printTargets(c, token);
    if (first.failed) return (ok = false);

    await changeOutsidePulumi(c, token, engine.state.get("web")!.id);
    const drift = await engine.preview(program, { refresh: true, expectNoChanges: true });
    console.log("\npulumi preview --refresh --expect-no-changes (offline):");
    for (const step of drift.steps.filter((s) => s.op !== "same")) console.log(`  ${describe(step)}`);
    console.log(drift.error ? `  error: ${drift.error} (exit code ${drift.exitCode})` : "  no changes (exit code 0)");

    const fixed = await engine.up(program, { refresh: true });
    console.log("\npulumi up --refresh (offline):", steps(fixed.steps.filter((s) => s.op !== "same")), "(the change outside Pulumi is undone)");
    const second = await engine.up(program);
    console.log("\npulumi up again:", steps(second.steps), "(no changes: no target API calls)");
    ok = !fixed.failed && !second.failed && drift.exitCode === 7;
  } finally {
    // whatever happened above, what exists is removed: a failure never leaves Targets behind
    const destroyed = await engine.destroy();
    console.log("pulumi destroy (offline):", steps(destroyed));
    if (destroyed.some((s) => s.failed)) ok = false;
  }
  return ok;
}

async function listTargets(c: RunningController, token: string) {
  const client = new BoundaryClient({ addr: c.apiUrl, token });
  try {
    return await client.listTargets({ scopeId: "global", recursive: true });
  } finally {
    await client.close();
  }
}

/** Lists carry no association ids (as on a real controller), so each listed Target is read too. */
async function printTargets(c: RunningController, token: string): Promise<void> {
  const client = new BoundaryClient({ addr: c.apiUrl, token });
  try {
    const listed = await client.listTargets({ scopeId: "global", recursive: true });
    console.log(`\nThe controller now holds ${listed.length} target(s):`);
    for (const { id } of listed) {
      const t = await client.getTarget(id);
      const hostSets = t.host_source_ids ?? t.host_set_ids ?? [];
      const libraries = t.brokered_credential_source_ids ?? t.application_credential_library_ids ?? [];
      const port = t.attributes?.default_port ?? "-";
      console.log(`  ${t.id}  ${t.name}  v${t.version}  port ${port}  host sets [${hostSets.join(", ")}]  libraries [${libraries.join(", ")}]`);
    }
  } finally {
    await client.close();
  }
}

/** Runs the demo against a controller answering as `emulation`; sets process.exitCode to 1 when a step failed. */
export async function runDemo(emulation: Emulation): Promise<void> {
  const token = generateToken();
  const c = await startController({
    emulation,
    api: { host: "127.0.0.1", port: 0 },
    ops: { host: "127.0.0.1", port: 0 },
    token,
    gracefulShutdownWaitMs: 0,
    fixtures: defaultFixtures(),
  });
  const speaking = isSpec(release(emulation)) ? "the spec's API" : `emulating Boundary v${emulation}`;
  console.log(`Local Boundary controller (${speaking}): API ${c.apiUrl}, ops ${c.opsUrl} (seed data: docs/controller.md)\n`);
  try {
    linkPackage();
    if (!(await onboarding(c.apiUrl, token, "p_1234567890"))) {
      console.error("demo failed: onboarding did not go as it should (see above)");
      process.exitCode = 1;
      return;
    }
    if (hasPulumiCli()) await withCli(c, token);
    else if (!(await offline(c, token))) {
      console.error("demo failed: a step failed (see above); everything it created was destroyed");
      process.exitCode = 1;
    }
  } finally {
    await c.shutdown();
  }
}
