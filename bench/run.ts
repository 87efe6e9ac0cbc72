/** `npm run bench`: every benchmark, each compared with a baseline measured in the same run. */
import { CONTROLLER_HEADER, QUICK as CONTROLLER_QUICK, benchController, benchHealthDuringList, storeMemory } from "./controller";
import { EMULATED, benchEmulation } from "./emulation";
import { GENERATION_CALLS_HEADER, MEASURED_WORDS, PACED, benchGenerationCalls, benchPacing } from "./generations";
import * as path from "node:path";
import { HOST_HEADER, benchHost } from "./host";
import { ESTATE_HEADER, benchEstate, estatePlan } from "./estate";
import { benchProfile } from "./profile";
import { benchListAndSessions, benchRegex } from "./hostile";
import { PAGED, PLUGIN_LIST_HEADER, WHOLE, benchPluginList } from "./list";
import { SCALE_SIZES, benchListMemory, benchScale } from "./scale";
import { SCOPE_LIST_HEADER, benchScopeList } from "./scope-list";
import { benchCalls, benchLatency, providerBytes } from "./provider";
import { benchStateCost } from "./state-cost";
import { progress } from "./progress";
import { NEWEST } from "../wire/releases";
import { medianOfRuns, printTable } from "./table";

/** `--quick`: the headline ratios only (the bin's throughput against bare node:http, shorter rounds; filters), in under a minute. */
const QUICK = process.argv.includes("--quick");
/** How many times each table's bench runs: its figures are medians (min–max) of the runs (BENCH_REPS, at least 3 by default). */
const REPS = Number(process.env.BENCH_REPS ?? 3);
/** A bench run REPS times, its tables merged (`medianOfRuns`). */
const reps = (bench: () => Promise<string[][]> | string[][]) => medianOfRuns(REPS, bench);

/** `--estate`: the 10,000-Target estate alone (several minutes per run: Boundary's default quotas set its pace). */
const ESTATE = process.argv.includes("--estate");

/** The estate's table, with what it measures. */
async function estate(): Promise<void> {
  const plan = estatePlan();
  const q = plan.quota;
  const size = plan.n.toLocaleString("en");
  progress(`an estate of ${size} targets through Pulumi's host against --emulate ${NEWEST.release}'s rate limits (minutes per run)`);
  const rows = await benchEstate(path.join(__dirname, "..", ".."), plan);
  console.log(`\nAn estate of ${size} Targets through Pulumi's real host on each route (installed from the packed tarball), ${plan.concurrency} operations`);
  console.log(`at a time (Pulumi's default --parallel here: 4 × the CPUs), against the bin's --emulate ${NEWEST.release} with`);
  console.log(
    q.isDefault
      ? `Boundary's default rate limits (${q.limit.toLocaleString("en")} calls per ${q.periodSeconds} s per action per token);`
      : `a quota scaled to the run (${q.limit} calls per ${q.periodSeconds} s per action per token, as 3,000 per 30 s is to 10,000 Targets);`,
  );
  console.log("a quarter of the Targets with a host set and a credential library. Median (min–max) of the runs; the quota floor is the");
  console.log("least time the limiter allows for the calls made (goal wall / floor ≤ 1.1); calls from the controller's /metrics against");
  console.log("the minimum (goal equal); the provider process's peak RSS (goal ≤ 512 MiB); CPU seconds of each process in the phase");
  console.log("(the driver stands in for Pulumi's engine)\n");
  printTable(ESTATE_HEADER, rows);
}

/** `--profile`: CPU profiles of the provider process through Pulumi's host, this package's beside the floor keeping the Target's. */
async function profile(): Promise<void> {
  progress("CPU profiles of the provider through Pulumi's dynamic-provider host (the floor keeping the Target, then this package)");
  const p = await benchProfile(path.join(__dirname, "..", ".."));
  console.log("\nThe provider through Pulumi's dynamic-provider host, profiled (ms per phase, 16 at a time)\n");
  printTable(["phase", "floor keeping the Target", "this package"], p.phases);
  console.log("\nEach host process's CPU by package (self time, ms per Target, and share of the busy time; idle, waiting on the network, left out)\n");
  printTable(["package", "floor keeping the Target", "share", "this package", "share"], p.byPackage);
  console.log("\nThis package's own functions by self time (ms, and share of the busy time)\n");
  printTable(["function", "ms", "share"], p.own);
  console.log(`\nprofiles (open in Chrome's DevTools): ${p.file} (this package), ${p.floorFile} (the floor)`);
}

