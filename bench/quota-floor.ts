/**
 * What Boundary's rate limiter allows, for the benches that run against it: the quota a bench sets
 * (Boundary's defaults, or a smaller one of the same shape for a smaller run), the config file
 * that sets it, the calls a controller counted (its /metrics), and the least time the limiter
 * allows for them (the quota floor).
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { NEWEST, type Release } from "../wire/releases";

/** The release emulated: the table's newest (Boundary's default rate limits are its). */
export const EMULATED: Release = NEWEST;

/** One quota per action: `limit` calls per `periodSeconds` for each token (the tightest of Boundary's three). */
export interface BenchQuota {
  limit: number;
  periodSeconds: number;
  /** True when it is Boundary's default (no config file); false when a smaller run scaled it. */
  isDefault: boolean;
  /** The limiter switched off (`api_rate_limit_disable`): what the same calls take unpaced, to tell the pacer's waits from the rest. */
  off?: boolean;
}

/** Boundary's default quota of every action but list: the tightest of its per-token, per-address and total limits. */
export function defaultQuota(kind: "list" | "other" = "other"): BenchQuota {
  const d = EMULATED.rateLimiter!;
  return { limit: Math.min(d[kind].authToken, d[kind].ipAddress, d[kind].total), periodSeconds: d.periodSeconds, isDefault: true };
}

/**
 * The quota for a run of `n` where the full run is `full`: Boundary's default at full size; smaller,
 * the limit and the period both scaled by n / full, so the run has as many windows and needs the
 * same calls per second as the full one (a tenth of the estate at 300 per 3 s stands for the whole
 * at 3,000 per 30 s). The period is whole seconds, as the header's reset is.
 */
export function scaledQuota(n: number, full: number, kind: "list" | "other" = "other"): BenchQuota {
  const d = defaultQuota(kind);
  if (n >= full) return d;
  const periodSeconds = Math.max(1, Math.round((d.periodSeconds * n) / full));
  return { limit: Math.max(1, Math.round((d.limit * periodSeconds) / d.periodSeconds)), periodSeconds, isDefault: false };
}

/** The `--config` file setting `quota` on every action (none for the default), written into `dir`; the bin's flags for it. */
export function quotaFlags(dir: string, quota: BenchQuota): string[] {
  const flags = ["--emulate", EMULATED.release];
  if (quota.isDefault && !quota.off) return flags;
  const file = path.join(dir, quota.off ? "quota-off.hcl" : `quota-${quota.limit}-per-${quota.periodSeconds}s.hcl`);
  writeFileSync(
    file,
    quota.off
      ? "controller {\n  api_rate_limit_disable = true\n}\n"
      : `controller {\n  api_rate_limit {\n    resources = ["*"]\n    actions = ["*"]\n    per = "auth-token"\n` +
          `    limit = ${quota.limit}\n    period = "${quota.periodSeconds}s"\n  }\n}\n`,
  );
  return [...flags, "--config", file];
}

/** Requests the controller counted, by `METHOD route code`, from its /metrics. */
export async function counted(opsUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^boundary_http_requests_total\{(.*)\} (\d+)$/gm)) {
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    const key = `${labels.method} ${labels.route} ${labels.code}`;
    out.set(key, (out.get(key) ?? 0) + Number(m[2]));
  }
  return out;
}

/** The calls of one phase: the counts after minus before. */
export function delta(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([k, n]) => [k, n - (before.get(k) ?? 0)] as [string, number]).filter(([, n]) => n > 0));
}

/** All of `calls`, and those answered 429. */
export function totals(calls: Map<string, number>): { total: number; refused: number } {
  let total = 0;
  let refused = 0;
  for (const [k, n] of calls) {
    total += n;
    if (k.endsWith(" 429")) refused += n;
  }
  return { total, refused };
}

/**
 * The least time the limiter allows for `calls` (by `METHOD route code`): each action has its own
 * quota (`quotaOf`: list or other), the first window opening at its first call; the actions run
 * side by side, so the slowest one sets the floor.
 */
export function quotaFloorMs(calls: Map<string, number>, quotaOf: (kind: "list" | "other") => BenchQuota): number {
  let floor = 0;
  const byAction = new Map<string, number>();
  for (const [key, n] of calls) {
    const action = key.slice(0, key.lastIndexOf(" "));
    byAction.set(action, (byAction.get(action) ?? 0) + n);
  }
  for (const [key, n] of byAction) {
    const q = quotaOf(/^GET \S*targets$/.test(key) ? "list" : "other");
    floor = Math.max(floor, Math.floor((n - 1) / q.limit) * q.periodSeconds * 1000);
  }
  return floor;
}

/** A process's CPU seconds so far (user and system, from /proc/<pid>/stat; clock ticks of 1/100 s, Linux's USER_HZ). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // the command name may hold spaces: fields count from after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A figure of /proc/<pid>/status in MiB (VmRSS: resident now; VmHWM: the peak so far). */
export function memoryMiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`no ${field} for process ${pid}`);
  return Number(m[1]) / 1024;
}
