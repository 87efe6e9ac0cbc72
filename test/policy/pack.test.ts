/**
 * The shipped pack as the engine meets it: started from the installed package's `policy-pack/` as
 * the Node language host starts an analyzer, it answers GetPluginInfo, GetAnalyzerInfo (the six
 * policies, their default levels and config schemas), ConfigureStack, Configure and Remediate; it
 * judges Targets only; and `pulumi-boundary/policy` can be imported without starting anything.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { packedProgram, programRequire } from "../../harness/provider-host";
import { installedPack, reconcile, usePolicyPack } from "../helpers/policy-pack";
import { typeCheckAsTemplate } from "../helpers/template";
import { useTargetRoutes } from "../helpers/registrations";

const ROOT = path.join(__dirname, "..", "..");
const manifest = (file: string) => JSON.parse(readFileSync(file, "utf8")) as { version: string; files: string[]; exports: Record<string, unknown> };

const pack = usePolicyPack();
const routes = useTargetRoutes();

/** The policies, their default levels and kinds, and their settings' defaults, as the issue asks. */
const EXPECTED = [
  ["boundary-target-connection-limit", "mandatory", "resource", { maxConnections: 10 }],
  ["boundary-target-session-duration", "mandatory", "resource", { maxSessionSeconds: 28800 }],
  ["boundary-target-worker-filter", "advisory", "resource", {}],
  ["boundary-target-host-sources", "advisory", "resource", {}],
  ["boundary-target-description", "advisory", "resource", { minLength: 1 }],
  ["boundary-target-unique-names", "mandatory", "stack", {}],
] as const;

test("the installed package's pack starts as the engine starts it and describes its six policies, their levels and settings", async () => {
  // @pulumi/policy 1.21 has no Handshake: the engine falls back on Unimplemented (analyzer_plugin.go) and goes on
  expect(await pack.handshake(installedPack())).toBe(12); // UNIMPLEMENTED
  const policyVersion = manifest(require.resolve("@pulumi/policy/package.json", { paths: [installedPack()] })).version.replace(/^v/, "");
  expect(await pack.pluginInfo()).toBe(policyVersion);
  await pack.configureStack("dev", "policy-test", true);
  const info = await pack.analyzerInfo();
  expect(info).toMatchObject({ name: "pulumi-boundary-targets", version: manifest(path.join(ROOT, "package.json")).version, supportsConfig: true });
  expect(info.policies.map((p) => [p.name, p.level, p.type])).toEqual(EXPECTED.map(([name, level, type]) => [name, level, type]));
  const reconciled = reconcile(info.policies, {});
  for (const [name, level, , settings] of EXPECTED) expect(reconciled[name]).toEqual({ level, props: settings });
  for (const p of info.policies) expect(p.description).not.toBe("");
});

test("the engine refuses settings outside a policy's schema before it configures the pack", async () => {
  const { policies } = await pack.analyzerInfo();
  expect(() => reconcile(policies, { "boundary-target-connection-limit": { maxConnections: 0 } })).toThrow(
    /boundary-target-connection-limit: maxConnections must be >= 1/,
  );
  expect(() => reconcile(policies, { "boundary-target-session-duration": { maxSessionSeconds: "8h" } })).toThrow(/maxSessionSeconds must be integer/);
  expect(() => reconcile(policies, { "boundary-target-description": { minLength: 2.5 } })).toThrow(/minLength must be integer/);
  // the levels the issue names, per policy and for all
  expect(reconcile(policies, { all: "advisory", "boundary-target-worker-filter": "disabled" })).toMatchObject({
    "boundary-target-connection-limit": { level: "advisory" },
    "boundary-target-worker-filter": { level: "disabled" },
  });
});

test("a setting that reaches the pack outside its schema fails the analysis, naming the policy, the setting and the rule", async () => {
  const [web] = await routes.register("plugin", [{ name: "web", args: { scopeId: "p_1234567890", sessionConnectionLimit: 5 } }]);
  await pack.configure({ "boundary-target-connection-limit": { maxConnections: "ten" } }, { unchecked: true });
  try {
    await expect(pack.analyze(web!.analyzed)).rejects.toThrow(
      /boundary-target-connection-limit: the setting maxConnections is "ten": it must be a whole number from 1 to 2147483647 \(default 10\)/,
    );
  } finally {
    await pack.configure({});
  }
});

test("Remediate, which the engine sends with the internal keys kept: the pack changes nothing", async () => {
  await pack.configure({});
  for (const route of ["plugin", "dynamic"] as const) {
    const [web] = await routes.register(route, [{ name: "web", args: { scopeId: "p_1234567890" } }]);
    expect(Object.keys(web!.analyzed.props).some((k) => k.startsWith("__"))).toBe(true);
    expect(await pack.remediate(web!.analyzed)).toBe(0);
  }
});

