/**
 * The real CLI process: banner, request log lines without the token, /health and /metrics on the
 * ops listener, graceful shutdown with and without a wait, and a second signal forcing exit, also
 * through `timeout -s TERM` around `npx`, as the README starts it.
 */
import { spawn } from "node:child_process";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startCli } from "../helpers/cli";
import { until } from "../helpers/wait";

const TOKEN = "at_1111111111_s1ShutdownTestToken";
const auth = { authorization: `Bearer ${TOKEN}` };

test("prints addresses, token and seeded ids; logs one line per request without the token", async () => {
  const cli = await startCli(["--token", TOKEN, "--log-format", "json", "--log-level", "debug"]);
  try {
    const banner = cli.output();
    for (const id of ["p_1234567890", "p_0987654321", "hsst_1234567890", "hst_1234567892", "clvlt_1234567891", "o_1234567890"]) expect(banner).toContain(id);
    expect(banner).not.toContain(TOKEN); // a token given by the user is not echoed
    const res = await fetch(`${cli.apiUrl}/v1/targets?scope_id=p_1234567890`, { headers: auth });
    expect(res.status).toBe(200);
    const requestLine = () =>
      cli
        .output()
        .trim()
        .split("\n")
        .map((l) => {
          try {
            return JSON.parse(l);
          } catch {
            return undefined;
          }
        })
        .find((l) => l?.msg === "request");
    const line = await until(requestLine, "the request log line");
    expect(line).toMatchObject({ level: "debug", method: "GET", path: "/v1/targets", status: 200 });
    expect(line.ms).toEqual(expect.any(Number));
    expect(cli.output()).not.toContain(TOKEN);
  } finally {
    cli.child.kill("SIGKILL");
  }
});

test("a generated token is printed and works", async () => {
  const cli = await startCli(["--log-level", "debug"]);
  try {
    const token = /Admin token: (at_\S+)/.exec(cli.output())![1]!;
    const res = await fetch(`${cli.apiUrl}/v1/targets?scope_id=p_1234567890`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    // the text log: one line for the request, and the token only ever in the banner (its Try line included)
    const log = await until(
      () => /\[DEBUG\] request /.test(cli.output()) && cli.output().slice(cli.output().indexOf("\n", cli.output().indexOf("Try:"))),
      "the request log line",
    );
    expect(log).toMatch(/\[DEBUG\] request method=GET path=\/v1\/targets status=200 ms=[\d.]+\n/);
    expect(log).not.toContain(token);
  } finally {
    cli.child.kill("SIGKILL");
  }
});

test("with a grace period: /health turns 503 at once, the API keeps serving for the whole wait, then exit 0", async () => {
  const cli = await startCli(["--token", TOKEN, "--graceful-shutdown-wait", "1500ms"]);
  expect((await fetch(`${cli.opsUrl}/health`)).status).toBe(200);
  const signalledAt = Date.now();
  cli.child.kill("SIGTERM");
  const health = await until(async () => {
    const h = await fetch(`${cli.opsUrl}/health`);
    return h.status === 503 && h;
  }, "/health to turn 503");
  expect(await health.text()).toBe("");
  // the API still creates and reads during the wait
  const created = await fetch(`${cli.apiUrl}/v1/targets`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ scope_id: "p_1234567890", name: "during-grace", type: "tcp" }),
  });
  expect(created.status).toBe(200);
  // still serving one second into the 1.5 s wait
  await new Promise((r) => setTimeout(r, Math.max(0, signalledAt + 1000 - Date.now())));
  expect((await fetch(`${cli.apiUrl}/v1/targets?scope_id=p_1234567890`, { headers: auth })).status).toBe(200);
  const { code, at } = await cli.exited;
  expect(code).toBe(0);
  expect(at - signalledAt).toBeGreaterThanOrEqual(1500);
  expect(at - signalledAt).toBeLessThan(5000);
  expect(cli.output()).toContain("shutdown started");
  await expect(fetch(`${cli.apiUrl}/v1/targets`)).rejects.toThrow();
});

