/**
 * Memory of the plugin while `pulumi do boundary:index:Target list --all` lists 100,000 Targets
 * through `List` on the newest release (Boundary's paginated lists, `PAGED`): the plugin process's resident
 * memory before, at its peak (the kernel's high-water mark, VmHWM) and after. Baseline, in the same
 * run: a fresh plugin process making one List call against the newest release without pagination
 * (`WHOLE`) holding the same 100,000 (it answers the whole list, which the call must read at once). The List
 * runs with its heap capped below what the whole list takes, and its RSS is also read a tenth of the
 * way in (10 pages). Goal: from there to the end RSS grows ≤ 1.2× (a plateau: a page at a time), and
 * List's growth is a small fraction of the baseline's. Each controller runs in its own process (dist/harness/loaded-controller.js), so
 * its store counts in neither figure.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import { engine } from "../harness/engine";
import { startPlugin, type Host } from "../harness/provider-host";
import { progress } from "./progress";
import { printTable } from "./table";
import { NEWEST, newestReleaseWhere, type Release } from "../wire/releases";

/** The release whose lists are paged: the newest. */
export const PAGED: Release = NEWEST;
/** The baseline's release: the newest that answers a list whole (no pagination). */
export const WHOLE: Release = newestReleaseWhere((r) => !r.pagination)!;

const TARGETS = 100_000;
/** The token the loaded controllers take. */
export const TOKEN = "at_1234567890_s1benchListToken";
/** What List is asked: every Target below global. */
export const QUERY = { scopeId: "global", recursive: true };
/** The List case's heap ceiling: the whole list's answer alone is about 80 MiB of JSON, parsed into several times that. */
const HEAP_CAP = "--max-old-space-size=128";

/** A figure of /proc/<pid>/status, in bytes (VmRSS: resident now; VmHWM: the peak so far). */
function procMemory(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`no ${field} for process ${pid}`);
  return Number(m[1]) * 1024;
}

/** The controller with TARGETS Targets over two projects, in a process of its own; resolves with its API URL and stop. */
async function startController(root: string, emulation: Release): Promise<{ apiUrl: string; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ["--expose-gc", path.join(root, "dist", "harness", "loaded-controller.js"), emulation.release, String(TARGETS), TOKEN],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const exited = new Promise((r) => child.once("exit", r));
  const first = await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error("the controller process exited");
  return { apiUrl: JSON.parse(first.value).apiUrl, stop: async () => void (child.kill(), await exited) };
}

/** One List call (as `pulumi do … list --all` sends it: limit 0, no page size): how many results, and the next token. */
export async function listPage(host: Host, token: string, limit = 0, filter?: string): Promise<{ results: number; next: string }> {
  const r = new host.proto.ListRequest();
  r.setToken("boundary:index:Target");
  r.setQuery(host.toStruct(filter === undefined ? QUERY : { ...QUERY, filter }));
  r.setLimit(limit);
  r.setContinuationToken(token);
  let results = 0;
  let next = "";
  for (const m of await host.stream<pb.ListResponse>("list", r)) {
    if (m.hasResult()) results++;
    if (m.hasContinuation()) next = m.getContinuation()!.getContinuationToken();
  }
  return { results, next };
}

/** A plugin from this checkout, configured as `pulumi do` does (nulls; address and token from the environment), warmed up. */
export async function plugin(root: string, apiUrl: string, nodeOptions = ""): Promise<Host> {
  const host = await startPlugin(root, { pluginDir: root, env: { BOUNDARY_ADDR: apiUrl, BOUNDARY_TOKEN: TOKEN, NODE_OPTIONS: nodeOptions } });
  await engine(host, "urn:pulumi:dev::default::boundary:index:Target::Target").configure(
    { addr: null, token: null, apiGeneration: null },
    { "boundary:config:addr": "null", "boundary:config:token": "null", "boundary:config:apiGeneration": "null" },
  );
  // loads the client and the schemas; a filter nobody matches keeps a release without pages from answering the whole list
  await listPage(host, "", 10, '"/item/name" == "no such target"');
  return host;
}

const mib = (b: number) => (b / 1024 / 1024).toFixed(0);

/** One case: the controller's release, and what the plugin is asked (returning how many Targets it read). */
interface Case {
  name: string;
  emulation: Release;
  /** The plugin process's NODE_OPTIONS. */
  nodeOptions?: string;
  /** Lists; `mark` is called once a tenth of the way (RSS is read then). */
  run: (host: Host, mark: () => void) => Promise<number>;
}

const CASES: Case[] = [
  {
    // a heap capped below what the whole list takes: V8 otherwise lets garbage pile up, and RSS would say little of what is held
    name: `List --all on ${PAGED.release}: 100 pages of 1,000, heap capped at 128 MiB`,
    emulation: PAGED,
    nodeOptions: HEAP_CAP,
    run: async (host, mark) => {
      let listed = 0;
      for (let token = "", pages = 0; pages === 0 || token; pages++) {
        if (pages === 10) mark();
        const page = await listPage(host, token);
        listed += page.results;
        token = page.next;
      }
      return listed;
    },
  },
  {
    // a release without pagination answers the whole list: the call holds all of it, returning a page
    name: `baseline: one List call on ${WHOLE.release} (whole answer)`,
    emulation: WHOLE,
    run: async (host) => ((await listPage(host, "")).results === 1000 ? TARGETS : 0),
  },
];

/** Rows: each case's seconds, RSS before, peak and after (MiB), peak / before; and the growth of List against the baseline's. */
export async function benchPluginList(root: string): Promise<string[][]> {
  const rows: string[][] = [];
  const growth: number[] = [];
  for (const c of CASES) {
    progress(`plugin List: seeding ${TARGETS.toLocaleString("en")} targets on --emulate ${c.emulation.release}`);
    const controller = await startController(root, c.emulation);
    try {
      progress(`plugin List: ${c.name}`);
      const host = await plugin(root, controller.apiUrl, c.nodeOptions);
      try {
        const before = procMemory(host.pid, "VmRSS");
        let tenth: number | undefined;
        const started = performance.now();
        const listed = await c.run(host, () => (tenth = procMemory(host.pid, "VmRSS")));
        const seconds = (performance.now() - started) / 1000;
        if (listed !== TARGETS) throw new Error(`${c.name}: ${listed} targets, not ${TARGETS}`);
        const [peak, after] = [procMemory(host.pid, "VmHWM"), procMemory(host.pid, "VmRSS")];
        growth.push(peak - before);
        const plateau = tenth === undefined ? "" : (peak / tenth).toFixed(2);
        rows.push([c.name, seconds.toFixed(1), mib(before), tenth === undefined ? "" : mib(tenth), mib(peak), mib(after), (peak / before).toFixed(2), plateau]);
        progress(`plugin List: ${rows[rows.length - 1]!.join(" | ")}`);
      } finally {
        await host.stop();
      }
    } finally {
      await controller.stop();
    }
  }
  rows.push(["List's growth / the baseline's", "", "", "", "", "", (growth[0]! / growth[1]!).toFixed(2), ""]);
  return rows;
}

/** The table's header. */
export const PLUGIN_LIST_HEADER = ["case", "s", "RSS before, MiB", "a tenth in", "peak", "after", "peak / before", "peak / a tenth in"];

// `node dist/bench/list.js`: this benchmark alone
if (require.main === module) {
  void benchPluginList(path.join(__dirname, "..", ".."))
    .then((rows) => printTable(PLUGIN_LIST_HEADER, rows))
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    });
}
