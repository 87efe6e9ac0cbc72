/**
 * `--emulate 0.21`'s rate limiter keeps quotas per resource and action, as Boundary v0.21.3's
 * internal/ratelimit does (`Configs.Limits`: a limit per resource:action:per): a create does not
 * use up reads, an answer's RateLimit-Policy is its action's (Boundary's defaults unless configured),
 * a spent quota is a 429 with Retry-After until its window ends, the config file's `api_rate_limit`
 * blocks set the quotas, and the quota store's default size is DefaultLimiterMaxQuotas.
 */
import { loadDevConfig } from "../../controller";
import { RateLimiter, defaultPolicies, policiesFor, type RatePolicy } from "../../controller/rate-limit";
import { defaultMaxQuotas, release } from "../../wire/releases";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { until } from "../helpers/wait";

const policy = (res: { headers: Headers }) => res.headers.get("ratelimit-policy");
const DEFAULT_OTHER = '30000;w=30;comment="total", 30000;w=30;comment="ip-address", 3000;w=30;comment="auth-token"';
/** Boundary's default policy of list, its own quota: a quota configured for read leaves it as it is. */
const DEFAULT_LIST = '1500;w=30;comment="total", 1500;w=30;comment="ip-address", 150;w=30;comment="auth-token"';

describe("over HTTP", () => {
  let c: TestController | undefined;
  afterEach(() => c?.shutdown());

  test('"*" gives each action its own quota: reads spent, a create and an authorize-session still go', async () => {
    c = await startTestController({ emulation: "0.21", rateLimits: [{ action: "*", per: "auth-token", limit: 3, periodMs: 60_000 }] });
    const t = await c.create({ host_set_ids: ["hsst_1234567890"] }); // a create and a set-host-sources
    const read = () => c!.call("GET", `/v1/targets/${t.id}`);
    for (let i = 0; i < 3; i++) expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(429);
    expect((await c.call("POST", `/v1/targets/${t.id}:authorize-session`, {})).status).toBe(200);
    const second = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "second", type: "tcp", attributes: { default_port: 22 } });
    expect(second.status).toBe(200);
    // the create's quota counts creates only: this is its second of three
    expect(second.headers.get("ratelimit")).toMatch(/^limit=3, remaining=1, reset=\d+$/);
  });

  test("a quota set for one action applies to it alone; each answer's RateLimit-Policy is its action's", async () => {
    const hcl =
      'controller {\n  emulate = "0.21"\n  api_rate_limit {\n    resources = ["*"]\n    actions = ["read"]\n    per = "auth-token"\n    limit = 5\n    period = "1m"\n  }\n}\n';
    const cfg = loadDevConfig(["--config", "dev.hcl"], () => hcl);
    expect(cfg.rateLimits).toEqual([{ action: "read", per: "auth-token", limit: 5, periodMs: 60_000 }]);
    c = await startTestController({ emulation: "0.21", rateLimits: cfg.rateLimits });
    const created = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "one", type: "tcp", attributes: { default_port: 22 } });
    expect(policy(created)).toBe(DEFAULT_OTHER);
    const read = await c.call("GET", `/v1/targets/${created.body.id}`);
    expect(policy(read)).toBe('30000;w=30;comment="total", 30000;w=30;comment="ip-address", 5;w=60;comment="auth-token"');
    expect(read.headers.get("ratelimit")).toMatch(/^limit=5, remaining=4, reset=\d+$/);
    const list = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`);
    expect(policy(list)).toBe(DEFAULT_LIST);
  });

  test("every answer carries RateLimit and Boundary's default RateLimit-Policy (list has its own quota)", async () => {
    c = await startTestController({ emulation: "0.21" });
    const t = await c.create();
    const read = await c.call("GET", `/v1/targets/${t.id}`);
    expect(read.headers.get("ratelimit-policy")).toBe(DEFAULT_OTHER);
    expect(read.headers.get("ratelimit")).toMatch(/^limit=3000, remaining=\d+, reset=\d+$/);
    const list = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`);
    expect(list.headers.get("ratelimit-policy")).toBe(DEFAULT_LIST);
  });

  test("a configured quota: refused with 429, an empty body and Retry-After once spent; served again after the window", async () => {
    const small = (c = await startTestController({ emulation: "0.21", rateLimits: [{ action: "*", per: "auth-token", limit: 3, periodMs: 1000 }] }));
    const get = () => small.call("GET", "/v1/targets/ttcp_1234567890");
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) remaining.push((await get()).headers.get("ratelimit"));
    expect(remaining.map((r) => /remaining=(\d+)/.exec(r!)![1])).toEqual(["2", "1", "0"]);
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.text).toBe("");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit")).toMatch(/^limit=3, remaining=0, reset=\d+$/);
    await until(async () => (await get()).status !== 429, "the window to reset", 3000);
  });

  test("the config file sets them as Boundary reads it; api_rate_limit_disable turns them off", async () => {
    const cfg = loadDevConfig(
      ["--config", "dev.hcl"],
      () =>
        'controller {\n  emulate = "0.21"\n  api_rate_limit {\n    resources = ["*"]\n    actions = ["list"]\n    per = "auth-token"\n    limit = 10\n    period = "1m"\n  }\n}\n',
    );
    expect(cfg.rateLimits).toEqual([{ action: "list", per: "auth-token", limit: 10, periodMs: 60_000 }]);
    expect(loadDevConfig(["--config", "dev.hcl"], () => "controller {\n  api_rate_limit_disable = true\n}\n").rateLimits).toBe("disabled");
    c = await startTestController({ emulation: "0.21", rateLimits: "disabled" });
    expect((await c.call("GET", `/v1/targets?scope_id=${PROJECT}`)).headers.get("ratelimit")).toBeNull();
  });
});

