/**
 * The bench's figures: how several runs of a table merge into medians with their range, the quota
 * a smaller estate run is given, the quota floor, and the engine's default parallelism.
 */
import { mergeCells, medianOfRuns } from "../../bench/table";
import { defaultQuota, quotaFloorMs, scaledQuota } from "../../bench/quota-floor";
import { pulumiDefaultParallel } from "../../bench/estate";
import { availableParallelism } from "node:os";

describe("medianOfRuns", () => {
  it("prints each number that moves as the median (min–max) of the runs, with the bench's decimals", async () => {
    const tables = [[["GET", "1.20", "1,200", "81%", "a"]], [["GET", "1.05", "1,500", "90%", "a"]], [["GET", "1.31", "1,100", "85%", "b"]]];
    let r = 0;
    const merged = await medianOfRuns(3, () => tables[r++]!);
    expect(r).toBe(3);
    expect(merged).toEqual([["GET", "1.20 (1.05–1.31)", "1,200 (1,100–1,500)", "85% (81%–90%)", "a / a / b"]]);
  });

  it("keeps a cell the same in every run as it is, and never mixes units", () => {
    expect(mergeCells(["300", "300", "300"])).toBe("300");
    expect(mergeCells(["2", "10", "3"])).toBe("3 (2–10)");
    expect(mergeCells(["1.5×", "2", "1.7×"])).toBe("1.5× / 2 / 1.7×");
  });
});

describe("the estate's quota", () => {
  it("is Boundary's default at 10,000 Targets, and scales limit and period together below", () => {
    expect(scaledQuota(10_000, 10_000)).toEqual({ limit: 3000, periodSeconds: 30, isDefault: true });
    expect(scaledQuota(1000, 10_000)).toEqual({ limit: 300, periodSeconds: 3, isDefault: false });
    expect(scaledQuota(2000, 10_000)).toEqual({ limit: 600, periodSeconds: 6, isDefault: false });
    // lists have their own, tighter default
    expect(defaultQuota("list")).toEqual({ limit: 150, periodSeconds: 30, isDefault: true });
  });

  it("floor: the slowest action's whole windows, each action counted apart, a 429 counted as a call", () => {
    const q = (kind: "list" | "other") => defaultQuota(kind);
    const calls = new Map([
      ["POST /v1/targets 200", 10_000],
      ["POST /v1/targets/{id}:set-host-sources 200", 2500],
    ]);
    expect(quotaFloorMs(calls, q)).toBe(90_000);
    expect(quotaFloorMs(new Map([["POST /v1/targets 200", 3000]]), q)).toBe(0);
    expect(
      quotaFloorMs(
        new Map([
          ["POST /v1/targets 200", 2999],
          ["POST /v1/targets 429", 2],
        ]),
        q,
      ),
    ).toBe(30_000);
    expect(quotaFloorMs(new Map([["GET /v1/targets 200", 151]]), q)).toBe(30_000);
  });
});

describe("the engine's parallelism", () => {
  it("is Pulumi's default, 4 × the CPUs, unless PULUMI_PARALLEL sets it", () => {
    expect(pulumiDefaultParallel({})).toBe(4 * availableParallelism());
    expect(pulumiDefaultParallel({ PULUMI_PARALLEL: "3" })).toBe(3);
    expect(pulumiDefaultParallel({ PULUMI_PARALLEL: "zero" })).toBe(4 * availableParallelism());
  });
});
