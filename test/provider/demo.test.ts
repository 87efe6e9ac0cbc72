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
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const DEMO = path.join(__dirname, "..", "..", "dist", "examples", "demo.js");

function demo(args: string[]) {
  // PATH holds only node's own folder: the demo must take its offline route
  const env = { ...process.env, PATH: path.dirname(process.execPath) };
  return spawnSync(process.execPath, [DEMO, ...args], { env, encoding: "utf8", timeout: 120_000 });
}

describe.each(["spec", "0.4", "0.21"])("npm run demo -- --emulate %s", (mode) => {
  test("creates web and db with their associations, changes nothing the second time, destroys", () => {
    const r = demo(["--emulate", mode]);
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

test("an unknown --emulate names the flag and the choices", () => {
  const r = demo(["--emulate=0.3"]);
  expect(r.status).toBe(1);
  expect(r.stderr.trim()).toBe(`demo failed: --emulate: "0.3" is not one of ${RELEASE_KEYS.join(", ")}`);
});

test("an unknown flag is refused, naming the nearest; --help lists the flags", () => {
  const typo = demo(["--emulat", "0.21"]);
  expect([typo.status, typo.stdout, typo.stderr.trim()]).toEqual([2, "", "demo: unknown flag --emulat: did you mean --emulate? (--help lists the flags)"]);
  const help = demo(["--help"]);
  expect([help.status, help.stderr]).toEqual([0, ""]);
  expect(help.stdout).toMatch(/^Usage: npm run demo \[-- --emulate <mode>\]/);
  expect(help.stdout).toContain(`--emulate <mode>   answer as ${RELEASE_KEYS.join(", ")}`);
  expect(help.stdout).not.toContain("Local Boundary controller");
});
