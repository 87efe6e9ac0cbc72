/**
 * `npm run demo` as a user runs it (the built script, a real process, no Pulumi CLI on PATH), against
 * each controller emulation: onboarding (Targets made through the API and by Terraform, discovered by
 * `pulumi-boundary import`, adopted through the plugin route, the next preview without changes, a
 * change made outside Pulumi then caught); the program's targets exist with their associations; drift detection
 * (a change made outside Pulumi, reported by preview --refresh --expect-no-changes with the field,
 * old and new value and exit code 7, then put back by up --refresh); the next run changes nothing;
 * a bad `--emulate` is refused by name, an unknown flag names the nearest, and `--help` lists them.
 */
import { RELEASE_KEYS } from "../../wire/releases";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { until } from "../helpers/wait";

// a test awaits a run started in beforeAll: on a loaded machine one run takes up to a minute or more
jest.setTimeout(130_000);

const DEMO = path.join(__dirname, "..", "..", "dist", "examples", "demo.js");
/** The link the demo makes on its first run, so that examples/basic resolves the package (see examples/demo.ts). */
const LINK = path.join(__dirname, "..", "..", "examples", "basic", "node_modules", "pulumi-boundary");

interface DemoRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the demo to its end, killed after two minutes as a hung run would be. */
function demo(args: string[]): Promise<DemoRun> {
  // PATH holds only node's own folder: the demo must take its offline route
  const env = { ...process.env, PATH: path.dirname(process.execPath) };
  const child = spawn(process.execPath, [DEMO, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  const run: DemoRun = { status: null, stdout: "", stderr: "" };
  child.stdout.on("data", (d) => (run.stdout += d));
  child.stderr.on("data", (d) => (run.stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ...run, status: code });
    }),
  );
}

/**
 * Every run of the file, started at once in beforeAll (each spends most of its time waiting on its
 * own controller and plugin process, and a loaded machine's scheduler gives three runs more of its
 * time than one), each test awaiting its own. The first run links the package into examples/basic
 * (a check then a symlink: two first runs at once would race), so the others start once the link is there.
 */
const runs = new Map<string, Promise<DemoRun>>();
const run = (args: string[]) => runs.get(args.join(" "))!;
beforeAll(async () => {
  const start = (args: string[]) => runs.set(args.join(" "), demo(args));
  for (const args of [["--emulate=0.3"], ["--emulat", "0.21"], ["--help"], ["--emulate", "spec"]]) start(args);
  const first = run(["--emulate", "spec"]);
  let ended = false;
  void first.then(() => (ended = true));
  await until(() => existsSync(LINK) || ended, "the demo's link in examples/basic", 120_000);
  for (const mode of ["0.4", "0.21"]) start(["--emulate", mode]);
}, 130_000);
// nothing is left running whatever the tests did
afterAll(() => Promise.all(runs.values()), 130_000);

describe.each(["spec", "0.4", "0.21"])("npm run demo -- --emulate %s", (mode) => {
  test("creates web and db with their associations, changes nothing the second time, destroys", async () => {
    const r = await run(["--emulate", mode]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(mode === "spec" ? "(the spec's API)" : `emulating Boundary v${mode}`);
    expect(r.stdout).toMatch(/made through the API: ttcp_\w{10} legacy-web\n/);
    expect(r.stdout).toContain("made by Terraform: the three boundary_target instances of examples/terraform/terraform.tfstate");
    expect(r.stdout).toContain("2 Target(s) from scope global (recursive)");
    expect(r.stdout).toContain("3 Target(s) from terraform.tfstate, in 2 project(s): p_0987654321 (1), p_1234567890 (2)");
    expect(r.stdout).toContain(
      "pulumi up (offline, plugin route): import data-db-orders, import Generated-project-scope-legacy-ssh, " +
        "import Generated-project-scope-legacy-web, import ssh-0, import ssh-1\n" +
        "pulumi preview --refresh --expect-no-changes: no changes (exit code 0)",
    );
    expect(r.stdout).toContain(
      "  refresh Generated-project-scope-legacy-web (defaultPort: 8080 → 8443)\n  update Generated-project-scope-legacy-web (defaultPort: 8443 → 8080)",
    );
    expect(r.stdout).toMatch(/pulumi up \(offline\): create web, create db/);
    expect(r.stdout).toMatch(/ttcp_\w{10} {2}db {2}v\d+ {2}port 5432 {2}host sets \[hsst_1234567890\] {2}libraries \[clvlt_1234567890\]/);
    expect(r.stdout).toMatch(/ttcp_\w{10} {2}web {2}v\d+ {2}port 22 {2}host sets \[hsst_1234567891\] {2}libraries \[\]/);
    expect(r.stdout).toMatch(
      /Another operator changes web outside Pulumi: PATCH \/v1\/targets\/ttcp_\w{10}\?update_mask=description \{"description": "changed by another operator"\}/,
    );
    expect(r.stdout).toContain(
      [
        "pulumi preview --refresh --expect-no-changes (offline):",
        '  refresh web (description: "Web servers, over SSH" → "changed by another operator")',
        '  update web (description: "changed by another operator" → "Web servers, over SSH")',
        "  error: no changes were expected for preview but changes were proposed (exit code 7)",
      ].join("\n"),
    );
    expect(r.stdout).toMatch(
      /pulumi up --refresh \(offline\): refresh web \(description: .*\), update web \(description: "changed by another operator" → "Web servers, over SSH"\) \(the change outside Pulumi is undone\)/,
    );
    expect(r.stdout).toContain("pulumi up again: same web, same db");
    expect(r.stdout).toContain("pulumi destroy (offline): delete db, delete web");
  });
});

test("an unknown --emulate names the flag and the choices", async () => {
  const r = await run(["--emulate=0.3"]);
  expect(r.status).toBe(1);
  expect(r.stderr.trim()).toBe(`demo failed: --emulate: "0.3" is not one of ${RELEASE_KEYS.join(", ")}`);
});

test("an unknown flag is refused, naming the nearest; --help lists the flags", async () => {
  const typo = await run(["--emulat", "0.21"]);
  expect([typo.status, typo.stdout, typo.stderr.trim()]).toEqual([2, "", "demo: unknown flag --emulat: did you mean --emulate? (--help lists the flags)"]);
  const help = await run(["--help"]);
  expect([help.status, help.stderr]).toEqual([0, ""]);
  expect(help.stdout).toMatch(/^Usage: npm run demo \[-- --emulate <mode>\]/);
  expect(help.stdout).toContain(`--emulate <mode>   answer as ${RELEASE_KEYS.join(", ")}`);
  expect(help.stdout).not.toContain("Local Boundary controller");
});
