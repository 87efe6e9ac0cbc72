/**
 * `pulumi-boundary doctor` (issue 32, item 3): against every release of the matrix a sound setup
 * passes every check; each problem of a deliberately broken setup (a wrong address, a `/v1` suffix,
 * `http://` to a TLS listener, a wrong password, a missing grant) is reported at its own check, and
 * the run stops there. The doctor never writes: the controller's metrics show only reads.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { runChecks, type Finding } from "../../provider/doctor/checks";
import { MATRIX } from "../helpers/releases";
import { RELEASE_KEYS, type ReleaseKey } from "../../wire/releases";
import { ADMIN_TOKEN, PROJECT, startTestController, type TestController } from "../helpers/controller";
import { selfSignedCert } from "../helpers/certs";
import { countCalls } from "../helpers/metrics";
import { runCli } from "../helpers/cli";

const LOGIN = {
  BOUNDARY_AUTH_METHOD_ID: "ampw_1234567890",
  BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME: "admin",
  BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD: "password",
};

/** The findings of a doctor run with `env` (and `--scope`), and whether it passed. */
async function doctor(env: NodeJS.ProcessEnv, scope?: string): Promise<{ ok: boolean; findings: Finding[]; failed?: Finding }> {
  const findings: Finding[] = [];
  const ok = await runChecks({}, env, scope, (f) => findings.push(f));
  return { ok, findings, failed: findings.find((f) => f.status === "fail") };
}

describe.each(MATRIX)("--emulate %s", (mode) => {
  let c: TestController;
  beforeAll(async () => {
    c = await startTestController({ emulation: mode });
    await c.create({ name: "existing" });
  });
  afterAll(() => c.shutdown());

  test("a sound login passes every check, one line each, and only reads", async () => {
    const targets = async () => (await c.call("GET", `/v1/targets?scope_id=${PROJECT}`)).body.items;
    const before = await targets();
    const { result, calls } = await countCalls(c.opsUrl, () => doctor({ BOUNDARY_ADDR: c.apiUrl, ...LOGIN }, PROJECT));
    expect(result.failed).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.findings.map((f) => f.check)).toEqual(["settings", "address", "credentials", "release", "grants", "grants", "rate limits", "not checked"]);
    // the releases it reports may be a range (what the answers tell apart), and hold the one emulated
    const [, from, to] = /Boundary (\S+?)(?:–(\S+))? /.exec(result.findings.find((f) => f.check === "release")!.text)!;
    const at = (k: string) => RELEASE_KEYS.indexOf(k as ReleaseKey);
    expect(at(mode)).toBeGreaterThanOrEqual(at(from!));
    expect(at(mode)).toBeLessThanOrEqual(at(to ?? from!));
    const policy = result.findings.find((f) => f.check === "rate limits")!.text;
    if (["0.14", "0.15", "0.21"].includes(mode)) expect(policy).toMatch(/advertises .*;w=30/);
    // nothing written: no create, update or delete, and every Target as it was
    expect(Object.keys(calls).filter((k) => /^(PATCH|DELETE) |^POST \/v1\/targets$/.test(k))).toEqual([]);
    expect(await targets()).toEqual(before);
  });

  test("without --scope (as the README's tour runs it) every check passes but the grants, which are skipped", async () => {
    const { ok, findings } = await doctor({ BOUNDARY_ADDR: c.apiUrl, ...LOGIN });
    expect(findings.filter((f) => f.status === "fail")).toEqual([]);
    expect(ok).toBe(true);
    expect(findings.map((f) => `${f.status} ${f.check}`)).toEqual([
      "ok settings",
      "ok address",
      "ok credentials",
      "ok release",
      "skip grants",
      "ok rate limits",
      "skip not checked",
    ]);
    const policy = findings.find((f) => f.check === "rate limits")!.text;
    if (["0.14", "0.15", "0.21"].includes(mode)) expect(policy).toMatch(/advertises .*;w=30/);
  });

  test("an org for --scope is a warning that Targets live in projects; an unknown scope asks for an existing one", async () => {
    const org = await doctor({ BOUNDARY_ADDR: c.apiUrl, BOUNDARY_TOKEN: ADMIN_TOKEN }, "o_1234567890");
    expect(org.failed).toBeUndefined();
    expect(org.findings.find((f) => f.check === "grants")).toMatchObject({ status: "warn", text: expect.stringContaining("o_1234567890 is an org scope") });
    const none = await doctor({ BOUNDARY_ADDR: c.apiUrl, BOUNDARY_TOKEN: ADMIN_TOKEN }, "p_0000000000");
    expect(none.failed).toEqual({ status: "fail", check: "grants", text: "no scope p_0000000000 on this controller: give an existing one (--scope)" });
  });

  test("a wrong password stops at the credentials, naming the settings", async () => {
    const { ok, failed } = await doctor({ BOUNDARY_ADDR: c.apiUrl, ...LOGIN, BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD: "wrong-one" }, PROJECT);
    expect(ok).toBe(false);
    expect(failed).toMatchObject({ check: "credentials" });
    expect(failed!.text).toContain("BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME and BOUNDARY_AUTHENTICATE_PASSWORD_PASSWORD");
    expect(failed!.text).not.toContain("wrong-one");
  });

  test("a missing grant (the read-only user may not create) stops at the grants", async () => {
    const { failed } = await doctor({ BOUNDARY_ADDR: c.apiUrl, ...LOGIN, BOUNDARY_AUTHENTICATE_PASSWORD_LOGIN_NAME: "user" }, PROJECT);
    expect(failed).toMatchObject({ check: "grants" });
    expect(failed!.text).toContain(`in ${PROJECT} the credentials may not create Targets (Boundary reports ["list"])`);
  });
});

