/**
 * The demo's first part: bringing an existing estate under Pulumi. Targets made outside Pulumi,
 * two through the API (as a script or a person would) and three by Terraform (the state file
 * shipped in examples/terraform, applied as `terraform apply` would), are discovered with
 * `pulumi-boundary import` (the built bin, as a user runs it), adopted through the plugin route by
 * the TypeScript programs it writes (their `import` options), and the next preview shows no
 * changes; a change made outside Pulumi is then caught by `preview --refresh --expect-no-changes`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { BoundaryClient } from "../provider/client";
import { OfflineEngine, type Step } from "./offline/engine";
import { pluginProgram } from "./offline/plugin-program";
import { applyTerraformState } from "./terraform/apply";

const repo = path.join(__dirname, "..", "..");
const CLI = path.join(repo, "dist", "cli", "main.js");

/** Runs `pulumi-boundary import …` as a user would, in `cwd`, printing the command and all it printed. */
function importCommand(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  console.log(`\n$ npx pulumi-boundary import ${args.map((a) => (/^[\w./:-]+$/.test(a) ? a : `'${a}'`)).join(" ")}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "import", ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => {
      process.stdout.write(out.replace(/^/gm, "  "));
      if (code === 0) resolve();
      else reject(new Error(`pulumi-boundary import exited ${code}`));
    });
  });
}

const line = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}${s.failed ? ` FAILED: ${s.failed}` : ""}`).join(", ");

/** Runs the onboarding part against the controller at `addr`; returns true when every step went as it should. */
export async function onboarding(addr: string, token: string, project: string): Promise<boolean> {
  const dir = mkdtempSync(path.join(tmpdir(), "pulumi-boundary-onboarding-"));
  const client = new BoundaryClient({ addr, token });
  try {
    console.log("Onboarding: Targets made outside Pulumi, brought in.");
    for (const [name, port] of [
      ["legacy-web", 8080],
      ["legacy-ssh", 22],
    ] as const) {
      const t = await client.createTarget({ scope_id: project, name, type: "tcp", description: "made by a script", attributes: { default_port: port } });
      await client.setHostSources(t.id, t.version, ["hsst_1234567891"]);
      console.log(`  made through the API: ${t.id} ${name}`);
    }
    writeFileSync(path.join(dir, "terraform.tfstate"), await applyTerraformState(path.join(repo, "examples", "terraform", "terraform.tfstate"), client));
    console.log("  made by Terraform: the three boundary_target instances of examples/terraform/terraform.tfstate");
  } finally {
    await client.close();
  }
  const env = { ...process.env, BOUNDARY_ADDR: addr, BOUNDARY_TOKEN: token };
  await importCommand(
    ["--scope", "global", "--recursive", "--filter", '"/item/name" matches "^legacy-"', "--program", "ts", "--program-out", "api.ts"],
    dir,
    env,
  );
  await importCommand(["--from-terraform", "terraform.tfstate", "--program", "ts", "--program-out", "terraform.ts", "--out", "targets.json"], dir, env);

  const programs = [pluginProgram(path.join(dir, "api.ts")), pluginProgram(path.join(dir, "terraform.ts"))];
  const program = () => Object.assign({}, ...programs.map((p) => p()));
  const engine = new OfflineEngine({
    programDir: dir,
    project: "onboarding",
    stack: "dev",
    config: { "boundary:addr": addr, "boundary:token": token },
    pluginDir: repo,
  });
  try {
    const adopted = await engine.up(program);
    console.log(`\npulumi up (offline, plugin route): ${line(adopted.steps)}`);
    const next = await engine.preview(program, { refresh: true, expectNoChanges: true });
    console.log(`pulumi preview --refresh --expect-no-changes: ${next.changes ? `changes: ${line(next.steps)}` : "no changes"} (exit code ${next.exitCode})`);

    const web = engine.state.get("Generated-project-scope-legacy-web")!;
    const c2 = new BoundaryClient({ addr, token });
    try {
      const t = await c2.getTarget(web.id);
      await c2.updateTarget(web.id, t.version, ["attributes.default_port"], { attributes: { default_port: 8443 } });
    } finally {
      await c2.close();
    }
    console.log(`\nAnother operator changes legacy-web's port outside Pulumi (8080 → 8443)`);
    const drift = await engine.preview(program, { refresh: true, expectNoChanges: true });
    for (const s of drift.steps.filter((x) => x.op !== "same")) {
      console.log(`  ${s.op} ${s.name} ${(s.diffs ?? []).map((d) => `(${d.field}: ${JSON.stringify(d.old)} → ${JSON.stringify(d.new)})`).join(" ")}`);
    }
    console.log(`  exit code ${drift.exitCode}: drift detected on an adopted Target\n`);
    return !adopted.failed && adopted.steps.every((s) => s.op === "import") && next.exitCode === 0 && drift.exitCode === 7;
  } finally {
    await engine.close();
  }
}