test("resources that are no Target are not judged, even with a Target's fields: every policy says it does not apply", async () => {
  await pack.configure({});
  const props = { scopeId: "p_1234567890", name: "web", sessionConnectionLimit: -1, address: "10.0.0.5" };
  for (const type of ["pulumi-nodejs:dynamic/other:Target", "boundary:index:TargetSummary", "aws:ec2/instance:Instance"]) {
    const r = { urn: `urn:pulumi:dev::policy-test::${type}::web`, type, name: "web", props };
    const analysis = await pack.analyze(r);
    expect(analysis.diagnostics).toEqual([]);
    expect(analysis.notApplicable.map((n) => n.policy)).toEqual(EXPECTED.filter(([, , kind]) => kind === "resource").map(([name]) => name));
    const stack = await pack.analyzeStack([r, { ...r, urn: `${r.urn}2`, name: "web2" }]);
    expect(stack.diagnostics).toEqual([]);
    expect(stack.notApplicable.map((n) => n.policy)).toEqual(["boundary-target-unique-names"]);
  }
});

test("the dynamic route's type is what the Target class registers, and the plugin's is the package schema's resource", async () => {
  const { TARGET_TYPES } = await import("pulumi-boundary/policy");
  const [dynamic] = await routes.register("dynamic", [{ name: "web", args: { scopeId: "p_1234567890" } }]);
  expect(dynamic!.analyzed.type).toBe(TARGET_TYPES.dynamic);
  const schema = JSON.parse(readFileSync(path.join(ROOT, "schema.json"), "utf8")) as { resources: Record<string, unknown> };
  expect(Object.keys(schema.resources)).toEqual([TARGET_TYPES.plugin]);
});

test("importing pulumi-boundary/policy starts no server and loads no analyzer: the process ends by itself", () => {
  const program = packedProgram();
  const out = execFileSync(
    process.execPath,
    [
      "-e",
      `const p = require("pulumi-boundary/policy");
       process.stdout.write(JSON.stringify({
         names: p.targetPolicies.map((x) => x.name),
         analyzer: Object.keys(require.cache).some((k) => k.includes("@pulumi/policy") || k.includes("grpc-js")),
       }));`,
    ],
    { cwd: program, encoding: "utf8", timeout: 20_000 },
  );
  // a bound gRPC server would keep the process alive until the timeout kills it (execFileSync then throws)
  expect(JSON.parse(out)).toEqual({ names: EXPECTED.map(([name]) => name), analyzer: false });
  expect(programRequire<{ POLICY_PACK: { name: string } }>(program, "pulumi-boundary/policy").POLICY_PACK.name).toBe("pulumi-boundary-targets");
});

test("the package ships the pack and its policies; the pack's package.json carries the package's version (the pack reports it)", () => {
  const root = manifest(path.join(ROOT, "package.json"));
  expect(root.files).toEqual(expect.arrayContaining(["dist/policy/", "policy-pack/"]));
  expect(Object.keys(root.exports)).toContain("./policy");
  expect(manifest(path.join(ROOT, "policy-pack", "package.json")).version).toBe(root.version);
  const installed = path.join(packedProgram(), "node_modules", "pulumi-boundary");
  for (const file of ["policy-pack/PulumiPolicy.yaml", "policy-pack/package.json", "policy-pack/index.js", "dist/policy/index.js", "dist/policy/index.d.ts"]) {
    expect(() => readFileSync(path.join(installed, file))).not.toThrow();
  }
  expect(readFileSync(path.join(installed, "policy-pack", "PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
});

test("a team's own pack importing pulumi-boundary/policy compiles under Pulumi's TypeScript template (node resolution, strict, no skipLibCheck)", () => {
  const program = `import { connectionLimit, targetPolicies, TARGET_TYPES, type PolicySettingError } from "pulumi-boundary/policy";
const names: string[] = [...targetPolicies, connectionLimit].map((p) => p.name);
const type: "boundary:index:Target" = TARGET_TYPES.plugin;
export const described = { names, type, error: undefined as PolicySettingError | undefined };
`;
  // the template's devDependencies bring @types/node (here: the repository's)
  const r = typeCheckAsTemplate("own-pack-", program, { typeRoots: [path.join(ROOT, "node_modules", "@types")], types: ["node"] });
  expect(r.diagnostics).toBe("");
  expect([r.status, r.signal]).toEqual([0, null]);
}, 120_000); // a whole compile, on a loaded machine
