/**
 * Pacing as real clusters answer: concurrent answers arriving out of order, two controllers
 * behind a round-robin balancer each keeping its own count, and requests queued behind others
 * that finish at once. A proxy in front of the real controller keeps Boundary's fixed-window
 * quotas (test/helpers/quota-proxy.ts); a run that stays inside the quotas must see no 429.
 */
import { BoundaryClient, DeadlineError, Operation } from "../../provider/client";
import { ADMIN_TOKEN, PROJECT } from "../helpers/controller";
import { useClient } from "../helpers/provider";
import { startQuotaProxy, type QuotaProxyOptions } from "../helpers/quota-proxy";

const { c, client: direct } = useClient();

/** Holds the nth answer 0–50 ms, in an order unlike the requests' own, so later answers often arrive first. */
const shuffled = (n: number) => ((n * 37) % 11) * 5;

/** Runs `count` jobs with `workers` at a time, as the engine's parallelism does; resolves to the time taken in ms. */
async function inParallel(count: number, workers: number, job: (i: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = next++; i < count; i = next++) await job(i);
    }),
  );
  return performance.now() - started;
}

/** `count` creates through a proxy keeping `limit` per `windowMs` with `options`; what the proxy refused and the time taken. */
async function creates(name: string, count: number, limit: number, windowMs: number, options: QuotaProxyOptions) {
  const proxy = await startQuotaProxy(c.apiUrl, limit, windowMs, options);
  const paced = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN }, {});
  const before = c.store.size;
  try {
    const ms = await inParallel(count, 16, async (i) => {
      await paced.createTarget({ scope_id: PROJECT, name: `${name}-${i}`, type: "tcp" });
    });
    return { refused: proxy.refused(), created: c.store.size - before, ms };
  } finally {
    await paced.close();
    await proxy.close();
  }
}

test("40 creates, 16 at a time, answers out of order, quota 20 per 2 s: the lowest count holds, no 429", async () => {
  const run = await creates("reordered", 40, 20, 2000, { holdMs: shuffled });
  expect(run.created).toBe(40);
  expect(run.refused).toBe(0);
  // two windows' worth: one reset waited for (a loaded machine adds to it; each 429 would wait out a Retry-After)
  expect(run.ms).toBeGreaterThanOrEqual(2000);
  expect(run.ms).toBeLessThan(10_000);
}, 30_000);

test("behind a balancer, two controllers of 10 per 2 s each, one nearly spent: the lower count bounds both, no 429", async () => {
  // another client of the same token used 8 of controller A's 10; B's are untouched
  const run = await creates("balanced", 40, 10, 2000, { controllers: 2, holdMs: shuffled, used: [8, 0] });
  expect(run.created).toBe(40);
  expect(run.refused).toBe(0);
}, 30_000);

test("behind a balancer, one controller's window starting 600 ms after the other's: the earlier end does not free the later, no 429", async () => {
  // the second request (controller B's first) takes 600 ms to reach it, so B's window ends 600 ms after A's,
  // while the headers' whole seconds put both ends less than a second apart
  const run = await creates("late-window", 40, 10, 2000, { controllers: 2, reachMs: (n) => (n === 2 ? 600 : 0) });
  expect(run.created).toBe(40);
  expect(run.refused).toBe(0);
}, 30_000);

test("a request queued behind others goes when their answers leave room, not at the window's reset", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) ids.push((await direct.createTarget({ scope_id: PROJECT, name: `queued-${i}`, type: "tcp" })).id);
  // 30 deletes fit the quota of 30 per 10 s: none of them needs the reset
  const proxy = await startQuotaProxy(c.apiUrl, 30, 10_000, { holdMs: shuffled });
  const paced = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN }, {});
  const before = c.store.size;
  try {
    const ms = await inParallel(30, 16, async (i) => paced.deleteTarget(ids[i]!));
    expect(proxy.refused()).toBe(0);
    expect(c.store.size).toBe(before - 30);
    expect(ms).toBeLessThan(5000);
  } finally {
    await paced.close();
    await proxy.close();
  }
}, 30_000);

test("a request queued behind one in flight still fails at its deadline, saying what it waited for, unsent", async () => {
  const t = await direct.createTarget({ scope_id: PROJECT, name: "queued-deadline", type: "tcp" });
  // the first answer takes 3 s; until it comes nothing says how much of the quota is left
  const proxy = await startQuotaProxy(c.apiUrl, 100, 60_000, { holdMs: (n) => (n === 1 ? 3000 : 0) });
  const paced = new BoundaryClient({ addr: proxy.url, token: ADMIN_TOKEN }, {});
  try {
    const first = paced.getTarget(t.id);
    const started = performance.now();
    const err = await paced
      .within(new Operation({ timeoutMs: 1000, source: "a 1 s test operation" }))
      .getTarget(t.id)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as Error).message).toMatch(
      /rate limit for target:read leaves no room until one of the 1 requests in flight is answered, which is after this operation's deadline \(a 1 s test operation\)/,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    expect((await first).id).toBe(t.id);
    expect(proxy.seen()).toBe(1);
  } finally {
    await paced.close();
    await proxy.close();
  }
}, 30_000);
