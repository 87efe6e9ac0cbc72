/**
 * An update replays its changes once after a version conflict. When another writer changes the
 * Target again before that replay lands, the update stops, through the real engine path on both
 * routes: the message says another writer changed the Target, the stack records it as the
 * controller holds it, and a later `up` finishes once the writer is done. Lost-answer messages
 * read as sentences (no doubled full stop).
 */
import { Stack, StepFailed } from "../../harness/stack";
import { PROJECT } from "../helpers/controller";
import { pages } from "../helpers/gateway";
import { ROUTES, useGatewayRoute } from "../helpers/routes";

describe.each(ROUTES)("through the %s route", (kind) => {
  const { c, gw, route } = useGatewayRoute(kind);

  test("a second conflict during the one replay: the message says another writer changed the Target, and the next up finishes", async () => {
    const program = { scopeId: PROJECT, name: `contested-${kind}`, description: "ours", sessionMaxSeconds: 28800 };
    const stack = new Stack(route, "web");
    await stack.up(program);
    const id = stack.id!;
    // another writer changes the description just before each of our PATCHes reaches the controller
    let outside = 0;
    gw.on((req) => {
      if (req.method === "PATCH" && req.path.startsWith(`/v1/targets/${id}`)) {
        const t = c.store.getTarget(id);
        c.store.updateTarget(id, { version: t.version, description: `theirs ${++outside}` }, ["description"]);
      }
      return undefined;
    });
    const err = await stack.up({ ...program, sessionMaxSeconds: 60 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepFailed);
    expect(outside).toBe(2);
    expect(String(err)).toContain(`updating target ${id}: another writer changed the Target again while this update was replayed once from version 2 (`);
    expect(String(err)).toContain("none of this run's changes were applied, and the stack records the Target as the controller holds it.");
    expect(String(err)).not.toMatch(/\.\./);
    expect(c.store.getTarget(id)).toMatchObject({ description: "theirs 2", session_max_seconds: 28800 });

    gw.on(undefined);
    expect(await stack.up({ ...program, description: "theirs 2", sessionMaxSeconds: 60 })).toBe("update");
    expect(c.store.getTarget(id)).toMatchObject({ description: "theirs 2", session_max_seconds: 60 });
    await stack.destroy();
  });

  test("a create lost to a proxy's page reads as sentences: one full stop before what the controller showed", async () => {
    gw.on((s) => (s.method === "POST" && s.path === "/v1/targets" ? { page: pages.badGateway } : undefined));
    const err = await new Stack(route, "web").up({ scopeId: PROJECT, name: `not-made-${kind}` }).catch((e: unknown) => e);
    expect(String(err)).toContain("nothing can be concluded from it about the Target. The controller, asked afterwards, holds no target of that name");
    expect(String(err)).not.toMatch(/\.\./);
  });
});
