/** Configuration: durations, addresses, Boundary's HCL/JSON config files, fixtures, exit code 2. */
import { mkdtempSync, writeFileSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigError, configDuration, loadDevConfig, parseListenAddr } from "../../controller";
import { parseHcl } from "../../controller/hcl";
import { runCli } from "../helpers/cli";

const dir = mkdtempSync(path.join(tmpdir(), "pb-config-"));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("durations", () => {
  test.each([
    ["500ms", 500],
    ["10s", 10_000],
    ["1m30s", 90_000],
    ["2h", 7_200_000],
    ["1.5s", 1500],
    ["7", 7000],
    [3, 3000],
    ["0", 0],
  ])("%s is %d ms", (input, ms) => expect(configDuration("k", input)).toBe(ms));

  test.each(["", "ten seconds", "10x", "-5s", "1m30", "s"])("%j is refused naming the key and value", (input) => {
    expect(() => configDuration("controller.graceful_shutdown_wait_duration", input)).toThrow(
      new ConfigError(
        `controller.graceful_shutdown_wait_duration: invalid duration ${JSON.stringify(input)}: use Go syntax such as "500ms", "10s", "1m30s", or a whole number of seconds`,
      ),
    );
  });
});

test("addresses: host:port, [ipv6]:port, port 0; anything else names the flag", () => {
  expect(parseListenAddr("a", "127.0.0.1:0")).toEqual({ host: "127.0.0.1", port: 0 });
  expect(parseListenAddr("a", "[::1]:9200")).toEqual({ host: "::1", port: 9200 });
  expect(() => parseListenAddr("--api-addr", "localhost")).toThrow('--api-addr: invalid address "localhost"');
  expect(() => parseListenAddr("--api-addr", "h:70000")).toThrow(/--api-addr/);
});

test("HCL: blocks with labels, attributes, comments", () => {
  const root = parseHcl(`
    # a comment
    disable_mlock = true
    controller {
      name = "dev" // trailing
      graceful_shutdown_wait_duration = "10s"
    }
    /* block
       comment */
    listener "tcp" {
      purpose = "api"
      address = "127.0.0.1:9200"
      cors_allowed_origins = ["*", "x"]
    }
  `);
  expect(root.attrs).toEqual({ disable_mlock: true });
  expect(root.blocks.map((b) => [b.type, b.labels])).toEqual([
    ["controller", []],
    ["listener", ["tcp"]],
  ]);
  expect(root.blocks[1]!.attrs).toEqual({ purpose: "api", address: "127.0.0.1:9200", cors_allowed_origins: ["*", "x"] });
});

test("a Boundary HCL file sets listeners and the grace period; flags override it", () => {
  const hcl = file(
    "dev.hcl",
    `controller { graceful_shutdown_wait_duration = "1m30s" }
     listener "tcp" { purpose = "api"  address = "127.0.0.1:9300" }
     listener "tcp" { purpose = "ops"  address = "127.0.0.1:9303" }`,
  );
  const fromFile = loadDevConfig(["--config", hcl]);
  expect(fromFile).toMatchObject({ api: { host: "127.0.0.1", port: 9300 }, ops: { port: 9303 }, gracefulShutdownWaitMs: 90_000 });
  const overridden = loadDevConfig(["--config", hcl, "--api-addr", "127.0.0.1:0", "--graceful-shutdown-wait", "2s"]);
  expect(overridden).toMatchObject({ api: { port: 0 }, ops: { port: 9303 }, gracefulShutdownWaitMs: 2000 });
});

test("the JSON form of the same file works, in both listener layouts", () => {
  const a = file(
    "a.json",
    JSON.stringify({
      controller: { graceful_shutdown_wait_duration: "5s" },
      listener: [{ tcp: { purpose: "api", address: "127.0.0.1:9400" } }, { tcp: { purpose: "ops", address: "127.0.0.1:9403" } }],
    }),
  );
  expect(loadDevConfig(["--config", a])).toMatchObject({ api: { port: 9400 }, ops: { port: 9403 }, gracefulShutdownWaitMs: 5000 });
  const b = file("b.json", JSON.stringify({ listener: { tcp: [{ purpose: "api", address: "127.0.0.1:9500" }] } }));
  expect(loadDevConfig(["--config", b])).toMatchObject({ api: { port: 9500 }, ops: { port: 9203 }, gracefulShutdownWaitMs: 0 });
});

test("defaults: 127.0.0.1:9200 and :9203, no grace period, a generated token in Boundary's format", () => {
  const cfg = loadDevConfig([]);
  expect(cfg).toMatchObject({
    api: { host: "127.0.0.1", port: 9200 },
    ops: { host: "127.0.0.1", port: 9203 },
    gracefulShutdownWaitMs: 0,
    generatedToken: true,
    logFormat: "text",
  });
  expect(cfg.token).toMatch(/^at_[0-9A-Za-z]{10}_s1[1-9A-HJ-NP-Za-km-z]+$/);
  expect(loadDevConfig([]).token).not.toBe(cfg.token);
});

