/**
 * `pulumi-boundary import` as a user runs it (the built bin, a real process) against the real
 * controller: from a Terraform state written with terraform-provider-boundary's own attribute
 * names, and from a live scope (v0.4's single list answer, 0.21's pages). Its bulk-import file, fed
 * to the plugin's Read as `pulumi import --file` does (one Read per resource, only the id), yields
 * every Target; its TypeScript program, run through the offline engine with the `import` options,
 * adopts them and plans no change. Every bad input exits non-zero with one message naming it, and
 * the command never writes to the controller.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pluginProgram } from "../../examples/offline/plugin-program";
import { applyTerraformState } from "../../examples/terraform/apply";
import { engine } from "../../harness/engine";
import { packedProgram, startPlugin } from "../../harness/provider-host";
import { BoundaryClient } from "../../provider/client";
import { resourceNames } from "../../provider/estate/names";
import { ADMIN_TOKEN, OTHER_PROJECT, PROJECT, useTestController, type TestController } from "../helpers/controller";
import { importEngine, runImport, work } from "../helpers/estate";
import { startFaultProxy } from "../helpers/fault-proxy";

// each test runs the built bin several times and starts the plugin: seconds each on a loaded machine
jest.setTimeout(120_000);

const FIXTURE = path.join(__dirname, "..", "..", "examples", "terraform", "terraform.tfstate");

/**
 * `pulumi import --file`'s Reads: one per resource, with only its id, through the installed plugin.
 * The plugin starts when this is called, so that its start (Pulumi's SDK loading) overlaps what the
 * test does before it reads; `stop` ends it (call it in a `finally`).
 */
function importReader() {
  const starting = startPlugin(packedProgram());
  starting.catch(() => undefined); // a failed start is reported by read
  return {
    async read(addr: string, ids: string[]) {
      const host = await starting;
      await engine(host, "").configure({ addr, token: ADMIN_TOKEN });
      const reads = [];
      for (const id of ids) reads.push(await engine(host, `urn:pulumi:dev::import-test::boundary:index:Target::${id}`).read(id));
      return reads;
    },
    stop: async () => (await starting.catch(() => undefined))?.stop(),
  };
}

/** Every Target of the controller, by id: what must not change under the command. */
const snapshot = (c: TestController) => JSON.stringify([...c.store.listTargets("global", true)].sort((a, b) => a.id.localeCompare(b.id)));

describe.each(["0.4", "0.21"] as const)("from a Terraform state, on --emulate %s", (emulation) => {
  const c = useTestController({ emulation });

  test("the bulk-import file yields every Target through Read; the TypeScript program adopts them and plans no change", async () => {
    const reader = importReader();
    try {
      const client = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN });
      const dir = work();
      const state = path.join(dir, "terraform.tfstate");
      try {
        writeFileSync(state, await applyTerraformState(FIXTURE, client));
      } finally {
        await client.close();
      }
      const before = snapshot(c);
      const r = await runImport(["--from-terraform", state, "--program", "ts", "--out", "targets.json"], {}, dir);
      expect(r.stderr).toContain("3 Target(s) from");
      expect(r.stderr).toContain("in 2 project(s): p_0987654321 (1), p_1234567890 (2)\nskipped: none\n");
      expect([r.code, r.stdout]).toEqual([0, ""]);
      const file = JSON.parse(readFileSync(path.join(dir, "targets.json"), "utf8"));
      expect(file.resources.map((x: { name: string }) => x.name)).toEqual(["data-db-orders", "ssh-0", "ssh-1"]);
      const byName = new Map(c.store.listTargets("global", true).map((t) => [t.name, t.id]));
      expect(file.resources.map((x: { id: string }) => x.id)).toEqual([byName.get("orders-db"), byName.get("bastion-0"), byName.get("bastion-1")]);
      expect(file.resources.every((x: { type: string }) => x.type === "boundary:index:Target")).toBe(true);

      const reads = await reader.read(
        c.apiUrl,
        file.resources.map((x: { id: string }) => x.id),
      );
      expect(reads.map((x) => [x.id, x.inputs.name])).toEqual(
        file.resources.map((x: { id: string }, i: number) => [x.id, ["orders-db", "bastion-0", "bastion-1"][i]]),
      );
      expect(reads[2]!.inputs).toMatchObject({
        scopeId: PROJECT,
        hostSetIds: ["hsst_1234567891"],
        applicationCredentialLibraryIds: ["clvlt_1234567891"],
        defaultPort: 2222,
      });

      const program = pluginProgram(path.join(dir, "targets.ts"));
      const e = importEngine(dir, c.apiUrl);
      try {
        // a program that does not say what the Target holds is refused, as the engine refuses it
        writeFileSync(path.join(dir, "wrong.ts"), readFileSync(path.join(dir, "targets.ts"), "utf8").replace("defaultPort: 2222", "defaultPort: 2223"));
        const wrong = await e.preview(pluginProgram(path.join(dir, "wrong.ts")));
        expect(wrong.steps.find((s) => s.name === "ssh-1")).toMatchObject({
          op: "import",
          failed: "inputs to import do not match the existing resource: defaultPort",
        });
        const preview = await e.preview(program);
        expect(preview.steps.map((s) => [s.name, s.op, s.failed])).toEqual(expect.arrayContaining([["ssh-0", "import", undefined]]));
        const up = await e.up(program);
        expect(up.steps.filter((s) => s.failed)).toEqual([]);
        expect(up.steps.map((s) => `${s.op} ${s.name}`).sort()).toEqual(["import data-db-orders", "import ssh-0", "import ssh-1"]);
        expect(snapshot(c)).toBe(before); // adopting changes nothing
        const next = await e.preview(program, { refresh: true, expectNoChanges: true });
        expect(next).toMatchObject({ changes: false, exitCode: 0 });
        expect(next.steps.every((s) => s.op === "same")).toBe(true);
        expect(snapshot(c)).toBe(before);
      } finally {
        await e.destroy();
        await e.close();
      }
      expect(c.store.size).toBe(0);
    } finally {
      await reader.stop();
    }
  });
});

