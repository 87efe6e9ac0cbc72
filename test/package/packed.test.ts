/**
 * The background pack jest's global setup starts (harness/pack.ts): the folders are named at once
 * and filled later; readers wait for their stage and get its failure, word for word, when it failed;
 * a pack waits while another run packs the same checkout, and takes over a lock whose holder is gone.
 * Run on one-file packages with no dependencies, so each pack and install takes a second or two.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { packedReady, packedTarball, startPackAndInstall, waitForPacked } from "../../harness/pack";

let dir: string;
/** The run's own background pack, which these tests point the readers away from and back to. */
const run = { status: process.env.PB_PACKED_STATUS, tarball: process.env.PB_PACKED_TARBALL };

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "pb-pack-check-"));
});
afterEach(() => {
  for (const [key, value] of [["PB_PACKED_STATUS", run.status] as const, ["PB_PACKED_TARBALL", run.tarball] as const]) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A package `name` in the temp dir: one module, no dependencies, and `scripts`. */
function project(name: string, scripts: Record<string, string> = {}): string {
  const root = path.join(dir, name);
  mkdirSync(root);
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name, version: "1.2.3", main: "index.js", scripts }));
  writeFileSync(path.join(root, "index.js"), `module.exports = ${JSON.stringify(name)};\n`);
  return root;
}

test("the folders are named before they are filled; a reader blocking the process that started the pack still sees it end; the program has installed the tarball", async () => {
  const packing = startPackAndInstall(project("pack-ok"));
  expect(packing.tarball).toBe(path.join(path.dirname(packing.program), "pack-ok-1.2.3.tgz"));
  expect(existsSync(path.join(packing.program, "node_modules"))).toBe(false); // returned before npm ran
  process.env.PB_PACKED_STATUS = packing.status;
  process.env.PB_PACKED_TARBALL = packing.tarball;
  // as a lone test file does in jest's own process, whose global setup started the pack: the pack's stages run in a process of their own
  waitForPacked("program");
  await packedReady("program");
  expect(existsSync(packing.tarball)).toBe(true);
  expect(packedTarball()).toBe(packing.tarball);
  expect(readFileSync(path.join(packing.program, "node_modules", "pack-ok", "index.js"), "utf8")).toContain('"pack-ok"');
  await expect(packing.done).resolves.toBeUndefined();
  rmSync(path.dirname(packing.program), { recursive: true, force: true });
}, 120_000);

test("a failed pack fails every reader and the run's promise with npm's own output", async () => {
  const packing = startPackAndInstall(project("pack-fails", { prepack: `node -e "console.error('prepack says no'); process.exit(3)"` }));
  await expect(packing.done).rejects.toThrow(
    /could not be packed and installed for this run \(tarball\): `npm pack[^`]*` in \S+ exited 3:[\s\S]*prepack says no/,
  );
  process.env.PB_PACKED_STATUS = packing.status;
  expect(() => waitForPacked("tarball")).toThrow("prepack says no");
  expect(() => waitForPacked("program")).toThrow("prepack says no");
  await expect(packedReady("program")).rejects.toThrow("prepack says no");
  rmSync(path.dirname(packing.program), { recursive: true, force: true });
}, 120_000);

test("a pack waits while another run holds the checkout's pack lock, and takes it over once that run is gone", async () => {
  const root = project("pack-locked");
  const lock = path.join(root, "node_modules", ".cache", "pulumi-boundary", "pack.lock");
  mkdirSync(lock, { recursive: true });
  const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  const exited = new Promise((r) => holder.once("exit", r));
  try {
    writeFileSync(path.join(lock, "pid"), String(holder.pid));
    const packing = startPackAndInstall(root);
    let settled = false;
    void packing.done.finally(() => (settled = true)).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 3000));
    expect([settled, existsSync(packing.tarball)]).toEqual([false, false]);
    holder.kill();
    await exited;
    await expect(packing.done).resolves.toBeUndefined();
    expect(existsSync(lock)).toBe(false); // released
    rmSync(path.dirname(packing.program), { recursive: true, force: true });
  } finally {
    holder.kill();
    await exited;
  }
}, 120_000);