test.each([
  [["--config", "/nonexistent/dev.hcl"], "--config: cannot read /nonexistent/dev.hcl: ENOENT"],
  [["--graceful-shutdown-wait", "soon"], '--graceful-shutdown-wait: invalid duration "soon"'],
  [["--log-format", "xml"], '--log-format: invalid value "xml": must be text or json'],
  [["--api-addr", "nowhere"], '--api-addr: invalid address "nowhere"'],
  [["--bogus"], "Unknown option '--bogus'"],
  [["--token", "a b"], "--token: must be non-empty and contain no white space"],
])("the CLI rejects %j with one message and exit code 2", async (args, message) => {
  const res = await runCli(["dev", ...args]);
  expect(res.code).toBe(2);
  expect(res.stderr).toContain(message);
  expect(res.stderr.trim().split("\n")).toHaveLength(1);
});

test.each([
  ["a bad HCL file", "bad.hcl", 'controller {\n  graceful_shutdown_wait_duration = "10s"\n', "unexpected end of file"],
  [
    "a bad duration in the file",
    "wait.hcl",
    'controller { graceful_shutdown_wait_duration = "10 parsecs" }',
    'controller.graceful_shutdown_wait_duration: invalid duration "10 parsecs"',
  ],
  [
    "a bad listener address",
    "addr.hcl",
    'listener "tcp" { purpose = "api" address = 9200 }',
    'listener "tcp" (purpose api).address: must be a string, got 9200',
  ],
])("the CLI rejects %s with exit code 2", async (_what, name, text, message) => {
  const res = await runCli(["dev", "--config", file(name, text)]);
  expect(res.code).toBe(2);
  expect(res.stderr).toContain(message);
});

test.each([
  [
    "a project whose parent is not an org",
    { scopes: [{ id: "p_1234567890", type: "project", parent_scope_id: "global" }] },
    "scopes.0.parent_scope_id: global must be an org scope",
  ],
  [
    "a malformed host set id",
    { scopes: [], host_sets: [{ id: "hs_1", scope_id: "p_1234567890", host_catalog_id: "hcst_1234567890", hosts: [] }] },
    "host_sets.0.id: must look like hsst_",
  ],
  [
    "a host set outside the fixtures' projects",
    { scopes: [], host_sets: [{ id: "hsst_1234567890", scope_id: "p_1234567890", host_catalog_id: "hcst_1234567890", hosts: [] }] },
    "host_sets.0.scope_id: p_1234567890 is not a project scope",
  ],
  ["an unknown key", { scopes: [], colour: 1 }, "Unrecognized key"],
])("fixtures with %s are refused with exit code 2", async (_what, doc, message) => {
  const res = await runCli(["dev", "--fixtures", file("fx.json", JSON.stringify(doc))]);
  expect(res.code).toBe(2);
  expect(res.stderr).toContain(message);
});

test("unknown commands and no command exit 2 with usage", async () => {
  expect((await runCli(["serve"])).code).toBe(2);
  const none = await runCli([]);
  expect(none.code).toBe(2);
  expect(none.stdout).toContain("Usage: pulumi-boundary dev");
});

describe("hostile configuration (each fails with one message, exit 2, never a crash or a silent overflow)", () => {
  test.each(["1000h", "99999999999999999999999s", "24h1s"])("10. --graceful-shutdown-wait %s is over the 24h maximum", (wait) => {
    expect(() => loadDevConfig(["--graceful-shutdown-wait", wait])).toThrow(
      new ConfigError(`--graceful-shutdown-wait: ${JSON.stringify(wait)} is longer than the maximum of 24h`),
    );
  });

  test("10. 24h itself is accepted", () => {
    expect(loadDevConfig(["--graceful-shutdown-wait", "24h"]).gracefulShutdownWaitMs).toBe(24 * 3_600_000);
  });

  test.each([
    ["50k nested lists", "dev.hcl", "x = " + "[".repeat(50_000) + "]".repeat(50_000), "line 1: nested more than 32 levels deep"],
    ["20k nested blocks", "dev.hcl", "a {\n".repeat(20_000) + "}\n".repeat(20_000), "line 33: nested more than 32 levels deep"],
    ["deep JSON", "dev.json", '{"controller":' + "[".repeat(50_000) + "]".repeat(50_000) + "}", "line 1: nested more than 32 levels deep"],
  ])("11. a config file with %s", (_what, name, text, message) => {
    expect(() => loadDevConfig(["--config", name], () => text)).toThrow(new ConfigError(`--config ${name}: ${message}`));
  });

  test("11. deep fixtures JSON", () => {
    expect(() => loadDevConfig(["--fixtures", "f.json"], () => "[".repeat(50_000))).toThrow(
      new ConfigError("--fixtures f.json: line 1: nested more than 32 levels deep"),
    );
  });

  test("11. the real CLI: exit 2 and one line, no stack trace", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pb-deep-"));
    const file = path.join(dir, "deep.hcl");
    writeFileSync(file, "x = " + "[".repeat(50_000) + "]".repeat(50_000));
    const res = await runCli(["dev", "--config", file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`pulumi-boundary dev: --config ${file}: line 1: nested more than 32 levels deep\n`);
  });

  test("6. with the ops port taken: one message, exit 2, and nothing left serving the API", async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const res = await runCli(["dev", "--api-addr", "127.0.0.1:0", "--ops-addr", `127.0.0.1:${port}`]);
      expect(res.code).toBe(2);
      expect(res.stderr).toBe(`pulumi-boundary dev: cannot listen on the ops address 127.0.0.1:${port}: EADDRINUSE\n`);
      expect(res.stdout).not.toContain("API address");
    } finally {
      blocker.close();
    }
  });
});
