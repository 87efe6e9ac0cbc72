/**
 * The package as a new user gets it, from a fresh clone: the real `npx pulumi-boundary` (npx → npm
 * → sh → node) before `npm ci` (it says to run it), after it, again after `npm run demo` (as the README's first
 * command runs it: it builds nothing after `npm ci`), and the package installed from a tarball and from a git URL.
 * That a rebuild leaves the bin executable is held by test/package/build-stale.test.ts, on a small project.
 *
 * One clone of this repository's HEAD (committed code: commit before running this file alone)
 * and one `npm ci` (offline from npm's cache when it can) serve every test here. The two installs
 * into programs of their own (from the git URL: npm clones again, installs every dev dependency,
 * builds and packs; from the tarball `npm pack` made in the clone) touch nothing in the clone, so
 * they run while the clone installs and the tests of the clone run: the git URL's from the start
 * (it reads only the clone's commit), the tarball's once `npm pack` has run after `npm ci`.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { until } from "../helpers/wait";

const repo = path.join(__dirname, "..", "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const INSTALL = ["--no-audit", "--no-fund", "--prefer-offline"];
const version = (JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as { version: string }).version;

let dir: string;
let clone: string;
/** `npx pulumi-boundary dev` in the clone before `npm ci`, as a newcomer may type it first. */
let beforeCi: Ran;
/** The clone's `npm ci`, as a newcomer's first command prints it. */
let ci: Ran;
/** `npm pack` in the clone after `npm ci`, and `git status --porcelain` right after it. */
let packed: Ran;
let statusAfterPack: string;
/** The installs into programs of their own, running in the background; each settles with what it ran. */
let fromTarball: Promise<Ran>;
let fromGit: Promise<Ran>;

/** A command's exit status and output. */
type Ran = { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };
const run = (cmd: string, args: string[], cwd = clone) => spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 300_000 });
/**
 * As `run`, without holding the test process while it runs (the background installs go on meanwhile);
 * killed at its deadline, and never rejects: a failure to start is an exit status of null.
 */
function runAsync(cmd: string, args: string[], cwd = clone, timeout = 300_000): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], timeout });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err) => (stderr += `${err.message}\n`));
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}
/** A new program folder `name` in the temp dir, then `npm install` of `spec` there, as the README says. */
function installInto(name: string, spec: string): Promise<Ran> {
  const program = path.join(dir, name);
  mkdirSync(program);
  writeFileSync(path.join(program, "package.json"), JSON.stringify({ name, private: true }));
  return runAsync(npm, ["install", ...INSTALL, spec], program, 400_000);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "pb-clone-"));
  clone = path.join(dir, "pulumi-boundary");
  execFileSync("git", ["clone", "--quiet", repo, clone]);
  const sha = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
  execFileSync("git", ["checkout", "--quiet", sha], { cwd: clone });
  beforeCi = run(npx, ["pulumi-boundary", "dev"]);
  fromGit = installInto("from-git", `git+file://${clone}#${sha}`);
  // the longest step, beside the git URL's install: 80 s alone on a quiet machine, past 300 s at a load average of 12-30
  ci = await runAsync(npm, ["ci", ...INSTALL], clone, 480_000);
  if (ci.status !== 0)
    throw new Error(`npm ci failed in the clone (${ci.signal ? `killed, ${ci.signal}: past its deadline` : `exit ${ci.status}`}):\n${ci.stdout}\n${ci.stderr}`);
  // before `npm run demo` (it would rebuild a stale dist/, which the pack reads) and before any npx in the clone (prepack rewrites package.json)
  packed = await runAsync(npm, ["pack", "--pack-destination", dir]);
  statusAfterPack = run("git", ["status", "--porcelain"]).stdout;
  fromTarball = installInto("from-tarball", path.join(dir, `pulumi-boundary-${version}.tgz`));
}, 600_000);

afterAll(async () => {
  // the background installs end (each has a deadline) before their folders go
  await Promise.allSettled([fromGit, fromTarball]);
  rmSync(dir, { recursive: true, force: true });
  // npx keeps the checkout's link in its cache, under a hash of the checkout's path
  const cache = execFileSync(npm, ["config", "get", "cache"], { encoding: "utf8" }).trim();
  rmSync(path.join(cache, "_npx", createHash("sha512").update(clone).digest("hex").slice(0, 16)), { recursive: true, force: true });
});

