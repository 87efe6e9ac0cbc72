/** Configuration: durations, addresses, Boundary's HCL/JSON config files, fixtures, exit code 2. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigError, configDuration, loadDevConfig, parseListenAddr } from "../../controller";
import { parseHcl } from "../../controller/config/hcl";
import { runCli, startCli } from "../helpers/cli";

const dir = mkdtempSync(path.join(tmpdir(), "pb-config-"));
process.env.PB_TEST_TOKEN = " at_1234567890_s1fromenv ";
process.env.PB_TEST_EMPTY = "";
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
     listener "tcp" { purpose = "api"  address = "127.0.0.1:9300"  tls_disable = true }
     listener "tcp" { purpose = "ops"  address = "127.0.0.1:9303"  tls_disable = true }`,
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
      listener: [
        { tcp: { purpose: "api", address: "127.0.0.1:9400", tls_disable: true } },
        { tcp: { purpose: "ops", address: "127.0.0.1:9403", tls_disable: true } },
      ],
    }),
  );
  expect(loadDevConfig(["--config", a])).toMatchObject({ api: { port: 9400 }, ops: { port: 9403 }, gracefulShutdownWaitMs: 5000 });
  const b = file("b.json", JSON.stringify({ listener: { tcp: [{ purpose: "api", address: "127.0.0.1:9500", tls_disable: true }] } }));
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

// the CLI's refusals run at once (test.concurrent: jest starts them with the file, five at a time): each is a
// process start, and no two share a file
test.concurrent.each([
  [["--config", "/nonexistent/dev.hcl"], "--config: cannot read /nonexistent/dev.hcl: ENOENT"],
  [["--graceful-shutdown-wait", "soon"], '--graceful-shutdown-wait: invalid duration "soon"'],
  [["--log-format", "xml"], '--log-format: invalid value "xml": must be text or json'],
  [["--api-addr", "nowhere"], '--api-addr: invalid address "nowhere"'],
  [["--bogus"], "unknown option --bogus (pulumi-boundary dev --help lists the options)"],
  [["--emulat", "0.21"], "unknown option --emulat: did you mean --emulate? (pulumi-boundary dev --help lists the options)"],
  [["--emulate=0.21", "--graceful-shutdown=1s"], "unknown option --graceful-shutdown: did you mean --graceful-shutdown-wait?"],
  [["-emulate", "0.21"], "-emulate: options take two dashes: --emulate (pulumi-boundary dev --help lists the options)"],
  [["--log-level", "verbose"], '--log-level: invalid value "verbose": must be one of trace, debug, info, warn, err'],
  [["--token", "env://PB_TEST_UNSET_TOKEN"], "--token env://PB_TEST_UNSET_TOKEN: the environment variable PB_TEST_UNSET_TOKEN is not set"],
  [["--token", "a b"], "--token: must be non-empty and contain no white space"],
])("the CLI rejects %j with one message and exit code 2", async (args, message) => {
  const res = await runCli(["dev", ...args]);
  expect(res.code).toBe(2);
  expect(res.stderr).toContain(message);
  expect(res.stderr.trim().split("\n")).toHaveLength(1);
});

test.concurrent.each([
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
    'line 1: listener "tcp" (purpose api).address: must be a string, got 9200',
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
  // no command is a mistake: the top-level usage (every command) goes to stderr
  expect(none.stderr).toContain("Usage: pulumi-boundary <command>");
  expect(none.stderr).toMatch(/^\s+dev\s/m);
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
      expect(res.stderr).toBe(
        `pulumi-boundary dev: cannot listen on the ops address 127.0.0.1:${port}: EADDRINUSE (another process listens there, perhaps another ` +
          "pulumi-boundary dev): stop it, or give another address: --ops-addr 127.0.0.1:0 picks a free port and the banner shows it\n",
      );
      expect(res.stdout).not.toContain("API address");
    } finally {
      blocker.close();
    }
  });
});

test("a port already in use (another controller): the message names --api-addr 127.0.0.1:0, or stopping the other one", async () => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const res = await runCli(["dev", "--api-addr", `127.0.0.1:${port}`, "--ops-addr", "127.0.0.1:0"]);
    expect([res.code, res.stdout]).toEqual([2, ""]);
    expect(res.stderr).toBe(
      `pulumi-boundary dev: cannot listen on the API address 127.0.0.1:${port}: EADDRINUSE (another process listens there, perhaps another ` +
        "pulumi-boundary dev): stop it, or give another address: --api-addr 127.0.0.1:0 picks a free port and the banner shows it\n",
    );
  } finally {
    blocker.close();
  }
});

describe("a config file's typos are refused, naming the file, the line, the key and the nearest known one (issue 25, item 3)", () => {
  const plain = "tls_disable = true";
  test.each([
    [
      "a misspelt block",
      `listner "tcp" {\n  purpose = "api"\n  ${plain}\n}\n`,
      'line 1: unknown block "listner" at the top level: the nearest known one is "listener"',
    ],
    [
      "a misspelt key",
      `listener "tcp" {\n  purpose = "api"\n  adress  = "127.0.0.1:9300"\n  ${plain}\n}\n`,
      'line 3: unknown key "adress" in listener "tcp": the nearest known one is "address"',
    ],
    ["a misspelt purpose", `listener "tcp" {\n  ${plain}\n  purpose = "apii"\n}\n`, 'line 3: unknown listener purpose "apii": the nearest known one is "api"'],
    [
      "a shortened key",
      `controller {\n  graceful_shutdown_wait = "10s"\n}\n`,
      'line 2: unknown key "graceful_shutdown_wait" in controller: the nearest known one is "graceful_shutdown_wait_duration"',
    ],
    [
      "a misplaced key",
      `\ngraceful_shutdown_wait_duration = "10s"\n`,
      "line 2: graceful_shutdown_wait_duration at the top level: it belongs in the controller block",
    ],
    [
      "a key of the controller block in a listener",
      `listener "tcp" {\n  purpose = "api"\n  ${plain}\n  emulate = "0.21"\n}\n`,
      'line 4: emulate in listener "tcp": it belongs in the controller block',
    ],
    [
      "a listener type Boundary lacks",
      `listener "tpc" {\n  purpose = "api"\n}\n`,
      'line 1: listener type "tpc": the local controller listens on "tcp" only; did you mean "tcp"?',
    ],
    [
      "an unquoted duration",
      `controller {\n  graceful_shutdown_wait_duration = 10s\n}\n`,
      'line 2: the value of graceful_shutdown_wait_duration must be quoted: graceful_shutdown_wait_duration = "10s"',
    ],
    [
      "an unquoted address",
      `listener "tcp" {\n  purpose = "api"\n  address = 127.0.0.1:9300\n}\n`,
      'line 3: the value of address must be quoted: address = "127.0.0.1:9300"',
    ],
    ["an unquoted word", `listener "tcp" {\n  purpose = api\n}\n`, 'line 2: the value of purpose must be quoted: purpose = "api"'],
  ])("%s: exit 2, one line", async (_what, text, message) => {
    const f = file("typo.hcl", text);
    const res = await runCli(["dev", "--config", f]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`pulumi-boundary dev: --config ${f}: ${message}\n`);
  });

  test("the JSON form names the line too", () => {
    const text = '{\n  "controller": {\n    "graceful_shutdown_wait_duraton": "5s"\n  }\n}\n';
    expect(() => loadDevConfig(["--config", "dev.json"], () => text)).toThrow(
      new ConfigError(
        '--config dev.json: line 3: unknown key "graceful_shutdown_wait_duraton" in controller: the nearest known one is "graceful_shutdown_wait_duration"',
      ),
    );
  });

  test("what Boundary knows but this controller does not use, and unknown keys nothing known is near, are warnings", () => {
    const text = [
      'controller {\n  name = "dev"\n  database {\n    url = "env://BOUNDARY_PG_URL"\n  }\n  favourite_colour = "blue"\n}',
      'kms "aead" {\n  purpose = "root"\n}',
      'listener "tcp" {\n  purpose = "cluster"\n}',
      `listener "tcp" {\n  purpose = "api"\n  ${plain}\n}`,
    ].join("\n");
    const config = loadDevConfig(["--config", "dev.hcl"], () => text);
    expect(config.warnings).toEqual([
      "--config dev.hcl: line 2: warning: name in controller is Boundary's, and not used by the local controller: ignored",
      "--config dev.hcl: line 3: warning: the database block in controller is Boundary's, and not used by the local controller: ignored",
      '--config dev.hcl: line 6: warning: unknown key "favourite_colour" in controller: ignored, as Boundary ignores what it does not know',
      "--config dev.hcl: line 8: warning: the kms block at the top level is Boundary's, and not used by the local controller: ignored",
      '--config dev.hcl: line 12: warning: a listener with purpose "cluster" is Boundary\'s (workers), and not served by the local controller: ignored',
    ]);
  });
});

describe("a listener without TLS and without tls_disable is refused as Boundary refuses it (issue 27, item 10)", () => {
  test("in a config file: Boundary's words, the line, and what to set", () => {
    const text = 'listener "tcp" {\n  purpose = "api"\n  address = "127.0.0.1:9300"\n}\n';
    expect(() => loadDevConfig(["--config", "dev.hcl"], () => text)).toThrow(
      new ConfigError(
        '--config dev.hcl: line 1: tls not disabled for listener at address "127.0.0.1:9300" with purpose "api" but no certificate file supplied' +
          " (set tls_disable = true for plain HTTP, or tls_cert_file and tls_key_file)",
      ),
    );
  });

  test("without a config file the listeners are plain loopback ones, as boundary dev's", () => {
    const config = loadDevConfig([]);
    expect([config.api.tls, config.ops.tls]).toEqual([undefined, undefined]);
  });
});

describe("the tokens from an environment variable or a file, in Boundary's env:// and file:// forms (issue 25, item 7)", () => {
  test("env://NAME and file://PATH, trimmed; the literal form still works", () => {
    const tokenFile = file("token", "  at_1234567890_s1fromfile\n");
    const config = loadDevConfig(["--token", "env://PB_TEST_TOKEN", "--read-only-token", `file://${tokenFile}`], (p) => readFileSync(p, "utf8"));
    expect(config).toMatchObject({ token: "at_1234567890_s1fromenv", readOnlyToken: "at_1234567890_s1fromfile", generatedToken: false });
    expect(loadDevConfig(["--token", "plain-token"]).token).toBe("plain-token");
  });

  test("a missing file or an empty variable is named, never the value", () => {
    expect(() => loadDevConfig(["--token", "file:///nonexistent/token"])).toThrow(
      new ConfigError("--token file:///nonexistent/token: cannot read /nonexistent/token: ENOENT"),
    );
    expect(() => loadDevConfig(["--token", "env://PB_TEST_EMPTY"])).toThrow(
      new ConfigError("--token env://PB_TEST_EMPTY: the environment variable PB_TEST_EMPTY is empty"),
    );
  });

  test("--help says so", async () => {
    const res = await runCli(["dev", "--help"]);
    expect(res.stdout).toMatch(/env:\/\/NAME reads it from the environment variable NAME and\s+file:\/\/PATH from a file/);
  });
});

describe("the complete fixtures example, examples/fixtures.example.json (issue 25, item 10)", () => {
  const example = path.join(__dirname, "..", "..", "examples", "fixtures.example.json");

  test("is accepted and holds every kind of seed data", () => {
    const { fixtures } = loadDevConfig(["--fixtures", example]);
    for (const [key, list] of Object.entries(fixtures)) expect([key, (list as unknown[]).length]).not.toEqual([key, 0]);
    expect(new Set(fixtures.credentials.map((c) => c.id.split("_")[0]))).toEqual(new Set(["credup", "credspk", "credjson"]));
  });

  test("the controller serves it: --emulate 0.21 lists its plugin host set and static credentials", async () => {
    const cli = await startCli(["--fixtures", example, "--emulate", "0.21"]);
    try {
      expect(cli.output()).toContain("Static credentials: credup_1234567890, credspk_1234567890, credjson_1234567890");
      expect(cli.output()).toMatch(/Host sets: .*hsplg_1234567890 \[hplg_1234567890 10\.0\.0\.5\]/);
    } finally {
      cli.child.kill("SIGKILL");
      await cli.exited;
    }
  });
});