test("the grace period can come from a Boundary config file", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pb-shutdown-"));
  const hcl = path.join(dir, "dev.hcl");
  writeFileSync(
    hcl,
    'controller {\n  graceful_shutdown_wait_duration = "1s"\n}\nlistener "tcp" {\n  purpose = "api"\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\nlistener "tcp" {\n  purpose = "ops"\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n',
  );
  const cli = await startCli(["--config", hcl]);
  const signalledAt = Date.now();
  cli.child.kill("SIGINT");
  await until(async () => (await fetch(`${cli.opsUrl}/health`)).status === 503, "/health to turn 503");
  const { code, at } = await cli.exited;
  expect(code).toBe(0);
  expect(at - signalledAt).toBeGreaterThanOrEqual(1000);
});

test("without a grace period the controller shuts down at once with exit 0", async () => {
  const cli = await startCli([]);
  const signalledAt = Date.now();
  cli.child.kill("SIGTERM");
  const { code, at } = await cli.exited;
  expect(code).toBe(0);
  expect(at - signalledAt).toBeLessThan(1000);
});

test("a second signal during the wait forces an immediate exit", async () => {
  const cli = await startCli(["--graceful-shutdown-wait", "30s"]);
  cli.child.kill("SIGTERM");
  await until(() => cli.output().includes("shutdown started"), "the shutdown to start");
  const secondAt = Date.now();
  cli.child.kill("SIGTERM");
  const { code, at } = await cli.exited;
  expect(code).toBe(1);
  expect(at - secondAt).toBeLessThan(1000);
});

test("an in-flight request finishes when the API listener closes", async () => {
  const cli = await startCli(["--token", TOKEN]);
  // a slow upload: the request is in flight when the signal arrives
  const body = JSON.stringify({ scope_id: "p_1234567890", name: "in-flight", type: "tcp" });
  const { request } = await import("node:http");
  const u = new URL(`${cli.apiUrl}/v1/targets`);
  const done = new Promise<number>((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: { ...auth, "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on("error", reject);
    req.write(body.slice(0, 10));
    // once the request is on the wire, signal; finish the body only after shutdown has begun
    req.once("socket", (socket) =>
      socket.once("connect", () => {
        cli.child.kill("SIGTERM");
        until(() => cli.output().includes("shutdown started"), "the shutdown to start").then(() => req.end(body.slice(10)), reject);
      }),
    );
  });
  expect(await done).toBe(200);
  const answeredAt = Date.now();
  const { code, at } = await cli.exited;
  expect(code).toBe(0);
  // the finished request's connection is closed, not kept alive until the drain timeout
  expect(at - answeredAt).toBeLessThan(2000);
});

test("under `timeout -s TERM` around npx, as the README starts it, the whole graceful wait is kept (npm's exit is not a second signal)", async () => {
  const root = path.join(__dirname, "..", "..");
  // timeout sends the signal to npx and to its whole process group (npm, sh, the controller), as a
  // process manager or `kill -TERM -PGID` does; npm then exits at once, which the controller sees
  const child = spawn(
    "timeout",
    ["-s", "TERM", "120", "npx", "pulumi-boundary", "dev", "--api-addr", "127.0.0.1:0", "--ops-addr", "127.0.0.1:0", "--graceful-shutdown-wait", "3s"],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  try {
    const ops = await until(() => /Ops address: (\S+)/.exec(out)?.[1], "the banner", 60_000);
    const signalledAt = Date.now();
    child.kill("SIGTERM"); // to timeout, which sends it on as when its time is up
    await until(async () => (await fetch(`${ops}/health`)).status === 503, "/health to turn 503");
    // still serving (503) after the parent's exit and until the wait is over, then gone
    const gone = await until(
      async () => {
        try {
          await fetch(`${ops}/health`);
          return undefined;
        } catch {
          return Date.now();
        }
      },
      "the controller to exit",
      10_000,
    );
    expect(gone - signalledAt).toBeGreaterThanOrEqual(2900);
    expect(out).not.toContain("second signal");
  } finally {
    try {
      process.kill(-child.pid!, "SIGKILL"); // whatever of the group is left
    } catch {
      // all gone
    }
  }
}, 90_000);
