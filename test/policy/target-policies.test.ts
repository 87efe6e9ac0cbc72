/**
 * The five policies that judge one Target, on both routes, through the pack the engine starts:
 * each one's pass, its violations (the message names the Target, the value and the limit), its
 * level when configured, its limit when configured, and no claim at all about a value a preview
 * does not know yet.
 */
import { UNKNOWN } from "../../harness/engine";
import type { Declared } from "../../harness/program";
import { usePolicyPack, type Analysis, type Level } from "../helpers/policy-pack";
import { ROUTES, useTargetRoutes, type Registration } from "../helpers/registrations";

const pack = usePolicyPack();
const routes = useTargetRoutes();

/** A Target every policy passes: limited sessions, a worker filter, host sets, a description. */
const COMPLIANT = {
  scopeId: "p_1234567890",
  description: "Web servers, for the on-call team",
  egressWorkerFilter: '"dc1" in "/tags/region"',
  hostSetIds: ["hsst_1234567890"],
  sessionConnectionLimit: 5,
  sessionMaxSeconds: 3600,
};
type Args = Partial<Record<keyof typeof COMPLIANT | "workerFilter" | "address", unknown>>;
/** The compliant Target with `changes`; a change to undefined leaves the field out. */
const target = (changes: Args): Record<string, unknown> => Object.fromEntries(Object.entries({ ...COMPLIANT, ...changes }).filter(([, v]) => v !== undefined));

/** One policy's cases: Targets that pass, that break it (with what the message must say), its other level, its setting. */
interface Case {
  policy: string;
  level: Level;
  passes: Args[];
  breaks: { args: Args; says: string[] }[];
  unknown: Args[];
  setting?: { config: Record<string, number>; passes: Args; breaks: Args; says: string[] };
}

const CASES: Case[] = [
  {
    policy: "boundary-target-connection-limit",
    level: "mandatory",
    passes: [{ sessionConnectionLimit: 1 }, { sessionConnectionLimit: 10 }],
    breaks: [
      {
        args: { sessionConnectionLimit: undefined },
        says: ["unlimited connections", "sessionConnectionLimit unset, Boundary's default -1", "the limit is 10"],
      },
      { args: { sessionConnectionLimit: -1 }, says: ["unlimited connections", "(sessionConnectionLimit -1)", "the limit is 10 (maxConnections)"] },
      { args: { sessionConnectionLimit: 11 }, says: ["allows 11 connections", "(sessionConnectionLimit 11)", "above the limit of 10 (maxConnections)"] },
    ],
    unknown: [{ sessionConnectionLimit: UNKNOWN }],
    setting: {
      config: { maxConnections: 5 },
      passes: { sessionConnectionLimit: 5 },
      breaks: { sessionConnectionLimit: 6 },
      says: ["allows 6 connections", "limit of 5"],
    },
  },
  {
    policy: "boundary-target-session-duration",
    level: "mandatory",
    passes: [{ sessionMaxSeconds: 28800 }, { sessionMaxSeconds: undefined }],
    breaks: [
      { args: { sessionMaxSeconds: 28801 }, says: ["last 28801 seconds", "(sessionMaxSeconds 28801)", "above the limit of 28800 seconds (maxSessionSeconds)"] },
    ],
    unknown: [{ sessionMaxSeconds: UNKNOWN }],
    setting: {
      config: { maxSessionSeconds: 3600 },
      passes: { sessionMaxSeconds: 3600 },
      breaks: { sessionMaxSeconds: undefined },
      says: ["sessionMaxSeconds unset, Boundary's default 28800", "limit of 3600 seconds"],
    },
  },
  {
    policy: "boundary-target-worker-filter",
    level: "advisory",
    passes: [{ egressWorkerFilter: undefined, workerFilter: '"dc1" in "/tags/region"' }],
    breaks: [{ args: { egressWorkerFilter: undefined }, says: ["sets no worker filter", "egressWorkerFilter and workerFilter unset", "requires one"] }],
    unknown: [{ egressWorkerFilter: UNKNOWN }, { egressWorkerFilter: undefined, workerFilter: UNKNOWN }],
  },
  {
    policy: "boundary-target-host-sources",
    level: "advisory",
    passes: [{ hostSetIds: undefined }],
    breaks: [{ args: { hostSetIds: undefined, address: "10.0.0.5" }, says: ['direct address (address "10.0.0.5")', "host sets only"] }],
    unknown: [{ hostSetIds: undefined, address: UNKNOWN }],
  },
  {
    policy: "boundary-target-description",
    level: "advisory",
    passes: [{ description: "x" }],
    breaks: [
      { args: { description: undefined }, says: ["an empty description (description unset or blank)", "at least 1 (minLength)"] },
      { args: { description: " \t " }, says: ["an empty description"] },
    ],
    unknown: [{ description: UNKNOWN }],
    setting: {
      config: { minLength: 10 },
      passes: { description: "0123456789" },
      breaks: { description: "web hosts" },
      says: ['a description of 9 characters ("web hosts")', "at least 10 (minLength)"],
    },
  },
];