test("npx pulumi-boundary dev before npm ci says to run npm ci, and leaves npx working (every npx below reuses its cache entry)", () => {
  expect(beforeCi.status).toBe(1);
  expect(beforeCi.stderr).toContain(`pulumi-boundary is not built in ${clone}: run \`npm ci\` there first, then this command again.`);
});

test("npm ci on the machine's Node 20 is quiet: no EBADENGINE for the packages that run on the checkout's Node 24 (the checkout's .npmrc)", () => {
  expect(process.versions.node.split(".")[0]).toBe("24"); // jest itself runs on the dev dependency's Node
  expect(`${ci.stdout}${ci.stderr}`).not.toContain("EBADENGINE");
  expect(ci.stderr).not.toMatch(/npm warn/);
});

/** The bin's file, as package.json names it (one place says where the bin lives). */
const BIN = (JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["pulumi-boundary"]!;
const bin = () => path.join(clone, BIN);
const builtAt = () => statSync(path.join(clone, "dist", ".built")).mtimeMs;

/** `npx pulumi-boundary dev` on free ports, as a user starts it; resolves once the banner is out. */
function startDev(): Promise<{ npx: ChildProcess; output: () => string; apiUrl: string; opsUrl: string; ended: Promise<void> }> {
  const child = spawn(npx, ["pulumi-boundary", "dev", "--api-addr", "127.0.0.1:0", "--ops-addr", "127.0.0.1:0"], {
    cwd: clone,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  // the pipes close when the last process holding them (the controller) has exited
  const ended = new Promise<void>((resolve) => child.stdout!.once("close", resolve));
  return until(() => /Try: .*\n/.test(out) && out, "the banner", 60_000).then(() => ({
    npx: child,
    output: () => out,
    apiUrl: /API address: (\S+)/.exec(out)![1]!,
    opsUrl: /Ops address: (\S+)/.exec(out)![1]!,
    ended,
  }));
}

describe.each(["after npm ci", "after npm run demo"])("the real npx pulumi-boundary in the clone, %s", (stage) => {
  /** `npm run demo`'s output, and whether it wrote dist/ again. */
  let demo: { out: string; built: boolean } | undefined;
  beforeAll(async () => {
    if (stage === "after npm ci") return;
    const before = builtAt();
    const ran = await runAsync(npm, ["run", "demo"]);
    if (ran.status !== 0) throw new Error(`npm run demo failed in the clone:\n${ran.stdout}\n${ran.stderr}`);
    demo = { out: ran.stdout, built: builtAt() !== before };
  }, 300_000);

  if (stage === "after npm run demo") {
    test("npm run demo right after npm ci builds nothing: dist/ is the build npm ci made", () => {
      expect(demo!.out).toContain("dist/ is the build of the sources as they are: not built again");
      expect(demo!.built).toBe(false);
    });
  }

  test("the bin is executable and npx runs it without building: --version and dev --help exit 0", () => {
    accessSync(bin(), constants.X_OK);
    const before = builtAt();
    const v = run(npx, ["pulumi-boundary", "--version"]);
    expect([v.status, v.stdout, v.stderr]).toEqual([0, `pulumi-boundary ${version}\n`, ""]); // no EBADENGINE either
    const help = run(npx, ["pulumi-boundary", "dev", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pulumi-boundary dev \[options\]/);
    expect(builtAt()).toBe(before); // no tsc ran
  }, 120_000);

  test("dev: the banner's Try line works in bash; SIGTERM to npx stops the controller gracefully", async () => {
    const dev = await startDev();
    try {
      const line = /Try: (.*)\n/.exec(dev.output())![1]!;
      const tried = spawnSync("bash", ["-c", line], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH } });
      expect([tried.status, tried.stderr]).toEqual([0, ""]);
      expect(JSON.parse(tried.stdout)).toEqual({ items: [] });
      expect((await fetch(`${dev.opsUrl}/health`)).status).toBe(200);
      // what a process manager, `timeout` or a container stop does: signal the pid it started
      dev.npx.kill("SIGTERM");
      await dev.ended;
      expect(dev.output()).toMatch(/received signal signal="?parent exited"?[\s\S]*shutdown started[\s\S]*shutdown complete/);
      await expect(fetch(`${dev.opsUrl}/health`)).rejects.toThrow();
    } finally {
      dev.npx.kill("SIGKILL");
    }
  }, 120_000);
});

describe("installed as the README says", () => {
  test("from a tarball: no lifecycle script in the installed package, npm lists none of ours, the bin runs", async () => {
    expect(packed.status).toBe(0);
    expect(statusAfterPack).toBe(""); // package.json put back
    expect(run("git", ["status", "--porcelain"]).stdout).toBe(""); // and the demo left nothing behind either
    const program = path.join(dir, "from-tarball");
    const installed = await fromTarball;
    expect([installed.status, installed.status === 0 ? "" : installed.stderr]).toEqual([0, ""]); // npm's words when it failed
    expect(installed.stderr).not.toMatch(/pulumi-boundary@[^\n]*\((preinstall|install|postinstall|prepare)/);
    const manifest = JSON.parse(readFileSync(path.join(program, "node_modules", "pulumi-boundary", "package.json"), "utf8"));
    expect(Object.keys(manifest.scripts ?? {}).filter((s) => /^(pre|post)?(install|prepare|pack)$|^prepack$|^postpack$/.test(s))).toEqual([]);
    expect(manifest.devDependencies).toBeUndefined(); // Pulumi's plugin install (npm install in the package's folder) would install them
    expect(manifest).toMatchObject({
      license: "MPL-2.0",
      repository: { type: "git" },
      homepage: expect.any(String),
      bugs: { url: expect.any(String) },
      keywords: expect.arrayContaining(["pulumi", "boundary"]),
    });
    expect(readFileSync(path.join(program, "node_modules", "pulumi-boundary", "LICENSE"), "utf8")).toMatch(/^Mozilla Public License Version 2\.0/);
    const v = run(npx, ["pulumi-boundary", "--version"], program);
    expect([v.status, v.stdout]).toEqual([0, `pulumi-boundary ${version}\n`]);
  }, 300_000);

  test("from a git URL: npm builds it once, and the installed package carries no lifecycle script", async () => {
    const program = path.join(dir, "from-git");
    const installed = await fromGit;
    expect([installed.status, installed.signal, installed.status === 0 ? "" : installed.stderr]).toEqual([0, null, ""]); // npm's words when it failed
    const manifest = JSON.parse(readFileSync(path.join(program, "node_modules", "pulumi-boundary", "package.json"), "utf8"));
    expect(manifest.scripts?.prepare).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    accessSync(path.join(program, "node_modules", "pulumi-boundary", BIN), constants.X_OK);
    // a later install does not list it among the packages with install scripts
    const again = run(npm, ["install", ...INSTALL], program);
    expect(again.stderr).not.toContain("pulumi-boundary@");
    const v = run(npx, ["pulumi-boundary", "--version"], program);
    expect([v.status, v.stdout]).toEqual([0, `pulumi-boundary ${version}\n`]);
  }, 300_000);

  test("from a git URL and from the tarball: the same package, file for file and byte for byte", async () => {
    const [tarball, git] = await Promise.all([fromTarball, fromGit]);
    expect([tarball.status, git.status]).toEqual([0, 0]); // each install's own test shows npm's words
    const fromTarballFiles = packageFiles(path.join(dir, "from-tarball"));
    expect(Object.keys(fromTarballFiles)).toEqual(expect.arrayContaining(["package.json", "LICENSE", BIN]));
    expect(packageFiles(path.join(dir, "from-git"))).toEqual(fromTarballFiles);
  });
});

/** The installed package's files under `program`, each with its mode and its bytes' SHA-256 (its own node_modules aside). */
function packageFiles(program: string): Record<string, string> {
  const root = path.join(program, "node_modules", "pulumi-boundary");
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const file = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(file);
      } else {
        const mode = (statSync(path.join(root, file)).mode & 0o777).toString(8);
        out[file] = `${mode} ${createHash("sha256")
          .update(readFileSync(path.join(root, file)))
          .digest("hex")}`;
      }
    }
  };
  walk("");
  return out;
}
