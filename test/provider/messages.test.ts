/**
 * Errors that point to the fix, through the real engine path on both routes: a misspelt input key
 * (plain JavaScript has no type check) names the closest input; an update of a Target deleted
 * outside Pulumi says so and that `pulumi refresh` drops it; a 401 says whether the token was
 * missing or refused and where it is set; address mistakes (a trailing /v1, a 404 that is not
 * Boundary's, http:// to a TLS listener) are named as such and make nothing; a name autonaming made
 * that the rules refuse says where it came from; and the package on a Node.js older than it needs
 * fails at load with one line naming both versions.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { registeredInputs } from "../../harness/program";
import { packedProgram } from "../../harness/provider-host";
import { Stack, StepFailed } from "../../harness/stack";
import { NODE_MAJOR_NEEDED } from "../../provider/node-version";
import { selfSignedCert } from "../helpers/certs";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { ROUTES, RoutePool, type TestRoute } from "../helpers/routes";

/** The error's text, as the engine shows it. */
const shown = (err: unknown) => String(err instanceof Error ? err.message : err);

describe.each(ROUTES)("through the %s route", (kind) => {
  let c: TestController;
  let tls: TestController;
  let route: TestRoute;
  let n = 0;
  const dir = mkdtempSync(path.join(tmpdir(), "pb-messages-"));
  // every provider process a test below needs, each configured as its test says, started at once
  const routes = new RoutePool();
  beforeAll(async () => {
    c = await startTestController();
    const cert = selfSignedCert(dir, "localhost");
    tls = await startTestController({ api: { host: "127.0.0.1", port: 0, tls: { ...cert, key: readFileSync(cert.keyFile, "utf8") } } });
    routes.start("shared", kind, c.apiUrl);
    routes.start("token missing", kind, c.apiUrl, { token: "", env: { BOUNDARY_TOKEN: "" } });
    routes.start("token refused", kind, c.apiUrl, { token: "at_0000000000_s1ThisTokenIsNotKnownHere", env: { BOUNDARY_TOKEN: "" } });
    routes.start("/v1", kind, `${c.apiUrl}/v1`, { env: { BOUNDARY_MAX_RETRIES: "0" } });
    routes.start("token with a line ending", kind, c.apiUrl, { token: "at_1234567890_s1AdminTokenForTestsOnly\r" });
    routes.start("/boundary", kind, `${c.apiUrl}/boundary`, { env: { BOUNDARY_MAX_RETRIES: "0" } });
    routes.start("http to TLS", kind, tls.apiUrl.replace(/^https:/, "http:"), { env: { BOUNDARY_MAX_RETRIES: "0" } });
    // all up before the first test: a test's own time is not spent waiting for seven starts under load
    await routes.ready();
    route = await routes.take("shared");
  }, 120_000);
  afterAll(async () => {
    await routes.stop();
    await tls?.shutdown();
    await c?.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test("a misspelt input key fails check, naming it and the closest input", async () => {
    // what the program registers: on the dynamic route, through the Target class itself
    const program = { scopeId: PROJECT, name: "misspelt", hostSetId: ["hsst_1234567890"] };
    const news = kind === "dynamic" ? (await registeredInputs(packedProgram(), [{ name: "web", args: program }]))[0]! : program;
    const checked = await route.engine.check(news, {}, { name: "web" });
    expect(checked.failures).toEqual([{ property: "hostSetId", reason: "hostSetId is not an input of boundary:Target: did you mean hostSetIds?" }]);
    const before = c.store.size;
    await expect(new Stack(route, "web").up(program)).rejects.toThrow("hostSetId: hostSetId is not an input of boundary:Target: did you mean hostSetIds?");
    expect(c.store.size).toBe(before);
  });

  test("updating a Target deleted outside Pulumi says so, and that pulumi refresh drops it; refresh then up makes it again", async () => {
    const stack = new Stack(route, "web");
    const program = { scopeId: PROJECT, name: `deleted-${kind}-${++n}`, applicationCredentialLibraryIds: ["clvlt_1234567890"] };
    await stack.up(program);
    const id = stack.id!;
    c.store.deleteTarget(id);
    const err = await stack.up({ ...program, applicationCredentialLibraryIds: ["clvlt_1234567891"] }).catch((e: unknown) => e);
    expect(shown(err)).toContain(
      `target ${id} was deleted outside Pulumi (POST /v1/targets/${id}:set-credential-libraries: 404 NotFound: Resource not found.). \`pulumi refresh\` drops it from the stack; the next \`pulumi up\` then creates it again.`,
    );
    expect(await stack.refresh()).toBe("gone");
    expect(await stack.up(program)).toBe("create");
    await stack.destroy();
  });

  test.each([
    [
      "missing",
      "",
      "No token was given: set one with `pulumi config set --secret boundary:token <token>` or BOUNDARY_TOKEN, " +
        "or log in with `boundary:authMethodId`, `boundary:authMethodLoginName` and `boundary:authMethodPassword`.",
    ],
    [
      "refused",
      "at_0000000000_s1ThisTokenIsNotKnownHere",
      "The controller refused the token (wrong, expired or revoked, or made by another controller) given by boundary:token: set a valid one with `pulumi config set --secret boundary:token <token>` or BOUNDARY_TOKEN.",
    ],
  ])("a 401 with the token %s says so, naming boundary:token and BOUNDARY_TOKEN", async (what, token, says) => {
    const own = await routes.take(`token ${what}`);
    try {
      const err = await new Stack(own, "web").up({ scopeId: PROJECT, name: "unauthenticated" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StepFailed);
      expect(shown(err)).toContain("POST /v1/targets: 401 Unauthenticated: Unauthenticated, or invalid token. " + says);
      if (token) {
        expect(shown(err)).not.toContain(token);
        expect(own.host.output()).not.toContain(token);
      }
    } finally {
      await own.stop();
    }
  });

  test("an address ending in /v1 is named as such before any call, with the address to use", async () => {
    const own = await routes.take("/v1");
    try {
      const before = c.store.size;
      const err = await new Stack(own, "web").up({ scopeId: PROJECT, name: "double-v1" }).catch((e: unknown) => e);
      expect(shown(err)).toContain(
        `ends in /v1, which the provider adds to every path itself (it would ask ${c.apiUrl}/v1/v1/targets): give the API listener's address without it, "${c.apiUrl}"`,
      );
      expect(c.store.size).toBe(before);
    } finally {
      await own.stop();
    }
  });

  test("a token with a line ending is named by its setting before any call, never shown", async () => {
    const own = await routes.take("token with a line ending");
    try {
      const before = c.store.size;
      const err = await new Stack(own, "web").up({ scopeId: PROJECT, name: "token-with-cr" }).catch((e: unknown) => e);
      expect(shown(err)).toContain("token (boundary:token): the token holds a control character or white space");
      expect(shown(err)).not.toContain("s1AdminTokenForTestsOnly");
      expect(c.store.size).toBe(before);
    } finally {
      await own.stop();
    }
  });

  test("a 404 that is not Boundary's on create is an address mistake: nothing was made, and no lost answer is looked for", async () => {
    const own = await routes.take("/boundary");
    try {
      const before = c.store.size;
      const err = await new Stack(own, "web").up({ scopeId: PROJECT, name: "wrong-path" }).catch((e: unknown) => e);
      expect(shown(err)).toContain(`POST ${c.apiUrl}/boundary/v1/targets: 404, and not an answer from Boundary's API`);
      expect(shown(err)).toContain("this address does not reach the controller's API (a wrong host, port or path): check boundary:addr / BOUNDARY_ADDR");
      expect(shown(err)).not.toMatch(/may exist|lost/);
      expect(c.store.size).toBe(before);
    } finally {
      await own.stop();
    }
  });

  test("http:// to a listener that serves TLS says to use https://, and that nothing was applied", async () => {
    const plain = tls.apiUrl.replace(/^https:/, "http:");
    const own = await routes.take("http to TLS");
    const before = tls.store.size;
    try {
      const err = await new Stack(own, "web").up({ scopeId: PROJECT, name: "plain-to-tls" }).catch((e: unknown) => e);
      expect(shown(err)).toContain(
        `POST /v1/targets: UND_ERR_SOCKET: other side closed; nothing was applied: ${new URL(plain).host} serves TLS (a TLS handshake there succeeds), ` +
          `which cannot read a plain-HTTP request. Use ${tls.apiUrl} in boundary:addr (or BOUNDARY_ADDR)`,
      );
      expect(shown(err)).not.toMatch(/may exist|lost/);
      expect(tls.store.size).toBe(before);
    } finally {
      await own.stop();
    }
  });

  test("a name autonaming made from a resource name Boundary refuses (a tab) says it was generated from the resource's name", async () => {
    const program = { scopeId: PROJECT };
    const news = kind === "dynamic" ? (await registeredInputs(packedProgram(), [{ name: "we\tb", args: program }]))[0]! : program;
    const checked = await route.engine.check(news, {}, { name: "we\tb" });
    const failure = checked.failures.find((f) => f.property === "name");
    expect(failure?.reason).toContain("must contain printable characters only");
    expect(failure?.reason).toMatch(
      /\(the name "we\\tb-[0-9a-f]{7}" was generated from the resource's name "we\\tb", as no name was set: rename the resource, or set `name`\)$/,
    );
    if (kind === "plugin") {
      // what the engine sends when the stack has autonaming settings: a name it proposes from the resource's
      const proposed = await route.engine.check(news, {}, { name: "we\tb", autonaming: { proposedName: "we\tb-x1", mode: "propose" } });
      expect(proposed.failures.find((f) => f.property === "name")?.reason).toContain(
        `(the name "we\\tb-x1" was generated from the resource's name "we\\tb" by the stack's autonaming settings, as no name was set`,
      );
    }
  });
});

/** A Node.js on this machine older than the package needs (the system's), if there is one. */
const OLD_NODE = ["/usr/bin/node", "/bin/node", "/usr/local/bin/node", ...spawnSync("which", ["-a", "node"], { encoding: "utf8" }).stdout.split("\n")]
  .filter((p) => p)
  .find((p) => {
    try {
      return Number(execFileSync(p, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).trim()) < NODE_MAJOR_NEEDED;
    } catch {
      return false;
    }
  });

(OLD_NODE ? describe : describe.skip)(`the package on an older Node.js (${OLD_NODE ?? "none on this machine"})`, () => {
  test.each(["pulumi-boundary", "pulumi-boundary/dynamic"])("loading %s fails at load with one line naming the Node.js needed and the one found", (entry) => {
    const version = execFileSync(OLD_NODE!, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
    const r = spawnSync(OLD_NODE!, ["-e", `require(${JSON.stringify(entry)})`], { cwd: packedProgram(), encoding: "utf8" });
    const line = `pulumi-boundary needs Node.js ${NODE_MAJOR_NEEDED} or later; this is Node.js ${version}.`;
    // that line alone: no file location, source line and caret before it
    expect([r.status, r.stderr]).toEqual([1, `${line}\n`]);
    // caught by a program, it is that one line
    const caught = spawnSync(OLD_NODE!, ["-e", `try { require(${JSON.stringify(entry)}) } catch (e) { process.stdout.write(e.message) }`], {
      cwd: packedProgram(),
      encoding: "utf8",
    });
    expect(caught.stdout).toBe(line);
  });

  test("the Node.js needed is package.json's engines", () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${NODE_MAJOR_NEEDED}`);
  });
});
