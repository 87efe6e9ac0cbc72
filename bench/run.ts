/** `npm run bench`: every benchmark, each compared with a baseline measured in the same run. */
import { benchController, storeMemory } from "./controller";
import { printTable } from "./table";

async function main() {
  console.log("Controller throughput (autocannon, 16 connections; ratio = controller / bare node:http)\n");
  printTable(["case, requests/s", "bare node:http", "controller", "ratio"], await benchController());
  const bytes = storeMemory();
  console.log(`\nheap for 100,000 targets: ${(bytes / 1024 / 1024).toFixed(1)} MiB (${(bytes / 100_000).toFixed(0)} bytes each)`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
