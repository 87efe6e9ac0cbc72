/**
 * The suite's own environment (test/environment.js) fails a test file that leaves behind what keeps
 * jest's worker alive at the end of the run: here it is driven as jest drives it (setup, the file's
 * code, teardown), with a file's leftovers made on purpose.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Environment = require("../environment.js") as new (
  config: unknown,
  context: unknown,
) => {
  global: typeof globalThis;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  handleTestEvent(event: unknown): void;
};

// the pretend files' figures stay out of a PB_FILE_CPU record of the run; this file's own is written after afterAll
const fileCpu = process.env.PB_FILE_CPU;
beforeAll(() => delete process.env.PB_FILE_CPU);
afterAll(() => {
  if (fileCpu !== undefined) process.env.PB_FILE_CPU = fileCpu;
});

/** A fresh environment for a pretend test file, set up. */
async function environment(): Promise<InstanceType<typeof Environment>> {
  const env = new Environment(
    // a short grace: each test here leaves something on purpose, and would wait it out
    { globalConfig: {}, projectConfig: { testEnvironmentOptions: { leakGraceMs: 300 }, globals: {} } },
    { testPath: "/pretend/file.test.ts", console, docblockPragmas: {} },
  );
  await env.setup();
  return env;
}

test("a file that leaves nothing passes", async () => {
  const env = await environment();
  const t = env.global.setTimeout(() => undefined, 5_000);
  env.global.clearTimeout(t);
  env.global.setTimeout(() => undefined, 50); // ends within the grace
  await expect(env.teardown()).resolves.toBeUndefined();
});

test("a timer the file set and never cleared fails it, named by where it was set", async () => {
  const env = await environment();
  const timer = env.global.setTimeout(() => undefined, 60_000);
  try {
    await expect(env.teardown()).rejects.toThrow(/pretend\/file\.test\.ts left running[\s\S]*a 60000 ms timeout set .*leak-check\.test\.ts/);
  } finally {
    clearTimeout(timer);
  }
}, 10_000);

test("an interval of any period fails it too; an unref'd timer does not", async () => {
  const env = await environment();
  const interval = env.global.setInterval(() => undefined, 1_000);
  const short = env.global.setInterval(() => undefined, 100); // never ends of itself, however short
  env.global.setTimeout(() => undefined, 60_000).unref();
  try {
    await expect(env.teardown()).rejects.toThrow(/a 1000 ms interval set[\s\S]*a 100 ms interval set/);
  } finally {
    clearInterval(interval);
    clearInterval(short);
  }
}, 10_000);

test("util.promisify(setTimeout) still works under the watch", async () => {
  const env = await environment();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { promisify } = require("node:util") as typeof import("node:util");
  await expect(promisify(env.global.setTimeout)(10, "done")).resolves.toBe("done");
  await expect(env.teardown()).resolves.toBeUndefined();
});

test("a child process and a server left running fail it, each named", async () => {
  const env = await environment();
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  const server = createServer().listen(0, "127.0.0.1");
  try {
    await expect(env.teardown()).rejects.toThrow(/child process \d+: .*node[\s\S]*server listening on/);
  } finally {
    child.kill("SIGKILL");
    server.close();
    await new Promise((r) => child.once("exit", r));
  }
}, 10_000);

test("a child's pipe held open after the child exited, by a process it started, fails it", async () => {
  const env = await environment();
  // sh starts a sleeper in the background with sh's stdout, then exits: the pipe stays open
  const child = spawn("sh", ["-c", "sleep 30 & echo $!"], { stdio: ["ignore", "pipe", "ignore"] });
  let pid = "";
  child.stdout.on("data", (d) => (pid += d));
  await new Promise((r) => child.once("exit", r));
  try {
    await expect(env.teardown()).rejects.toThrow(/stdio pipe\(s\) of a child process that has exited, held open by a process it started/);
  } finally {
    process.kill(Number(pid.trim()), "SIGKILL");
    child.stdout.destroy();
  }
}, 10_000);

test("what a failed test left is reported beside its failure, not in place of it (jest would drop the file's results)", async () => {
  const env = await environment();
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const written: string[] = [];
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
  try {
    // a test past its timeout: jest reports it failed while its body (and the server it started) goes on
    env.handleTestEvent({ name: "test_done", test: { name: "pretend test", errors: [new Error("Exceeded timeout of 30000 ms")] } });
    await expect(env.teardown()).resolves.toBeUndefined();
    expect(written.join("")).toMatch(/pretend\/file\.test\.ts: after test "pretend test" failed, left running:\n {2}server listening on/);
  } finally {
    spy.mockRestore();
    server.close();
  }
}, 10_000);
