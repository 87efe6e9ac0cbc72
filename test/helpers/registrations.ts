/**
 * Targets as the engine holds them when it asks the policy pack, by both routes: the dynamic route's
 * registration made by the packed package's Target class (under the SDK's mocks) and checked by
 * Pulumi's real dynamic-provider host; the plugin route's program properties checked by the plugin
 * over gRPC. What Analyze sees is Check's answer; what AnalyzeStack sees in a preview is the
 * projected state: the plugin's Create with `preview`, the inputs for the dynamic host (which has no
 * preview, so the engine takes the inputs as the state). `apply` creates Targets on a real controller
 * (an earlier `pulumi up`), for what AnalyzeStack sees of a Target already in the stack: its state.
 */
import { engine, secret, UNKNOWN, type Engine } from "../../harness/engine";
import { registeredResources, type Declared } from "../../harness/program";
import { packedProgram, startPlugin, type Host } from "../../harness/provider-host";
import { ADMIN_TOKEN } from "./controller";
import { startHostedProvider } from "./dynamic-host";
import type { AnalyzedResource } from "./policy-pack";
import { useForSuite } from "./suite";

/** The two routes a Target comes by. */
export type Route = "plugin" | "dynamic";
/** Both, for `describe.each`. */
export const ROUTES: readonly Route[] = ["plugin", "dynamic"];

/** One Target as the engine holds it: for Analyze (Check's inputs) and for AnalyzeStack in a preview (the projected state). */
export interface Registration {
  analyzed: AnalyzedResource;
  previewed: AnalyzedResource;
  /** Check's failures (a policy test's Targets are valid: tests expect none). */
  failures: { property: string; reason: string }[];
}

/** The two provider processes: `register` declares Targets by one route, `apply` creates them (an earlier `pulumi up`). */
export interface TargetRoutes {
  register(route: Route, declared: readonly Declared[]): Promise<Registration[]>;
  /** Creates the declared Targets on the controller: each as AnalyzeStack sees a Target already in the stack (its recorded state). */
  apply(route: Route, declared: readonly Declared[]): Promise<AnalyzedResource[]>;
}

const urnOf = (type: string, name: string) => `urn:pulumi:dev::policy-test::${type}::${name}`;

/**
 * Starts the dynamic-provider host (configured for a real controller, as the engine configures it
 * before any Check) and the plugin, both from the packed program.
 */
export async function startTargetRoutes(): Promise<TargetRoutes & { stop(): Promise<void> }> {
  const program = packedProgram();
  // both processes start at once (each spends seconds loading Pulumi's SDK); if either fails, the other is stopped
  const [hostedStart, pluginStart] = await Promise.allSettled([
    startHostedProvider(urnOf("pulumi-nodejs:dynamic/boundary:Target", "configure")),
    startPlugin(program),
  ]);
  if (hostedStart.status === "rejected" || pluginStart.status === "rejected") {
    if (hostedStart.status === "fulfilled") await hostedStart.value.stop();
    if (pluginStart.status === "fulfilled") await pluginStart.value.stop();
    throw hostedStart.status === "rejected" ? hostedStart.reason : (pluginStart as PromiseRejectedResult).reason;
  }
  const hosted = hostedStart.value;
  const pluginHost = pluginStart.value;
  const dynamicHost = hosted.host;
  // the plugin configured for the same controller, as the engine configures a provider before any Create
  await engine(pluginHost, urnOf("pulumi:providers:boundary", "default"))
    .configure({ addr: hosted.c.apiUrl, token: secret(ADMIN_TOKEN) }, { "boundary:config:addr": hosted.c.apiUrl })
    .catch(async (err: unknown) => {
      await pluginHost.stop();
      await hosted.stop();
      throw err;
    });
  const engines = new Map<string, Engine>();
  const engineFor = (host: Host, urn: string) => {
    const key = `${host.pid} ${urn}`;
    let e = engines.get(key);
    if (!e) engines.set(key, (e = engine(host, urn)));
    return e;
  };
  const routes: TargetRoutes = {
    async apply(route, declared) {
      const registered = await routes.register(route, declared);
      return Promise.all(
        registered.map(async ({ analyzed, failures }) => {
          if (failures.length) throw new Error(`${analyzed.name} fails Check: ${JSON.stringify(failures)}`);
          const { props } = await engineFor(route === "dynamic" ? dynamicHost : pluginHost, analyzed.urn).create(analyzed.props);
          return { ...analyzed, props };
        }),
      );
    },
    async register(route, declared) {
      if (route === "dynamic") {
        const registered = await registeredResources(program, declared, UNKNOWN);
        return Promise.all(
          registered.map(async (r) => {
            const urn = urnOf(r.type, r.name);
            const { inputs, failures } = await engineFor(dynamicHost, urn).check(r.inputs);
            const analyzed = { urn, type: r.type, name: r.name, props: inputs };
            return { analyzed, previewed: analyzed, failures };
          }),
        );
      }
      return Promise.all(
        declared.map(async (d) => {
          const type = "boundary:index:Target";
          const urn = urnOf(type, d.name);
          const e = engineFor(pluginHost, urn);
          const { inputs, failures } = await e.check(d.args, {}, { name: d.name });
          const { props } = failures.length ? { props: inputs } : await e.create(inputs, { preview: true });
          return { analyzed: { urn, type, name: d.name, props: inputs }, previewed: { urn, type, name: d.name, props }, failures };
        }),
      );
    },
  };
  return {
    ...routes,
    stop: async () => {
      await pluginHost.stop();
      await hosted.stop();
    },
  };
}

/** Both routes for the enclosing `describe` (or the file): started in `beforeAll`, stopped in `afterAll`. */
export function useTargetRoutes(): TargetRoutes {
  return useForSuite("provider hosts", startTargetRoutes, (r) => r.stop(), 60_000);
}