describe("a broken address", () => {
  let c: TestController;
  beforeAll(async () => {
    c = await startTestController({ emulation: "0.21" });
  });
  afterAll(() => c.shutdown());

  test("an address ending in /v1 stops at the settings, with the address to give", async () => {
    const { failed } = await doctor({ BOUNDARY_ADDR: `${c.apiUrl}/v1`, BOUNDARY_TOKEN: ADMIN_TOKEN });
    expect(failed).toMatchObject({ check: "settings" });
    expect(failed!.text).toContain(`ends in /v1`);
    expect(failed!.text).toContain(JSON.stringify(c.apiUrl));
  });

  test("an address nothing listens on stops at the address", async () => {
    const { failed, findings } = await doctor({ BOUNDARY_ADDR: "http://127.0.0.1:1", BOUNDARY_TOKEN: ADMIN_TOKEN, BOUNDARY_MAX_RETRIES: "0" });
    expect(failed).toMatchObject({ check: "address" });
    expect(failed!.text).toMatch(/no controller answers at/);
    // where the address came from, as given (not the doctor's own copy of it)
    expect(failed!.text).toContain("the address BOUNDARY_ADDR gives");
    expect(findings.map((f) => f.check)).toEqual(["settings", "address"]);
  });

  test("a wrong base path (the admin UI's page) stops at the address as no answer of the API", async () => {
    const { failed } = await doctor({ BOUNDARY_ADDR: `${c.apiUrl}/boundary`, BOUNDARY_TOKEN: ADMIN_TOKEN });
    expect(failed).toMatchObject({ check: "address" });
  });

  test("http:// to a TLS listener stops at the address, saying it serves TLS", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pb-doctor-"));
    const cert = selfSignedCert(dir, "doctor");
    const tls = await startTestController({ api: { host: "127.0.0.1", port: 0, tls: { ...cert, key: readFileSync(cert.keyFile, "utf8") } } });
    try {
      const plain = tls.apiUrl.replace(/^https:/, "http:");
      const { failed } = await doctor({ BOUNDARY_ADDR: plain, BOUNDARY_TOKEN: ADMIN_TOKEN, BOUNDARY_MAX_RETRIES: "0" });
      expect(failed).toMatchObject({ check: "address" });
      expect(failed!.text).toMatch(/serves TLS/);
    } finally {
      await tls.shutdown();
    }
  });
});

describe("the command", () => {
  test("pulumi-boundary doctor prints one line per check and exits 1 at a blocking problem; 0 when sound", async () => {
    const c = await startTestController({ emulation: "0.21" });
    try {
      const bad = await runCli(["doctor", "--scope", PROJECT], { BOUNDARY_ADDR: c.apiUrl, BOUNDARY_TOKEN: "at_0000000000_s1nope" });
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(/^FAIL {2}credentials: /m);
      expect(bad.stdout).not.toContain("at_0000000000_s1nope");
      const good = await runCli(["doctor", "--scope", PROJECT], { BOUNDARY_ADDR: c.apiUrl, BOUNDARY_TOKEN: ADMIN_TOKEN });
      expect(good.stdout).toMatch(/^ok {4}grants: in p_1234567890 the credentials may list and create Targets/m);
      expect(good.code).toBe(0);
    } finally {
      await c.shutdown();
    }
  });

  test("--stack reads the stack's config through Pulumi's CLI (a stand-in here, printing what `pulumi config --json --show-secrets` prints)", async () => {
    const c = await startTestController({ emulation: "0.21" });
    const bin = mkdtempSync(path.join(tmpdir(), "pb-pulumi-"));
    const config = {
      "boundary:addr": { value: c.apiUrl, secret: false },
      "boundary:authMethodId": { value: "ampw_1234567890", secret: false },
      "boundary:authMethodLoginName": { value: "admin", secret: false },
      "boundary:authMethodPassword": { value: "password", secret: true },
    };
    // answers only the call the doctor makes; anything else fails as the real CLI would
    const script = `#!/bin/sh\nif [ "$*" = "config --json --show-secrets --stack ci" ]; then echo '${JSON.stringify(config)}'; else echo "error: no stack named $5" >&2; exit 255; fi\n`;
    writeFileSync(path.join(bin, "pulumi"), script, { mode: 0o755 });
    try {
      const env = { PATH: `${bin}:${process.env.PATH}` };
      const good = await runCli(["doctor", "--stack", "ci", "--scope", PROJECT], env);
      expect(good.stdout).toMatch(/^ok {4}settings: address http:\/\/127\.0\.0\.1:\d+ \(from boundary:addr\); login to ampw_1234567890 as "admin"$/m);
      expect(good.stdout).toMatch(/^ok {4}credentials: the login works/m);
      expect(good.code).toBe(0);
      const missing = await runCli(["doctor", "--stack", "nope"], env);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("--stack nope: `pulumi config --stack nope` failed (error: no stack named nope)");
    } finally {
      await c.shutdown();
    }
  });

  test("--help says a login's token is left on the controller until it expires", async () => {
    const res = await runCli(["doctor", "--help"]);
    expect(res.code).toBe(0);
    expect(res.stdout.replace(/\s+/g, " ")).toContain("the doctor does not revoke it, and it stays valid until it expires");
  });

  test("a scope that is no id is a usage error (exit 2)", async () => {
    const res = await runCli(["doctor", "--scope", "prod"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--scope "prod"');
  });
});
