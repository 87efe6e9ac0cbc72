/** Reads the controller's /metrics: how many calls a client made, per method and route template. */
/** Requests the controller answered, by `"METHOD route"` (the route template, e.g. `/v1/targets/{id}`). */
export type CallCounts = Record<string, number>;

/** The controller's request counters now, summed over status codes, from /metrics at `opsUrl`. */
export async function callCounts(opsUrl: string): Promise<CallCounts> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  const counts: CallCounts = {};
  for (const m of text.matchAll(/^boundary_http_requests_total\{method="(\w+)",route="([^"]+)",code="(\d+)"\} (\d+)/gm)) {
    const key = `${m[1]} ${m[2]}`;
    counts[key] = (counts[key] ?? 0) + Number(m[4]);
  }
  return counts;
}

/** Calls made between two snapshots, without zero entries. */
export function callsBetween(before: CallCounts, after: CallCounts): CallCounts {
  const out: CallCounts = {};
  for (const [k, v] of Object.entries(after)) {
    const d = v - (before[k] ?? 0);
    if (d > 0) out[k] = d;
  }
  return out;
}

/** Runs `fn` and returns the API calls it made, as `{"POST /v1/targets": 1, …}`. */
export async function countCalls<T>(opsUrl: string, fn: () => Promise<T>): Promise<{ result: T; calls: CallCounts }> {
  const before = await callCounts(opsUrl);
  const result = await fn();
  return { result, calls: callsBetween(before, await callCounts(opsUrl)) };
}