describe.each(["0.4", "0.21"] as const)("from a live scope, on --emulate %s", (emulation) => {
  // 0.21 pages its lists: pages of two make five Targets three pages
  const c = useTestController({ emulation, maxPageSize: 2 });

  test("every page, names qualified by project across projects, sorted and the same on every run; Read yields each", async () => {
    for (const [scope_id, name] of [
      [PROJECT, "web"],
      [OTHER_PROJECT, "web"],
      [PROJECT, "db"],
      [PROJECT, "web app"],
      [OTHER_PROJECT, "cache"],
    ]) {
      await c.create({ scope_id, name, host_set_ids: [] });
    }
    const before = snapshot(c);
    const proxy = await startFaultProxy(c.apiUrl);
    const reader = importReader();
    try {
      const env = { BOUNDARY_ADDR: proxy.url, BOUNDARY_TOKEN: ADMIN_TOKEN };
      const first = await runImport(["--scope", "global", "--recursive"], env);
      expect(first.code).toBe(0);
      const file = JSON.parse(first.stdout);
      expect(file.resources.map((x: { name: string }) => x.name)).toEqual([
        "Generated-project-scope-db",
        "Generated-project-scope-web",
        "Generated-project-scope-web-app",
        "Second-project-scope-cache",
        "Second-project-scope-web",
      ]);
      expect(first.stderr).toContain("5 Target(s) from scope global (recursive), in 2 project(s): p_0987654321 (2), p_1234567890 (3)");
      expect((await runImport(["--scope", "global", "--recursive"], env)).stdout).toBe(first.stdout);
      // two runs: on 0.21 three pages of two each, on 0.4 one answer each; every request a GET, nothing written
      expect(proxy.seen.filter((s) => s.path.startsWith("/v1/targets?"))).toHaveLength(emulation === "0.21" ? 6 : 2);
      expect(proxy.seen.every((s) => s.method === "GET")).toBe(true);
      expect(snapshot(c)).toBe(before);

      const reads = await reader.read(
        c.apiUrl,
        file.resources.map((x: { id: string }) => x.id),
      );
      expect(reads.map((x) => x.id)).toEqual(file.resources.map((x: { id: string }) => x.id));
      expect(reads.map((x) => x.inputs.name).sort()).toEqual(["cache", "db", "web", "web", "web app"]);

      // Boundary's rate limiter: the list is paced as the provider paces it (Retry-After), not failed
      let limited = 0;
      proxy.intercept((req) =>
        req.url?.startsWith("/v1/targets?") && limited++ === 0 ? { status: 429, headers: { "retry-after": "1" }, body: "" } : undefined,
      );
      const paced = await runImport(["--scope", "global", "--recursive"], env);
      expect([paced.code, paced.stdout, limited > 1]).toEqual([0, first.stdout, true]);
      proxy.intercept(undefined);

      const one = await runImport(["--scope", PROJECT, "--filter", '"/item/name" matches "^web"'], env);
      expect(JSON.parse(one.stdout).resources.map((x: { name: string }) => x.name)).toEqual(["web", "web-app"]);

      // a Target deleted between the list and its read (with --program, each is read): left out and named
      const doomed = JSON.parse(one.stdout).resources.find((x: { name: string }) => x.name === "web-app").id as string;
      proxy.intercept((req) => {
        if (req.method === "GET" && req.url?.startsWith(`/v1/targets/${doomed}`)) c.store.deleteTarget(doomed);
        return undefined;
      });
      const raced = await runImport(["--scope", PROJECT, "--filter", '"/item/name" matches "^web"', "--program", "ts"], env);
      proxy.intercept(undefined);
      expect(raced.code).toBe(0);
      expect(JSON.parse(raced.stdout).resources.map((x: { name: string }) => x.name)).toEqual(["web"]);
      expect(raced.stderr).toContain(`skipped ${doomed}: listed, then gone when read (deleted meanwhile): left out`);
    } finally {
      await reader.stop();
      await proxy.close();
    }
  });
});

