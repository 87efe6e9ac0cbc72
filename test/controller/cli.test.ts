/**
 * The real CLI process as a user meets it: --help and --version, SIGHUP, the banner's example line
 * run by a real shell, fixture addresses that would drive the terminal, and TLS listeners (HTTPS,
 * files missing or mismatched, SIGHUP reloading a renewed certificate, the provider's
 * BOUNDARY_CACERT and BOUNDARY_TLS_INSECURE against it).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import type { TLSSocket } from "node:tls";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { defaultFixtures } from "../../controller";
import { TargetCore } from "../../provider/resource/core";
import { selfSignedCert } from "../helpers/certs";
import { CLI, runCli, startCli, type CliProcess } from "../helpers/cli";
import { until } from "../helpers/wait";

const TOKEN = "at_2222222222_s1CliTestToken";
const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
const dir = mkdtempSync(path.join(tmpdir(), "pb-cli-"));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const stop = async (cli: CliProcess) => {
  cli.child.kill("SIGKILL");
  await cli.exited;
};

// the tests that only run the CLI to its end and read what it printed run at once (test.concurrent: jest starts
// them with the file, five at a time): each is a process start, and nothing they share changes
describe("--help and --version", () => {
  test.concurrent.each(["dev --help", "dev -h", "dev --emulate 0.21 --help"])("%s: the dev command's usage, exit 0", async (line) => {
    const r = await runCli(line.split(" "));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: pulumi-boundary dev \[options\]/);
    expect(r.stdout).toContain("--graceful-shutdown-wait DURATION");
    expect(r.stderr).toBe("");
  });

  test.concurrent.each(["--help", "help", "-h"])("%s: the commands, each with its summary, exit 0", async (line) => {
    const r = await runCli([line]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toMatch(/^Usage: pulumi-boundary <command> \[options\]/);
    expect(r.stdout).toMatch(/^ {2}dev {2,}start a local Boundary controller/m);
    expect(r.stdout).toMatch(/^ {2}import {2,}write Pulumi's bulk-import file/m);
  });

  test.concurrent("no command: the commands on stderr, exit 2", async () => {
    const r = await runCli([]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(/^Usage: pulumi-boundary <command>/);
  });

  test.concurrent.each([
    ["imprt", "did you mean `pulumi-boundary import`?"],
    ["deb", "did you mean `pulumi-boundary dev`?"],
    ["frobnicate", "the commands are dev, import, doctor"],
    ["doctr", "did you mean `pulumi-boundary doctor`?"],
  ])("a mistyped command %s: one line naming the nearest one, exit 2", async (command, hint) => {
    const r = await runCli([command, "--scope", "global"]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe(`pulumi-boundary: unknown command "${command}": ${hint} (pulumi-boundary --help lists them)\n`);
  });

  test.concurrent.each(["--version", "dev --version"])("%s: the package's version, exit 0", async (line) => {
    const r = await runCli(line.split(" "));
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `pulumi-boundary ${pkg.version}\n`, ""]);
  });

  test("the usage and the banner say that Targets are kept in memory and gone when the controller stops", async () => {
    expect((await runCli(["dev", "--help"])).stdout).toContain("it keeps Targets in memory: they are gone when it stops");
    const cli = await startCli([]);
    try {
      expect(cli.output()).toContain("Storage: in memory: Targets are gone when the controller stops");
    } finally {
      await stop(cli);
    }
  });

  test.concurrent("an unknown flag is still exit 2, naming it", async () => {
    const r = await runCli(["dev", "--frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--frobnicate");
  });
});

test("SIGHUP: logged, nothing reloaded without TLS, the controller keeps serving and keeps its Targets", async () => {
  const cli = await startCli(["--token", TOKEN]);
  try {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const created = await fetch(`${cli.apiUrl}/v1/targets`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ scope_id: "p_1234567890", name: "kept", type: "tcp" }),
    });
    const { id } = (await created.json()) as { id: string };
    cli.child.kill("SIGHUP");
    await until(() => cli.output().includes("SIGHUP: no TLS listener to reload"), "the SIGHUP log line");
    expect((await fetch(`${cli.apiUrl}/v1/targets/${id}`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${cli.opsUrl}/health`)).status).toBe(200);
    expect(cli.child.exitCode).toBeNull();
  } finally {
    await stop(cli);
  }
});

/** The banner's example line, as printed. */
const tryLine = (cli: CliProcess) => /^ +Try: (.*)$/m.exec(cli.output())![1]!;

