/**
 * `boundary-target-unique-names`, the stack policy, through the pack's AnalyzeStack on the stack's
 * Targets as a preview projects them, on both routes and across them: two Targets with one name in
 * one project are reported (the later one, naming the earlier), a name or project not known yet is
 * compared with nothing while the known ones still are, and the configured level holds.
 */
import { UNKNOWN } from "../../harness/engine";
import type { Declared } from "../../harness/program";
import { usePolicyPack, type AnalyzedResource } from "../helpers/policy-pack";
import { ROUTES, useTargetRoutes, type Route } from "../helpers/registrations";

const pack = usePolicyPack();
const routes = useTargetRoutes();
const POLICY = "boundary-target-unique-names";
const P1 = "p_1234567890";
const P2 = "p_0987654321";

/** The stack's Targets as the engine hands them to AnalyzeStack in a preview. */
async function stack(route: Route, declared: Declared[]): Promise<AnalyzedResource[]> {
  const registered = await routes.register(route, declared);
  for (const r of registered) expect(r.failures).toEqual([]);
  return registered.map((r) => r.previewed);
}
/** What else a stack holds: the stack resource and the plugin's default provider (its name and project are no Target's). */
const AROUND: AnalyzedResource[] = [
  { urn: "urn:pulumi:dev::policy-test::pulumi:pulumi:Stack::policy-test-dev", type: "pulumi:pulumi:Stack", name: "policy-test-dev", props: {} },
  {
    urn: "urn:pulumi:dev::policy-test::pulumi:providers:boundary::default",
    type: "pulumi:providers:boundary",
    name: "default",
    props: { addr: "http://127.0.0.1:9200", name: "web", scopeId: P1 },
  },
];
const named = (name: string, args: Record<string, unknown>): Declared => ({ name, args: { description: "d", ...args } });

beforeEach(() => pack.configure({}));

describe.each(ROUTES)("the %s route", (route) => {
  test("distinct names, or one name in two projects, or names the provider makes: nothing to report", async () => {
    const resources = await stack(route, [
      named("a", { scopeId: P1, name: "web" }),
      named("b", { scopeId: P2, name: "web" }),
      named("c", { scopeId: P1, name: "api" }),
      named("d", { scopeId: P1 }),
      named("e", { scopeId: P1 }),
    ]);
    const { diagnostics, notApplicable } = await pack.analyzeStack([...AROUND, ...resources]);
    expect(diagnostics.filter((d) => d.policy === POLICY)).toEqual([]);
    expect(notApplicable).toEqual([]);
  });

  test("one name twice in a project: the later Target is reported, mandatory, naming both Targets, the name, the project and the limit", async () => {
    const resources = await stack(route, [
      named("a", { scopeId: P1, name: "web" }),
      named("b", { scopeId: P1, name: "web " }), // Boundary trims names: the same name
      named("c", { scopeId: P1, name: "web" }),
      named("d", { scopeId: P2, name: "web" }),
    ]);
    const found = (await pack.analyzeStack([...AROUND, ...resources])).diagnostics.filter((d) => d.policy === POLICY);
    expect(found.map((d) => [d.urn, d.level])).toEqual([
      [resources[1]!.urn, "mandatory"],
      [resources[2]!.urn, "mandatory"],
    ]);
    expect(found[0]!.message).toContain(`Target "b" has the name "web" in project ${P1}, as Target "a" has; the limit is one Target per name in a project`);
    expect(found[1]!.message).toContain(`Target "c" has the name "web" in project ${P1}, as Target "a" has`);
  });

  test("a name or project not known yet is compared with nothing; a known duplicate is still reported", async () => {
    const resources = await stack(route, [
      named("a", { scopeId: P1, name: "web" }),
      named("b", { scopeId: P1, name: UNKNOWN }),
      named("c", { scopeId: UNKNOWN, name: "web" }),
      named("d", { scopeId: P1, name: "web" }),
    ]);
    const { diagnostics } = await pack.analyzeStack(resources);
    // exactly one: d's duplicate of a; nothing about b or c, and no "can't run during preview"
    expect(diagnostics.map((d) => [d.policy, d.urn])).toEqual([[POLICY, resources[3]!.urn]]);
    expect(diagnostics[0]!.message).toContain(`Target "d" has the name "web" in project ${P1}, as Target "a" has`);
  });

  test("a Target already in the stack (its recorded state) and a new one with its name in its project: the pull request's preview reports the new one", async () => {
    const name = `live-${route}`;
    const [applied] = await routes.apply(route, [named("live", { scopeId: P1, name })]);
    expect(applied!.props).toMatchObject({ name, scopeId: P1, createdTime: expect.any(String) }); // the controller's record
    const [planned, elsewhere] = await stack(route, [named("planned", { scopeId: P1, name }), named("elsewhere", { scopeId: P2, name })]);
    const found = (await pack.analyzeStack([applied!, planned!, elsewhere!])).diagnostics;
    expect(found.map((d) => [d.policy, d.urn])).toEqual([[POLICY, planned!.urn]]);
    expect(found[0]!.message).toContain(`Target "planned" has the name "${name}" in project ${P1}, as Target "live" has`);
  });

  test("at the level the pack's config gives it, and not at all when disabled", async () => {
    const resources = await stack(route, [named("a", { scopeId: P1, name: "web" }), named("b", { scopeId: P1, name: "web" })]);
    await pack.configure({ [POLICY]: "advisory" });
    expect((await pack.analyzeStack(resources)).diagnostics.map((d) => [d.policy, d.level])).toEqual([[POLICY, "advisory"]]);
    await pack.configure({ [POLICY]: "disabled" });
    expect((await pack.analyzeStack(resources)).diagnostics).toEqual([]);
  });
});

test("a Target of each route with one name in one project: reported, whichever route registered them", async () => {
  const [plugin] = await stack("plugin", [named("a", { scopeId: P1, name: "web" })]);
  const [dynamic] = await stack("dynamic", [named("b", { scopeId: P1, name: "web" })]);
  const found = (await pack.analyzeStack([plugin!, dynamic!])).diagnostics;
  expect(found.map((d) => [d.policy, d.urn])).toEqual([[POLICY, dynamic!.urn]]);
  expect(found[0]!.message).toContain(`Target "b" has the name "web" in project ${P1}, as Target "a" has`);
});