test("names: a Terraform address's parts, unique, stable; a clash gets the ids appended to every name in it", () => {
  const t = (id: string, ...nameParts: string[]) => ({ id, source: id, projectId: "p_1", nameParts });
  const names = resourceNames([t("ttcp_2", "web app"), t("ttcp_1", "web-app"), t("ttcp_3", "net[0]", "db", "eu west"), t("ttcp_4", "!!")]);
  expect(Object.fromEntries(names)).toEqual({
    ttcp_1: "web-app-ttcp_1",
    ttcp_2: "web-app-ttcp_2",
    ttcp_3: "net-0-db-eu-west",
    ttcp_4: "target-ttcp_4",
  });
});

test("an attribute this provider cannot express is reported by name, and the rest imported", async () => {
  const dir = work();
  const state = JSON.parse(readFileSync(FIXTURE, "utf8"));
  Object.assign(state.resources[0].instances[0].attributes, { enable_session_recording: true, storage_bucket_id: "sb_1234567890", a_newer_attribute: 3 });
  writeFileSync(path.join(dir, "s.tfstate"), JSON.stringify(state));
  const r = await runImport(["--from-terraform", "s.tfstate"], {}, dir);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).resources).toHaveLength(3);
  expect(r.stderr).toContain("not expressible: boundary_target.ssh[0]: a_newer_attribute = 3");
  expect(r.stderr).toContain("not expressible: boundary_target.ssh[0]: enable_session_recording = true");
  expect(r.stderr).toContain('not expressible: boundary_target.ssh[0]: storage_bucket_id = "sb_1234567890"');
});