/** Every Target the cases declare, named `<policy's short name>-<role>-<n>`, with its args. */
function declared(): Declared[] {
  const out: Declared[] = [{ name: "compliant", args: target({}) }];
  for (const c of CASES) {
    const short = c.policy.replace("boundary-target-", "");
    c.passes.forEach((a, i) => out.push({ name: `${short}-pass-${i}`, args: target(a) }));
    c.breaks.forEach((b, i) => out.push({ name: `${short}-break-${i}`, args: target(b.args) }));
    c.unknown.forEach((a, i) => out.push({ name: `${short}-unknown-${i}`, args: target(a) }));
    if (c.setting) {
      out.push({ name: `${short}-setting-pass`, args: target(c.setting.passes) });
      out.push({ name: `${short}-setting-break`, args: target(c.setting.breaks) });
    }
  }
  return out;
}

const of = (a: Analysis, policy: string) => a.diagnostics.filter((d) => d.policy === policy);
const short = (policy: string) => policy.replace("boundary-target-", "");

describe.each(ROUTES)("the %s route", (route) => {
  const registered = new Map<string, Registration>();
  beforeAll(async () => {
    for (const r of await routes.register(route, declared())) registered.set(r.analyzed.name, r);
  }, 60_000);
  const analyze = (name: string) => {
    const r = registered.get(name)!;
    expect(r.failures).toEqual([]); // a valid Target: what is judged is the policy, not Check
    return pack.analyze(r.analyzed);
  };
  beforeEach(() => pack.configure({}));

  test("a compliant Target: no policy reports anything", async () => {
    expect((await analyze("compliant")).diagnostics).toEqual([]);
  });

  describe.each(CASES.map((c) => [c.policy, c] as const))("%s", (policy, c) => {
    test("passes what keeps within it", async () => {
      for (let i = 0; i < c.passes.length; i++) expect(of(await analyze(`${short(policy)}-pass-${i}`), policy)).toEqual([]);
    });

    test(`reports what breaks it at ${c.level}, naming the Target, the value and the limit`, async () => {
      for (let i = 0; i < c.breaks.length; i++) {
        const name = `${short(policy)}-break-${i}`;
        const found = of(await analyze(name), policy);
        expect(found).toHaveLength(1);
        expect(found[0]!.level).toBe(c.level);
        expect(found[0]!.message).toContain(`Target "${name}" `);
        for (const s of c.breaks[i]!.says) expect(found[0]!.message).toContain(s);
      }
    });

    test("at the level the pack's config gives it, and not at all when disabled", async () => {
      const other: Level = c.level === "mandatory" ? "advisory" : "mandatory";
      await pack.configure({ [policy]: other });
      expect(of(await analyze(`${short(policy)}-break-0`), policy).map((d) => d.level)).toEqual([other]);
      await pack.configure({ [policy]: "disabled" });
      expect(of(await analyze(`${short(policy)}-break-0`), policy)).toEqual([]);
      // the other policies keep theirs
      expect((await analyze(`${short(policy)}-break-0`)).diagnostics.every((d) => d.policy !== policy)).toBe(true);
    });

    test("claims nothing about a value a preview does not know yet", async () => {
      for (let i = 0; i < c.unknown.length; i++) {
        const { diagnostics } = await analyze(`${short(policy)}-unknown-${i}`);
        expect(diagnostics).toEqual([]); // none of this policy, and no "can't run during preview" either
      }
    });

    if (c.setting) {
      const s = c.setting;
      test(`judges against the limit the pack's config sets (${JSON.stringify(s.config)})`, async () => {
        // under the default limit both pass: what breaks below is the configured limit's doing
        for (const role of ["pass", "break"]) expect(of(await analyze(`${short(policy)}-setting-${role}`), policy)).toEqual([]);
        await pack.configure({ [policy]: s.config });
        expect(of(await analyze(`${short(policy)}-setting-pass`), policy)).toEqual([]);
        const found = of(await analyze(`${short(policy)}-setting-break`), policy);
        expect(found).toHaveLength(1);
        for (const text of s.says) expect(found[0]!.message).toContain(text);
      });
    }
  });
});
