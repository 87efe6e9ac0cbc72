/**
 * CPU per request of the controller against a bare `node:http` handler sending the same bytes, in
 * one process and without sockets: Node's http server is fed requests through Duplex streams
 * injected as connections (8 at a time, each carrying a run of pipelined requests), the two
 * servers alternated ROUNDS times, medians of µs of this process's CPU per request. It leaves out
 * the kernel's part (about the same for both servers), so its ratios sit below the bin's over
 * sockets, but other jobs' load moves it much less: it judges a change to the request path.
 * `node dist/bench/in-process.js` (about 20 s; BENCH_INPROC_ROUNDS, default 9).
 */
import http, { createServer, type Server } from "node:http";
import { Duplex } from "node:stream";
import { loadDevConfig } from "../controller/config/dev-config";
import { startController } from "../controller/server";
import { silentLogger } from "../controller/log";

const ROUNDS = Number(process.env.BENCH_INPROC_ROUNDS ?? 9);
const CONNECTIONS = 8;
const TOKEN = "at_1234567890_inprocessbench";
const PROJECT = "p_1234567890";

/** A connection made of a Duplex: what the server writes is counted; `done` once, when `expected` bytes came. */
function connection(expected: number, done: (bytes: number) => void): Duplex & { written: () => number } {
  let got = 0;
  const count = (n: number) => {
    const before = got;
    got += n;
    if (before < expected && got >= expected) done(got);
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

/** Sends `perConnection` pipelined copies of `request` on each of CONNECTIONS connections; resolves when every answer came. */
function drive(server: Server, request: string, perConnection: number, answerBytes: number): Promise<void> {
  return new Promise((resolve) => {
    let left = CONNECTIONS;
    for (let i = 0; i < CONNECTIONS; i++) {
      const d = connection(answerBytes * perConnection, () => --left === 0 && setImmediate(resolve));
      server.emit("connection", d);
      d.push(Buffer.from(request.repeat(perConnection)));
    }
  });
}

/** The bytes of one answer to `request` (both servers must send the same): what came within 200 ms. */
async function answerSize(server: Server, request: string): Promise<number> {
  const d = connection(Infinity, () => {});
  server.emit("connection", d);
  d.push(Buffer.from(request));
  await new Promise((r) => setTimeout(r, 200));
  return d.written();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
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
  const ask = (p: string) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`;
  const cases = [
    { name: "GET one target", request: ask(`/v1/targets/${first}`), perConnection: 2000 },
    { name: "list of 1,001", request: ask(`/v1/targets?scope_id=${PROJECT}`), perConnection: 200 },
  ];
  console.log(`| case, µs of CPU per request (${ROUNDS} rounds, medians) | bare | controller | bare / controller |`);
  console.log("|---|---:|---:|---:|");
  for (const k of cases) {
    const sizes = [await answerSize(bare, k.request), await answerSize(api, k.request)];
    if (sizes[0] !== sizes[1]) throw new Error(`${k.name}: the answers differ (${sizes[0]} and ${sizes[1]} bytes)`);
    const cpu: [number[], number[]] = [[], []];
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, server] of [bare, api].entries()) {
        const before = process.cpuUsage();
        await drive(server, k.request, k.perConnection, sizes[0]!);
        const used = process.cpuUsage(before);
        cpu[i]!.push((used.user + used.system) / (k.perConnection * CONNECTIONS));
      }
    }
    const [b, ctl] = [median(cpu[0]), median(cpu[1])];
    console.log(`| ${k.name} | ${b.toFixed(1)} | ${ctl.toFixed(1)} | ${(b / ctl).toFixed(2)} |`);
  }
  await c.shutdown();
}

if (require.main === module) void main().then(() => process.exit(0));
