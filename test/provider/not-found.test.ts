/**
 * Only Boundary's own answer that a Target does not exist (its error body, kind NotFound) means
 * "gone", through the real engine path on both routes. A proxy's HTML 404, or a `boundary:addr`
 * with a path the controller does not serve (through a proxy answering as Go does, and against the
 * real controller as each release answers), is an error naming the address and what came back:
 * `pulumi refresh` keeps the Target in the stack and `pulumi destroy` does not report success.
 */
import { Stack } from "../../harness/stack";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { pages } from "../helpers/gateway";
import { ROUTES, RoutePool, useGatewayRoute } from "../helpers/routes";
import { release as releaseOf, requires } from "../../wire/releases";

/** What Go's HTTP server (Boundary without its UI, or behind a router) answers for a path it does not serve. */
const GO_NOT_FOUND = { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: "404 page not found\n" };

/** The releases whose controllers answer a wrong base path, each as it does. */
const RELEASES = ["spec", "0.4", "0.21"] as const;
/** No retry: a test sees what one answer did. */
const NO_RETRIES = { env: { BOUNDARY_MAX_RETRIES: "0" } };

/** The gRPC error's text, as the engine shows it. */
const shown = (err: unknown) => String((err as { details?: string }).details ?? err);

describe.each(ROUTES)("through the %s route", (kind) => {
  const { c, gw, route } = useGatewayRoute(kind);
  let n = 0;
  // the other provider processes the tests below need (and a controller of each release), started at once
  const routes = new RoutePool();
  const controllers = new Map<string, TestController>();
  beforeAll(async () => {
    routes.start("gateway /boundary", kind, `${gw.url}/boundary`, NO_RETRIES);
    for (const release of RELEASES) {
      const ctl = await startTestController({ emulation: release, rateLimits: "disabled" });
      controllers.set(release, ctl);
      routes.start(`${release}`, kind, ctl.apiUrl, NO_RETRIES);
      routes.start(`${release} /boundary`, kind, `${ctl.apiUrl}/boundary`, NO_RETRIES);
    }
    // all up before the first test: a test's own time is not spent waiting for seven starts under load
    await routes.ready();
  }, 120_000);
  afterAll(async () => {
    await routes.stop();
    for (const ctl of controllers.values()) await ctl.shutdown();
  }, 60_000);

  const made = async () => {
    const stack = new Stack(route, "web");
    await stack.up({ scopeId: PROJECT, name: `kept-${kind}-${++n}` });
    return stack;
  };

  test("a proxy's HTML 404 on refresh: the Target stays in the stack; the error names the address, status, content type and first bytes", async () => {
    const stack = await made();
    const id = stack.id!;
    gw.on((s) => (s.method === "GET" ? { page: pages.notFound } : undefined));
    const err = await stack.refresh().catch((e: unknown) => e);
    expect(shown(err)).toContain(
      `GET ${gw.url}/v1/targets/${id}: 404, and not an answer from Boundary's API (content-type text/html; charset=utf-8, body starts "<!DOCTYPE html><html><head><title>404 Not Found</title>`,
    );
    expect(shown(err)).toContain("check boundary:addr / BOUNDARY_ADDR");
    expect(stack.id).toBe(id);
    gw.on(undefined);
    expect(await stack.refresh()).toBe("same");
    await stack.destroy();
  });

  test("a proxy's HTML 404 on destroy: not reported as deleted; the Target is still there and still in the stack", async () => {
    const stack = await made();
    const id = stack.id!;
    gw.on((s) => (s.method === "DELETE" ? { page: pages.notFound } : undefined));
    const err = await stack.destroy().catch((e: unknown) => e);
    expect(shown(err)).toContain(`DELETE ${gw.url}/v1/targets/${id}: 404, and not an answer from Boundary's API (content-type text/html`);
    expect(stack.id).toBe(id);
    expect(c.store.getTarget(id).id).toBe(id);
    gw.on(undefined);
    await stack.destroy();
    expect(() => c.store.getTarget(id)).toThrow();
  });

  test("boundary:addr with a path the controller does not serve (…/boundary): refresh keeps the Target, destroy fails, both naming the address", async () => {
    const stack = await made();
    const id = stack.id!;
    // the same stack, its boundary:addr now ending in /boundary
    const wrong = await routes.take("gateway /boundary");
    try {
      gw.on((s) => (s.path.startsWith("/v1/") ? undefined : { page: GO_NOT_FOUND }));
      const there = new Stack(wrong, "web");
      there.recordSame(stack);
      const refreshed = await there.refresh().catch((e: unknown) => e);
      expect(shown(refreshed)).toContain(
        `GET ${gw.url}/boundary/v1/targets/${id}: 404, and not an answer from Boundary's API (content-type text/plain; charset=utf-8, body starts "404 page not found\\n")`,
      );
      expect(shown(refreshed)).toContain("this address does not reach the controller's API (a wrong host, port or path)");
      expect(there.id).toBe(id);
      const destroyed = await there.destroy().catch((e: unknown) => e);
      expect(shown(destroyed)).toContain(`DELETE ${gw.url}/boundary/v1/targets/${id}: 404, and not an answer from Boundary's API`);
      expect(there.id).toBe(id);
      expect(c.store.getTarget(id).id).toBe(id);
    } finally {
      await wrong.stop();
    }
    await stack.destroy();
  });

  test.each(RELEASES)(
    "boundary:addr with a wrong base path against the real controller (--emulate %s, no proxy): refresh keeps the Target, destroy fails, both naming the address",
    async (release) => {
      const ctl = controllers.get(release)!;
      const good = await routes.take(release);
      const wrong = await routes.take(`${release} /boundary`);
      try {
        const stack = new Stack(good, "web");
        const r = releaseOf(release);
        await stack.up({ scopeId: PROJECT, name: `kept-${kind}-${release}`, ...(requires(r, "defaultPort") ? { defaultPort: 22 } : {}) });
        const id = stack.id!;
        const there = new Stack(wrong, "web");
        there.recordSame(stack);
        const url = `${ctl.apiUrl}/boundary/v1/targets/${id}`;
        const refreshed = await there.refresh().catch((e: unknown) => e);
        const destroyed = await there.destroy().catch((e: unknown) => e);
        if (r.outsideApi === "ours") {
          // the spec's controller: a plain-text 404 naming the path
          expect(shown(refreshed)).toContain(
            `GET ${url}: 404, and not an answer from Boundary's API (content-type text/plain; charset=utf-8, body starts "No route for GET /boundary/v1/targets/${id}`,
          );
          expect(shown(destroyed)).toContain(`DELETE ${url}: 404, and not an answer from Boundary's API (content-type text/plain`);
        } else {
          // a release: its admin UI answers outside /v1/, a GET with its index page, a DELETE with an empty 405
          expect(shown(refreshed)).toContain(
            `GET ${url}: 200, and not an answer from Boundary's API (content-type text/html; charset=utf-8, body starts "<!DOCTYPE html>`,
          );
          expect(shown(refreshed)).toContain("this address does not reach the controller's API (a wrong host, port or path)");
          expect(shown(destroyed)).toContain(`DELETE /v1/targets/${id}: 405 Unknown: HTTP 405 Nothing at ${url} takes DELETE`);
        }
        expect(there.id).toBe(id);
        expect(ctl.store.getTarget(id).id).toBe(id);
        await stack.destroy();
        expect(() => ctl.store.getTarget(id)).toThrow();
      } finally {
        await wrong.stop();
        await good.stop();
      }
    },
    60_000,
  );

  test("Boundary's own NotFound still means gone: a Target deleted outside Pulumi leaves the stack on refresh, and destroying it succeeds", async () => {
    const stack = await made();
    const id = stack.id!;
    c.store.deleteTarget(id);
    const other = new Stack(route, "web");
    other.recordSame(stack);
    expect(await stack.refresh()).toBe("gone");
    expect(stack.id).toBeUndefined();
    await other.destroy();
    expect(other.id).toBeUndefined();
  });
});
