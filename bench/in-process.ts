/**
 * CPU per request of the controller against a bare `node:http` handler sending the same bytes,
 * without sockets: Node's http server is fed requests through Duplex streams injected as
 * connections (8 at a time, each sending its next request once its answer came), each side in a
 * process of its own seeded alike, rounds alternated A B, B A, … ROUNDS times after one unmeasured
 * round each, medians of µs of each process's CPU per request. It leaves out the kernel's part
 * (about the same for both servers), so its ratios sit below the bin's over sockets, but other
 * jobs' load moves it less: it judges a change to the request path.
 * `node dist/bench/in-process.js` (about 25 s; BENCH_INPROC_ROUNDS, default 9).
 *
 * Until 2026-11-28 both servers shared one process and each connection carried 2,000 pipelined
 * requests: Node's http code then ran with feedback from both handlers, which made the bare one
 * cost 21–26 µs per GET instead of 13 in a process of its own, and pipelining added about 20 µs to
 * each side; together they showed the controller level with bare where, apart, it costs twice.
 */
import http, { createServer, type Server } from "node:http";
import { Duplex } from "node:stream";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { loadDevConfig } from "../controller/config/dev-config";
import { startController } from "../controller/server";
import { silentLogger } from "../controller/log";

const ROUNDS = Number(process.env.BENCH_INPROC_ROUNDS ?? 9);
const CONNECTIONS = 8;
const TOKEN = "at_1234567890_inprocessbench";
const PROJECT = "p_1234567890";

/** A connection made of a Duplex: what the server writes is counted, and handed to `wrote` (bytes). */
function connection(wrote: (bytes: number) => void): Duplex & { written: () => number } {
  let got = 0;
  const count = (n: number) => {
    got += n;
    wrote(n);
  };
  const d = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      count(chunk.length);
      cb();
    },
    writev(chunks, cb) {
      for (const c of chunks) count((c.chunk as Buffer).length);
      cb();
    },
  });
  // what Node's http server asks of a socket beyond a stream
  return Object.assign(d, { remoteAddress: "127.0.0.1", setTimeout: () => d, setNoDelay: () => d, setKeepAlive: () => d, written: () => got });
}

/**
 * Sends `perConnection` requests on each of CONNECTIONS connections, each connection's next once
 * its last answer is whole (as the socket bench's client does: no pipelining, which costs Node's
 * server 20 µs more per request and hid the controller's difference); resolves when all came.
 */
function drive(server: Server, request: string, perConnection: number, answerBytes: number): Promise<void> {
  const bytes = Buffer.from(request);
  return new Promise((resolve) => {
    let left = CONNECTIONS;
    for (let i = 0; i < CONNECTIONS; i++) {
      let answers = 0;
      let pending = 0;
      const d = connection((n) => {
        pending += n;
        while (pending >= answerBytes) {
          pending -= answerBytes;
          // the next request once the server's write has returned, as the next read of a socket comes
          if (++answers < perConnection) process.nextTick(() => d.push(bytes));
          else if (--left === 0) setImmediate(resolve);
        }
      });
      server.emit("connection", d);
      d.push(bytes);
    }
  });
}