/** "The provider as users run it" (`--host` prints this table alone: about BENCH_TARGETS / 100 minutes); returns `__provider`'s bytes. */
async function providerAsUsersRunIt(): Promise<number> {
  progress("the provider through Pulumi's host and as a plugin (the longest part: several minutes)");
  const host = await benchHost(path.join(__dirname, "..", ".."));
  const n = Number(process.env.BENCH_TARGETS ?? 1000).toLocaleString("en");
  console.log("\nProvider through Pulumi's real dynamic-provider host and as a plugin, installed from the packed tarball,");
  console.log(`${n} Targets, 16 at a time, controller in its own process (ms per phase, median of the runs taken in turn; each ratio`);
  console.log("the median of the runs' own ratios, both sides measured in the same run, with their smallest and largest;");
  console.log("ratio to a minimal provider making the same HTTP calls through the same host, goal ≤ 1.6× over the lifecycle;");
  console.log("last two columns: the same floor keeping the API's Target in its outputs, and the dynamic route's ratio to it, goal ≤ 1.15×)\n");
  printTable(HOST_HEADER, host.rows);
  console.log("\nThe same runs in the provider process's CPU time (ms, user and system, every thread, from /proc/<pid>/stat):");
  console.log("the same comparison in a unit the machine's other load moves less\n");
  printTable(HOST_HEADER, host.cpuRows);
  console.log(
    `\n__provider from the installed package: ${host.providerBytes} bytes; state per Target (inputs and outputs): ${host.stateBytes} bytes ` +
      `(floor ${host.floorStateBytes}, floor keeping the Target ${host.keptStateBytes})`,
  );
  return host.providerBytes;
}

