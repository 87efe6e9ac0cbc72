/**
 * The benchmark's subject: the controller started by its bin as users start it
 * (`pulumi-boundary dev`, default flags: log level info, text log to a pipe that is read), with
 * N Targets created over its API. Also what the bare server must send for the same paths, and
 * each process's CPU time (Linux's /proc), the unit the machine's other load moves less.
 */
import { TOKEN } from "./start";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const PROJECT = "p_1234567890";

/** The bin's controller, with the bytes it answers for the benchmark's paths (base64). */
export interface BinSubject {
  child: ChildProcess;
  apiUrl: string;
  token: string;
  first: string;
  listBytes: number;
  listItems: number;
  bodies: { one: string; list: string; created: string };
}

/** Starts `dist/cli/main.js dev` on free ports, its stdout read as a terminal would, and creates `count` Targets. */
export async function startBin(count: number): Promise<BinSubject> {
  const cli = path.join(__dirname, "..", "cli", "main.js");
  const child = spawn(process.execPath, [cli, "dev", "--api-addr", "127.0.0.1:0", "--ops-addr", "127.0.0.1:0", "--token", TOKEN], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const apiUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d;
      const m = /API address: (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`pulumi-boundary dev exited (${code}):\n${out}`)));
  });
  child.stdout!.removeAllListeners("data");
  child.stdout!.resume(); // read and dropped, as a terminal shows it
  const headers = { authorization: `Bearer ${TOKEN}` };
  const send = async (p: string, init: RequestInit = {}) => {
    const res = await fetch(apiUrl + p, { headers, ...init });
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${p}: ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  };
  const create = (name: string) =>
    send("/v1/targets", {
      method: "POST",
      body: JSON.stringify({ scope_id: PROJECT, name, type: "tcp", host_set_ids: ["hsst_1234567890"], attributes: { default_port: 22 } }),
    });
  let first = "";
  for (let i = 0; i < count; i += 50) {
    const made = await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => create(`t-${i + j}`)));
    first ||= (JSON.parse(made[0]!.toString()) as { id: string }).id;
  }
  // the sample create last, so the list both servers send is the list the controller holds
  const created = await send("/v1/targets", { method: "POST", body: JSON.stringify({ scope_id: PROJECT, name: "sample", type: "tcp" }) });
  const one = await send(`/v1/targets/${first}`);
  const list = await send(`/v1/targets?scope_id=${PROJECT}`);
  const b64 = (b: Buffer) => b.toString("base64");
  return {
    child,
    apiUrl,
    token: TOKEN,
    first,
    listBytes: list.length,
    listItems: (JSON.parse(list.toString()) as { items: unknown[] }).items.length,
    bodies: { one: b64(one), list: b64(list), created: b64(created) },
  };
}

/** A process's CPU time so far (user + system), µs, from /proc/PID/stat (clock ticks of 10 ms). */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // after the name: state is field 3; utime and stime are fields 14 and 15
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