describe("the limiter", () => {
  test("quotas are kept per resource and action, and per token, IP and in total", () => {
    let now = 0;
    const limiter = new RateLimiter(release("0.21"), [{ action: "*", per: "auth-token", limit: 1, periodMs: 1000 }], undefined, () => now);
    expect(limiter.take("target", "read", "10.0.0.1", "at_a").refuse).toBeUndefined();
    expect(limiter.take("target", "read", "10.0.0.1", "at_a").refuse?.status).toBe(429);
    // another action, another token, another resource: each its own quota
    expect(limiter.take("target", "update", "10.0.0.1", "at_a").refuse).toBeUndefined();
    expect(limiter.take("target", "read", "10.0.0.1", "at_b").refuse).toBeUndefined();
    expect(limiter.take("host-set", "read", "10.0.0.1", "at_a").refuse).toBeUndefined();
    now = 1000;
    expect(limiter.take("target", "read", "10.0.0.1", "at_a").refuse).toBeUndefined();
  });

  test('per `per`: Boundary\'s default, overridden by each configured policy naming the action or "*", the later over the earlier', () => {
    const configured: RatePolicy[] = [
      { action: "read", per: "auth-token", limit: 5, periodMs: 1000 },
      { action: "*", per: "auth-token", limit: 7, periodMs: 1000 },
      { action: "read", per: "auth-token", limit: 6, periodMs: 1000 },
      { action: "read", per: "total", limit: 9, periodMs: 1000 },
      { action: "read", per: "total", limit: 11, periodMs: 1000 },
    ];
    const limits = (action: string) => policiesFor(defaultPolicies(release("0.21").rateLimiter!), configured, action).map((p) => `${p.per}=${p.limit}`);
    expect(limits("read")).toEqual(["total=11", "ip-address=30000", "auth-token=6"]);
    expect(limits("delete")).toEqual(["total=30000", "ip-address=30000", "auth-token=7"]);
    expect(limits("list")).toEqual(["total=1500", "ip-address=1500", "auth-token=7"]);
  });

  test("the quota store's default size is v0.21.3's: 169 endpoints × (1 + 1,000 + 1,000)", () => {
    expect(defaultMaxQuotas(release("0.21"))).toBe(338_169);
    // the releases before 0.21 with the limiter take the newest count the table has; none without it
    expect(defaultMaxQuotas(release("0.14"))).toBe(338_169);
    expect(defaultMaxQuotas(release("0.13"))).toBeUndefined();
  });

  test("a full quota store refuses with 503 at the release's default size, and at a configured one", () => {
    const fill = (limiter: RateLimiter, n: number) => {
      for (let i = 0; i < n; i++) expect(limiter.take("target", "read", `10.0.${i >> 8}.${i & 255}`, `at_${i}`).refuse).toBeUndefined();
    };
    // each new token and IP takes two quotas (the total is shared): 3 + 2 × 2 = 7 of 7
    const small = new RateLimiter(release("0.21"), [], 7);
    fill(small, 3);
    expect(small.take("target", "read", "10.9.9.9", "at_new").refuse?.status).toBe(503);
    expect(() => new RateLimiter(release("0.13"))).toThrow(/0\.13 has no rate limiter/);
  });
});