describe("bad input: exit non-zero, one message naming the input and what to do, nothing written", () => {
  const c = useTestController({ emulation: "0.21" });

  /** The one line the command printed, after checking it is one line and the exit code. */
  const message = (r: { code: number | null; stdout: string; stderr: string }, code = 1) => {
    expect([r.code, r.stdout]).toEqual([code, ""]);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    return r.stderr.trim();
  };

  test("Terraform states: missing, unreadable, another version, none of boundary_target", async () => {
    const dir = work();
    mkdirSync(path.join(dir, "folder"));
    writeFileSync(path.join(dir, "v3.tfstate"), JSON.stringify({ version: 3, modules: [] }));
    writeFileSync(path.join(dir, "text.tfstate"), "not json");
    const other = JSON.parse(readFileSync(FIXTURE, "utf8"));
    other.resources = other.resources.filter((r: { type: string }) => r.type !== "boundary_target");
    writeFileSync(path.join(dir, "other.tfstate"), JSON.stringify(other));
    // independent runs, at once
    const [missing, folder, v3, text, none] = await Promise.all(
      ["nope.tfstate", "folder", "v3.tfstate", "text.tfstate", "other.tfstate"].map((file) => runImport(["--from-terraform", file], {}, dir)),
    );
    expect(message(missing!)).toMatch(/^pulumi-boundary import: --from-terraform nope.tfstate: no such file: give the path/);
    expect(message(folder!)).toMatch(/--from-terraform folder: is a directory/);
    expect(message(v3!)).toMatch(
      /--from-terraform v3.tfstate: state format version 3; this command reads version 4 \(Terraform 0.12 and later\): run `terraform state pull/,
    );
    expect(message(text!)).toMatch(/--from-terraform text.tfstate: is not JSON/);
    expect(message(none!)).toMatch(/--from-terraform other.tfstate: holds no boundary_target to adopt \(it has 1 data.boundary_scope\): give the state/);
  });

  test("scopes: one that does not exist, a token without the list grant, a filter Boundary refuses; never a write", async () => {
    const before = snapshot(c);
    const proxy = await startFaultProxy(c.apiUrl);
    const env = { BOUNDARY_ADDR: proxy.url, BOUNDARY_TOKEN: ADMIN_TOKEN };
    try {
      expect(message(await runImport(["--scope", "p_0000000000"], env))).toMatch(
        /--scope p_0000000000: no such scope \(the controller answered 404 NotFound: .*\): give an existing scope id/,
      );
      expect(message(await runImport(["--scope", "p 1"], env))).toMatch(/--scope "p 1": not a scope id/);

      const seen = proxy.seen.length;
      expect(message(await runImport(["--scope", PROJECT, "--filter", '"/item/name" =='], env))).toMatch(
        /^pulumi-boundary import: --filter: .*: write Boundary's filter language/,
      );
      expect(proxy.seen.length).toBe(seen); // refused before any call

      proxy.intercept((req) =>
        req.url?.startsWith("/v1/targets?") ? { status: 403, body: JSON.stringify({ kind: "PermissionDenied", message: "Forbidden." }) } : undefined,
      );
      expect(message(await runImport(["--scope", PROJECT], env))).toMatch(
        /--scope p_1234567890: the token may not list Targets there \(.*403 PermissionDenied.*\): use a token whose role grants list/,
      );
      proxy.intercept((req) =>
        req.url?.startsWith("/v1/targets?")
          ? { status: 400, body: JSON.stringify({ kind: "InvalidArgument", message: "Unable to build filter." }) }
          : undefined,
      );
      expect(message(await runImport(["--scope", PROJECT, "--filter", '"/item/nope" == "x"'], env))).toMatch(
        /^pulumi-boundary import: --filter "\\"\/item\/nope\\" == \\"x\\"": refused/,
      );
      proxy.intercept(undefined);
      // a recursive list without the grant is empty on Boundary: ambiguous, so an error saying both
      expect(message(await runImport(["--scope", "global", "--recursive"], env))).toMatch(
        /no Target found. Either there is none to import, or the token may not list them/,
      );
      expect(message(await runImport(["--scope", PROJECT], { BOUNDARY_ADDR: proxy.url, BOUNDARY_TOKEN: "at_0000000000_wrong" }))).toMatch(
        /^pulumi-boundary import: BOUNDARY_TOKEN: .*401/,
      );
      expect(proxy.seen.every((s) => s.method === "GET")).toBe(true);
      expect(snapshot(c)).toBe(before);
    } finally {
      await proxy.close();
    }
  });

  test("the installed package's bin has the command (the packed tarball ships it)", async () => {
    const installed = path.join(packedProgram(), "node_modules", "pulumi-boundary", "dist", "cli", "main.js");
    const r = await runImport(["--from-terraform", FIXTURE], {}, work(), installed);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).resources).toHaveLength(3);
  });

  test("the command line: an unknown flag names the nearest, both sources or neither, --help", async () => {
    // independent runs, at once
    const [typo, neither, format, help] = await Promise.all(
      [["--scop", "global"], [], ["--scope", "global", "--format", "yaml"], ["--help"]].map((a) => runImport(a)),
    );
    expect(message(typo!, 2)).toBe("pulumi-boundary import: unknown flag --scop: did you mean --scope? (--help lists the flags)");
    expect(message(neither!, 2)).toBe("pulumi-boundary import: give either --scope <id> or --from-terraform <file>");
    expect(message(format!, 2)).toMatch(/--format "yaml": the only format is json/);
    expect(help!.code).toBe(0);
    for (const word of [
      "BOUNDARY_ADDR",
      "BOUNDARY_TOKEN",
      "boundary:addr",
      "boundary:token",
      "--from-terraform",
      "pulumi-boundary-sdk",
      "pulumi package add",
    ]) {
      expect(help!.stdout).toContain(word);
    }
  });
});