// zsh is not on this machine; the line is built for it too (every value quoted: ? and [ are globs there)
test.each(["bash", "sh"])("the banner's Try line works as pasted into %s, with a generated token and with a given one", async (shell) => {
  const generated = await startCli([]);
  const given = await startCli(["--token", TOKEN]);
  try {
    // stdin is not a socket: bash would take it for a remote shell and read ~/.bashrc
    const run = (line: string, env: NodeJS.ProcessEnv = {}) =>
      spawnSync(shell, ["-c", line], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH, ...env } });
    for (const [cli, env] of [
      [generated, {}],
      [given, { BOUNDARY_TOKEN: TOKEN }],
    ] as const) {
      const r = run(tryLine(cli), env);
      expect([r.status, r.stderr]).toEqual([0, ""]);
      expect(JSON.parse(r.stdout)).toEqual({ items: [] });
    }
    expect(given.output()).not.toContain(TOKEN);
  } finally {
    await stop(generated);
    await stop(given);
  }
});

describe("fixture host addresses", () => {
  const withAddress = (address: string, worker = "dev-worker") => {
    const f = defaultFixtures();
    f.host_sets[0]!.hosts[0]!.address = address;
    f.workers[0]!.name = worker;
    return file(`fixtures-${Math.random().toString(36).slice(2)}.json`, JSON.stringify(f));
  };

  test.concurrent.each([
    ["\u001b]0;pwned\u0007", "title"],
    ["\u001b[2J\u001b[H", "clear screen"],
    ["10.0.0.1\r\n    Admin token: forged", "forged line"],
    ["10.0.0.1:22", "port"],
    ["web server", "space"],
  ])("%j (%s) is refused, exit 2, naming the host's address; no control character reaches the terminal", async (address) => {
    const r = await runCli(["dev", "--fixtures", withAddress(address)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^pulumi-boundary dev: --fixtures .*: fixtures: host_sets\.0\.hosts\.0\.address: /);
    // eslint-disable-next-line no-control-regex -- control characters are what this asserts are absent
    expect(r.stderr + r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  test.concurrent("a worker name with a control character is refused too", async () => {
    const r = await runCli(["dev", "--fixtures", withAddress("127.0.0.1", "dev\u001b[31mred")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("workers.0.name: must not hold control characters");
  });

  test.each(["db.internal", "10.1.2.3", "fe80::1", "host_1.example.com"])("%s is accepted and printed", async (address) => {
    const cli = await startCli(["--fixtures", withAddress(address)]);
    try {
      expect(cli.output()).toContain(`hst_1234567890 ${address}`);
    } finally {
      await stop(cli);
    }
  });
});

describe("TLS listeners, as Boundary's listener blocks configure them", () => {
  const cert = selfSignedCert(dir, "dev");
  const config = (api: string, ops = "tls_disable = true") =>
    file(
      `tls-${Math.random().toString(36).slice(2)}.hcl`,
      `listener "tcp" {\n  purpose = "api"\n  ${api}\n}\nlistener "tcp" {\n  purpose = "ops"\n  ${ops}\n}\n`,
    );
  const tlsFiles = (c: { certFile: string; keyFile: string }) => `tls_cert_file = "${c.certFile}"\n  tls_key_file = "${c.keyFile}"`;

  /** The certificate a new connection is served, and the answer's status. */
  const httpsGet = (url: string, ca: string) =>
    new Promise<{ status: number; fingerprint: string }>((resolve, reject) => {
      const req = request(url, { ca, headers: { authorization: `Bearer ${TOKEN}` }, agent: false }, (res) => {
        const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode!, fingerprint }));
      });
      req.on("error", reject);
      req.end();
    });

  test("tls_cert_file and tls_key_file serve HTTPS: the banner says https, curl with the printed line works, plain HTTP does not", async () => {
    const cli = await startCli(["--token", TOKEN, "--config", config(tlsFiles(cert), tlsFiles(cert))]);
    try {
      expect(cli.apiUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(cli.opsUrl).toMatch(/^https:/);
      expect((await httpsGet(`${cli.apiUrl}/v1/targets?scope_id=p_1234567890`, cert.cert)).status).toBe(200);
      expect((await httpsGet(`${cli.opsUrl}/health`, cert.cert)).status).toBe(200);
      await expect(fetch(`${cli.apiUrl.replace("https", "http")}/v1/targets`)).rejects.toThrow();
      const r = spawnSync("bash", ["-c", tryLine(cli)], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        env: { PATH: process.env.PATH, BOUNDARY_TOKEN: TOKEN },
      });
      expect([r.status, r.stderr]).toEqual([0, ""]);
      expect(JSON.parse(r.stdout)).toEqual({ items: [] });
    } finally {
      await stop(cli);
    }
  });

  test("tls_disable = true serves plain HTTP, even with certificate files named", async () => {
    const cli = await startCli(["--config", config(`${tlsFiles(cert)}\n  tls_disable = true`)]);
    try {
      expect(cli.apiUrl).toMatch(/^http:\/\//);
      expect((await fetch(`${cli.opsUrl}/health`)).status).toBe(200);
    } finally {
      await stop(cli);
    }
  });

  test.concurrent.each([
    [
      () => tlsFiles({ certFile: path.join(dir, "missing.crt"), keyFile: cert.keyFile }),
      /^listener "tcp" \(purpose api\)\.tls_cert_file: cannot read .*missing\.crt: ENOENT$/,
    ],
    [
      () => tlsFiles({ certFile: cert.certFile, keyFile: path.join(dir, "missing.key") }),
      /^listener "tcp" \(purpose api\)\.tls_key_file: cannot read .*missing\.key: ENOENT$/,
    ],
    [() => tlsFiles({ certFile: cert.certFile, keyFile: dir }), /^listener "tcp" \(purpose api\)\.tls_key_file: cannot read .*: EISDIR$/],
    [
      () => tlsFiles({ certFile: cert.certFile, keyFile: selfSignedCert(dir, "other").keyFile }),
      /^listener "tcp" \(purpose api\)\.tls_cert_file .*dev\.crt and tls_key_file .*other\.key: the key is not the certificate's key \(they come from different pairs\)$/,
    ],
    [
      () => tlsFiles({ certFile: file("not.pem", "hello"), keyFile: cert.keyFile }),
      /^listener "tcp" \(purpose api\)\.tls_cert_file .*not\.pem and tls_key_file .*dev\.key: tls_cert_file is not a PEM certificate \(it has no -----BEGIN CERTIFICATE----- line\)$/,
    ],
    [
      () => tlsFiles({ certFile: cert.keyFile, keyFile: cert.certFile }),
      /^listener "tcp" \(purpose api\)\.tls_cert_file .*dev\.key and tls_key_file .*dev\.crt: the two files are swapped: tls_cert_file holds a private key and tls_key_file a certificate$/,
    ],
    [
      () => tlsFiles({ certFile: cert.certFile, keyFile: cert.certFile }),
      /^listener "tcp" \(purpose api\)\.tls_cert_file .*dev\.crt and tls_key_file .*dev\.crt: tls_key_file holds a certificate, not a private key$/,
    ],
    [() => "", /^tls not disabled for listener at address "127\.0\.0\.1:0" with purpose "api" but no certificate file supplied /],
    [() => `tls_cert_file = "${cert.certFile}"`, /^listener "tcp" \(purpose api\)\.tls_key_file: required with tls_cert_file, unless tls_disable = true$/],
    [() => `${tlsFiles(cert)}\n  tls_min_version = "tls10"`, /^listener "tcp" \(purpose api\)\.tls_min_version: "tls10" must be tls12 or tls13$/],
  ])("%#: a certificate or key missing, unreadable or unusable is exit 2 naming the key and the file", async (block, message) => {
    const r = await runCli(["dev", "--api-addr", "127.0.0.1:0", "--ops-addr", "127.0.0.1:0", "--config", config(block())]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().replace(/^pulumi-boundary dev: --config \S+: line \d+: /, "")).toMatch(message);
    expect(r.stderr).not.toMatch(/error:[0-9A-F]{8}|routines::/);
  });

  test("relative paths are read from the working directory, as Boundary reads them, and a missing one is named absolute", () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), "pb-cwd-"));
    const relative = config(`tls_cert_file = "dev.crt"\n  tls_key_file = "dev.key"`);
    const run = (cwd: string) =>
      spawnSync(process.execPath, [CLI, "dev", "--config", relative, "--api-addr", "127.0.0.1:0", "--ops-addr", "127.0.0.1:0"], {
        cwd,
        encoding: "utf8",
        timeout: 5000,
        killSignal: "SIGKILL",
      });
    const missing = run(elsewhere);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(
      `tls_cert_file: cannot read ${path.join(elsewhere, "dev.crt")}: ENOENT (relative paths are read from the working directory, as Boundary reads them)`,
    );
    // from the certificate's folder the same file serves HTTPS (killed once the banner shows)
    const served = run(dir);
    expect(served.stdout).toMatch(/API address: https:\/\/127\.0\.0\.1:\d+ /);
    expect(served.stdout).toContain(`(TLS: ${path.join(dir, "dev.crt")})`);
  });

  test("SIGHUP reads the certificate and key again: new connections get the renewed certificate", async () => {
    const live = { certFile: path.join(dir, "live.crt"), keyFile: path.join(dir, "live.key") };
    copyFileSync(cert.certFile, live.certFile);
    copyFileSync(cert.keyFile, live.keyFile);
    const cli = await startCli(["--token", TOKEN, "--config", config(tlsFiles(live))]);
    try {
      const before = await httpsGet(`${cli.apiUrl}/v1/targets/ttcp_1234567890`, cert.cert);
      const renewed = selfSignedCert(dir, "renewed");
      copyFileSync(renewed.certFile, live.certFile);
      copyFileSync(renewed.keyFile, live.keyFile);
      cli.child.kill("SIGHUP");
      await until(() => cli.output().includes("SIGHUP: certificate"), "the reload's log line");
      const after = await httpsGet(`${cli.apiUrl}/v1/targets/ttcp_1234567890`, renewed.cert);
      expect(after.fingerprint).not.toBe(before.fingerprint);
      // a broken renewal keeps the certificate served, and says why
      writeFileSync(live.keyFile, "not a key");
      cli.child.kill("SIGHUP");
      await until(() => /\[ERROR\] SIGHUP: .*live\.key.*still serving the certificate loaded before/.test(cli.output()), "the failed reload's log line");
      expect((await httpsGet(`${cli.apiUrl}/v1/targets/ttcp_1234567890`, renewed.cert)).fingerprint).toBe(after.fingerprint);
    } finally {
      await stop(cli);
    }
  });

  test("the provider against it: BOUNDARY_CACERT trusts the certificate, BOUNDARY_TLS_INSECURE skips verification, neither fails on the self-signed one", async () => {
    const cli = await startCli(["--token", TOKEN, "--config", config(tlsFiles(cert))]);
    const saved = { ...process.env };
    const withEnv = async <T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> => {
      Object.assign(process.env, { BOUNDARY_ADDR: cli.apiUrl, BOUNDARY_TOKEN: TOKEN, BOUNDARY_MAX_RETRIES: "0" }, env);
      try {
        return await fn();
      } finally {
        process.env = { ...saved };
      }
    };
    const lifecycle = (env: Record<string, string>) =>
      withEnv(env, async () => {
        const core = new TargetCore({});
        try {
          const { id, state } = await core.create({ scopeId: "p_1234567890", name: `tls-${Object.keys(env).join("-")}`, hostSetIds: ["hsst_1234567890"] });
          expect((await core.read(id, state))?.state.hostSetIds).toEqual(["hsst_1234567890"]);
          await core.delete(id);
          return id;
        } finally {
          await core.client.close();
        }
      });
    try {
      expect(await lifecycle({ BOUNDARY_CACERT: cert.certFile })).toMatch(/^ttcp_/);
      expect(await lifecycle({ BOUNDARY_TLS_INSECURE: "true" })).toMatch(/^ttcp_/);
      // neither: the self-signed certificate is refused (a read: a create would then wait to ask whether it was made)
      await withEnv({}, async () => {
        const client = new TargetCore({}).client;
        await expect(client.getTarget("ttcp_1234567890")).rejects.toThrow(/self-signed certificate/);
        await client.close();
      });
    } finally {
      process.env = saved;
      await stop(cli);
    }
  });
});

test("openssl made the test certificates (the TLS tests above need it)", () => {
  expect(execFileSync("openssl", ["version"], { encoding: "utf8" })).toMatch(/^OpenSSL [13]\./);
});

describe("the banner lists only what the emulated release accepts", () => {
  test.each([
    [[], false],
    [["--emulate", "0.4"], false],
    [["--emulate", "0.21"], true],
  ])("%j: plugin host sets and static credentials listed: %s", async (flags, current) => {
    const cli = await startCli([...flags]);
    try {
      const banner = cli.output();
      expect(banner).toMatch(/Host sets: hsst_1234567890 /);
      expect(banner.includes("hsplg_1234567890")).toBe(current);
      expect(banner.includes("credup_1234567890")).toBe(current);
      expect(banner).toContain("Credential libraries: clvlt_1234567890, clvlt_1234567891");
    } finally {
      await stop(cli);
    }
  });
});