async function main() {
  if (ESTATE) return estate();
  if (process.argv.includes("--host")) return void (await providerAsUsersRunIt());
  if (!process.argv.includes("--profile"))
    console.log(
      `Each timed table: the median (min–max) of ${QUICK ? 3 : REPS} runs (BENCH_REPS; the controller's throughput: of its pairs of rounds), ` +
        "each ratio the runs' own, both sides from one run; " +
        "the tables of call counts are one run (a count is the same in every run).\n",
    );
  if (process.argv.includes("--profile")) return profile();
  progress("controller throughput against an independent bare server");
  console.log("Controller throughput, the controller started by its bin as users start it (`pulumi-boundary dev`, default flags) against");
  console.log("a bare node:http server in a process of its own sending the same bytes and answering a GET at once, both loaded by the");
  const q = CONTROLLER_QUICK;
  const pairs = QUICK ? `${q.rounds} pairs of rounds of ${q.seconds} s (--quick; create ${q.createRounds})` : "BENCH_ROUNDS pairs of rounds";
  console.log(`same client (bench/load.ts, 32 keep-alive connections); each case: both warmed, then ${pairs}`);
  console.log("interleaved (bare then controller, controller then bare, …): medians, each ratio the median (min–max) of the pairs' own;");
  console.log("goals: GET ≥ 85%, list ≥ 90% (create: none); then each server's CPU per request, µs, and bare's over the controller's:");
  console.log("the same comparison in a unit the machine's other load moves less; the client's own CPU per request, on the same two cores)\n");
  printTable(CONTROLLER_HEADER, await benchController(QUICK));
  if (QUICK) {
    progress("filters");
    console.log("\nFilters: `matches` per target, RE2 (linear time, used now) against JavaScript's RegExp (backtracking, used before)\n");
    printTable(["case, ns per target", "RegExp", "RE2", "ratio"], await medianOfRuns(3, benchRegex));
    progress("done (--quick: the rest of the bench is left out)");
    return;
  }
  progress("/health while a list of 100,000 targets is written");
  console.log("\n/health while a recursive list of 100,000 targets is written (the controller in its own process; /health asked every 10 ms,");
  console.log("3 lists each; 'held the loop' is the controller thread's longest CPU stretch between two turns of its loop; goal < 100 ms)\n");
  printTable(["list", "slowest list, ms", "/health asked", "slowest /health, ms", "held the loop, ms"], await reps(benchHealthDuringList));
  progress("the controller as it fills up (1,000 to 100,000 targets)");
  console.log("\nController as it fills up: each size on a fresh controller, sequential requests over HTTP (goal 100k / 1k ≤ 1.5)\n");
  printTable(["operation, ms each", ...SCALE_SIZES.map((s) => `${s.toLocaleString("en")} targets`), "100k / 1k"], await reps(benchScale));
  progress("memory of lists of 100,000 targets");
  console.log("\nLists of 100,000 Targets over HTTP: memory while they run and once they end (goal: after / before ≤ 1.2)\n");
  printTable(["case", "s", "RSS before, MiB", "peak", "after", "after / before"], await reps(benchListMemory));
  console.log(
    `\nThe plugin listing 100,000 Targets through List on --emulate ${PAGED.release}, against one call reading them at once on ${WHOLE.release} ` +
      "(goal: peak / a tenth in ≤ 1.2)\n",
  );
  printTable(PLUGIN_LIST_HEADER, await reps(() => benchPluginList(path.join(__dirname, "..", ".."))));
  progress("List and import --scope of 100,000 targets against the default rate limits");
  console.log(`\nList (the plugin over gRPC, one call per page as \`pulumi do … list --all\` asks) and \`pulumi-boundary import --scope global`);
  console.log(`--recursive\` of 100,000 Targets, against --emulate ${PAGED.release} with Boundary's default rate limits (150 lists per 30 s per token), each`);
  console.log("the median (min–max) of 3 runs: wall against the quota floor, calls (the controller's /metrics) against the minimum,");
  console.log("the process's RSS sampled every 50 ms (goal for List: flat after the first pages, peak / a tenth in ≤ 1.2)\n");
  printTable(SCOPE_LIST_HEADER, await benchScopeList(path.join(__dirname, "..", "..")));
  const bytes = storeMemory();
  console.log(`\nheap for 100,000 targets: ${(bytes / 1024 / 1024).toFixed(1)} MiB (${(bytes / 100_000).toFixed(0)} bytes each)`);

  progress("provider API calls per operation");
  console.log("\nProvider API calls per operation (from the controller's /metrics)\n");
  printTable(["operation", "minimum", "measured"], await benchCalls());
  console.log(`\nProvider API calls per operation on each generation (${MEASURED_WORDS})\n`);
  printTable(GENERATION_CALLS_HEADER, await benchGenerationCalls());
  progress(`pacing against --emulate ${PACED.release}'s rate limiter`);
  console.log(`\nPacing against --emulate ${PACED.release}'s rate limiter (seconds; ratio = measured / the quota's own limit)\n`);
  let note = "";
  const pacing = await reps(async () => {
    const p = await benchPacing();
    note = p.note;
    return p.rows;
  });
  printTable(["case", "quota limit", "measured", "ratio", "429s"], pacing);
  console.log(`\n${note}`);

  const host = await providerAsUsersRunIt();

  progress("one Target's state through the Struct conversions");
  console.log("\nOne Target's state in the conversions Pulumi makes of it on every call, in process with the SDK's google-protobuf (µs each)\n");
  printTable(["case, µs", "minimal floor's state", "this package's state", "ratio"], await reps(() => benchStateCost(host)));

  progress("provider latency against the raw client");
  console.log("\nProvider latency against the raw client making the same calls, in process (ms, mean of 300)\n");
  printTable(["operation", "raw client", "provider", "ratio"], await reps(benchLatency));

  progress("filters");
  console.log("\nFilters: `matches` per target, RE2 (linear time, used now) against JavaScript's RegExp (backtracking, used before)\n");
  printTable(["case, ns per target", "RegExp", "RE2", "ratio"], await reps(benchRegex));

  progress("list with a filter, authorize-session with many sessions");
  console.log("\nList with a filter, and authorize-session as live sessions pile up (sequential requests over HTTP)\n");
  printTable(["case", "baseline", "measured", "ratio"], await reps(benchListAndSessions));

  progress("emulating current Boundary");
  console.log(`\nEmulating current Boundary (--emulate ${EMULATED.release}) against the spec's behaviour, sequential requests over HTTP\n`);
  printTable(["case", "baseline", "measured", "ratio"], await reps(benchEmulation));

  await estate();

  console.log(`\n__provider serialized from this checkout (the SDK copies the proxy by value): ${await providerBytes()} bytes`);
  console.log("(an installed package serializes its entry module by reference: 263 bytes, asserted ≤ 1 KB in test/provider/host.test.ts)");
  progress("done");
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