/** The bytes of one answer to `request` (both servers must send the same): what came within 200 ms. */
async function answerSize(server: Server, request: string): Promise<number> {
  const d = connection(() => {});
  server.emit("connection", d);
  d.push(Buffer.from(request));
  await new Promise((r) => setTimeout(r, 200));
  return d.written();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The servers compared, each in a process of its own (one process would share Node's http code, and its JIT's feedback, between the two). */
type Role = "bare" | "controller";
const ROLES: readonly Role[] = ["bare", "controller"];

/**
 * One side, in this process: the controller seeded with 1,000 Targets (both sides do the same work
 * before they are measured), then the bare handler or the controller's API server. Prints the size
 * of each case's answer as a JSON line, then for each line read (a case's index) drives that case
 * and prints µs of this process's CPU per request.
 */
async function side(role: Role): Promise<void> {
  // the API server the controller makes: taken as it is created (startController does not hand it out)
  const made: Server[] = [];
  const create = http.createServer;
  http.createServer = ((...args: Parameters<typeof create>) => {
    const s = create(...args);
    made.push(s);
    return s;
  }) as typeof create;
  const config = loadDevConfig(["--api-addr", "127.0.0.1:0", "--ops-addr", "127.0.0.1:0", "--token", TOKEN]);
  const c = await startController({ ...config, logger: silentLogger });
  http.createServer = create;
  const api = made[0]!;
  const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  let first = "";
  for (let i = 0; i < 1000; i++) {
    const body = JSON.stringify({ scope_id: PROJECT, name: `t-${i}`, type: "tcp", host_set_ids: ["hsst_1234567890"], attributes: { default_port: 22 } });
    const made = (await (await fetch(`${c.apiUrl}/v1/targets`, { method: "POST", headers, body })).json()) as { id: string };
    first ||= made.id;
  }
  const get = async (p: string) => Buffer.from(await (await fetch(c.apiUrl + p, { headers })).arrayBuffer());
  const one = await get(`/v1/targets/${first}`);
  const list = await get(`/v1/targets?scope_id=${PROJECT}`);
  const bare = createServer((req, res) => {
    req.resume();
    const body = req.url!.startsWith("/v1/targets?") ? list : one;
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length, "cache-control": "no-store" });
    res.end(body);
  });
  const server = role === "bare" ? bare : api;
  // the same ids on both sides (the ids are random): the list's path names none, the GET's is this side's first
  const ask = (p: string) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`;
  const cases = [
    { request: ask(`/v1/targets/${first}`), perConnection: 2000 },
    { request: ask(`/v1/targets?scope_id=${PROJECT}`), perConnection: 200 },
  ];
  const sizes: number[] = [];
  for (const k of cases) sizes.push(await answerSize(server, k.request));
  process.stdout.write(JSON.stringify(sizes) + "\n");
  for await (const line of createInterface({ input: process.stdin })) {
    const k = cases[Number(line)]!;
    const before = process.cpuUsage();
    await drive(server, k.request, k.perConnection, sizes[Number(line)]!);
    const used = process.cpuUsage(before);
    process.stdout.write(JSON.stringify((used.user + used.system) / (k.perConnection * CONNECTIONS)) + "\n");
  }
  await c.shutdown();
}

/** Starts a side in a process of its own; `ask(case)` resolves with its µs per request. */
async function start(role: Role): Promise<{ sizes: number[]; ask: (k: number) => Promise<number>; child: ChildProcess }> {
  const child = spawn(process.execPath, [__filename, role], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse(((await lines.next()).value as string | undefined) ?? "null") as unknown;
  const sizes = (await next()) as number[];
  const ask = async (k: number) => {
    child.stdin!.write(`${k}\n`);
    return (await next()) as number;
  };
  return { sizes, ask, child };
}

async function main(): Promise<void> {
  const [bare, ctl] = await Promise.all(ROLES.map(start));
  const names = ["GET one target", "list of 1,001"];
  console.log(`| case, µs of CPU per request (${ROUNDS} rounds, medians) | bare | controller | bare / controller |`);
  console.log("|---|---:|---:|---:|");
  try {
    for (const [k, name] of names.entries()) {
      if (bare!.sizes[k] !== ctl!.sizes[k]) throw new Error(`${name}: the answers differ (${bare!.sizes[k]} and ${ctl!.sizes[k]} bytes)`);
      const cpu: [number[], number[]] = [[], []];
      // one unmeasured round each (the JIT settles), then A B, B A, … so that a drift in the machine's load falls on both
      await bare!.ask(k);
      await ctl!.ask(k);
      for (let r = 0; r < ROUNDS; r++) {
        for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) cpu[i]!.push(await [bare!, ctl!][i]!.ask(k));
      }
      const [b, c] = [median(cpu[0]), median(cpu[1])];
      console.log(`| ${name} | ${b.toFixed(1)} | ${c.toFixed(1)} | ${(b / c).toFixed(2)} |`);
    }
  } finally {
    bare!.child.kill();
    ctl!.child.kill();
  }
}

if (require.main === module) {
  const role = process.argv[2] as Role | undefined;
  void (role ? side(role) : main()).then(() => process.exit(0));
}
