/**
 * The command line reads and checks its arguments before it loads what only the work needs: help,
 * a refused flag or value, and a wrong command load neither zod's schemas, nor the controller's
 * server and store, nor the provider's client, nor Pulumi's SDK. Each run is the built bin, as a
 * user starts it, with a preload that writes the modules it loaded at exit; the output is the same
 * as without it (cli.test, config.test and the import and demo tests check the bytes).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { CLI } from "../helpers/cli";

const dir = mkdtempSync(path.join(tmpdir(), "pb-lazy-"));
/** Written at exit: every module file in require's cache, one a line. */
const PRELOAD = path.join(dir, "loaded.js");
writeFileSync(PRELOAD, `process.on("exit", () => require("node:fs").writeFileSync(process.env.PB_LOADED_OUT, Object.keys(require.cache).join("\\n")));\n`);

/** Runs `script` with `args`; its exit code and the modules it loaded, as paths from the package's root (`node_modules/zod/…`, `dist/controller/…`). */
function loaded(script: string, args: string[]): { status: number | null; modules: string[] } {
  const out = path.join(dir, `${Math.random().toString(36).slice(2)}.txt`);
  const r = spawnSync(process.execPath, ["--require", PRELOAD, script, ...args], {
    env: { ...process.env, PB_LOADED_OUT: out, NODE_OPTIONS: "" },
    encoding: "utf8",
    timeout: 60_000,
  });
  const root = path.join(__dirname, "..", "..") + path.sep;
  const modules = readFileSync(out, "utf8")
    .split("\n")
    .filter((f) => f.startsWith(root))
    .map((f) => f.slice(root.length));
  return { status: r.status, modules };
}

/** What only the work needs: the schemas, the controller's server and store, the provider's client, Pulumi's SDK, gRPC. */
const HEAVY = [
  /^node_modules\/zod\//,
  /^node_modules\/@pulumi\//,
  /^node_modules\/@grpc\//,
  /^node_modules\/undici\//,
  /^dist\/controller\/(server|store)/,
  /^dist\/provider\/client/,
];
const heavy = (modules: string[]) => modules.filter((m) => HEAVY.some((h) => h.test(m)));

test.each([
  [["dev", "--help"], 0],
  [["dev", "--version"], 0],
  [["dev", "--frobnicate"], 2],
  [["dev", "--emulate", "0.3"], 2],
  [["dev", "--log-format", "xml"], 2],
  [["dev", "--config", "/nonexistent/dev.hcl"], 2],
])("pulumi-boundary %j answers (exit %i) without loading what only the run needs", (args, code) => {
  const r = loaded(CLI, args);
  expect(r.status).toBe(code);
  expect(heavy(r.modules)).toEqual([]);
  // the preload sees what it should: the command's own module was loaded
  expect(r.modules).toContain(path.join("dist", "controller", "dev-command.js"));
});

test("a start loads them (the preload sees the heavy modules when they load)", () => {
  // a --fixtures file that is refused only by the store's schemas: zod is loaded, the server is not
  const fixtures = path.join(dir, "fx.json");
  writeFileSync(fixtures, JSON.stringify({ scopes: [], colour: 1 }));
  const r = loaded(CLI, ["dev", "--fixtures", fixtures]);
  expect(r.status).toBe(2);
  expect(heavy(r.modules)).toContain(path.join("node_modules", "zod", "index.cjs"));
  expect(heavy(r.modules).filter((m) => m.startsWith("dist/controller/server"))).toEqual([]);
});

const DEMO = path.join(__dirname, "..", "..", "dist", "examples", "demo.js");

test.each([
  [["--help"], 0],
  [["--emulat", "0.21"], 2],
  [["--emulate=0.3"], 1],
])("the demo %j answers (exit %i) without loading the controller, the provider or Pulumi's SDK", (args, code) => {
  const r = loaded(DEMO, args);
  expect(r.status).toBe(code);
  expect(heavy(r.modules)).toEqual([]);
  expect(r.modules.filter((m) => m.startsWith(path.join("dist", "examples", "demo-run")))).toEqual([]);
  expect(r.modules).toContain(path.join("dist", "examples", "demo.js"));
});

test.each([
  [["import", "--scop", "global"], 2, "estate"],
  [["import"], 2, "estate"],
  [["import", "--scope", "global", "--format", "yaml"], 2, "estate"],
  [["doctor", "--scop", "p_1234567890"], 2, "doctor"],
  [["doctor", "--scope", "p 1"], 2, "doctor"],
])("pulumi-boundary %j answers (exit %i) without loading what only the run needs", (args, code, folder) => {
  const r = loaded(CLI, args);
  expect(r.status).toBe(code);
  expect(heavy(r.modules)).toEqual([]);
  expect(r.modules).toContain(path.join("dist", "provider", folder, "command.js"));
});

test("import from a Terraform state reads it without the provider's client (only a live scope or --live needs it)", () => {
  const state = path.join(__dirname, "..", "..", "examples", "terraform", "terraform.tfstate");
  const r = loaded(CLI, ["import", "--from-terraform", state, "--out", path.join(dir, "targets.json")]);
  expect(r.status).toBe(0);
  const used = heavy(r.modules);
  expect(used).toContain(path.join("node_modules", "zod", "index.cjs")); // the state's schema
  expect(used.filter((m) => /undici|provider\/client|@pulumi/.test(m))).toEqual([]);
});
