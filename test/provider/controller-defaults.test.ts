/**
 * "Reset to the controller's default" uses that controller's default, through the real engine path:
 * `session_connection_limit` defaults to 1 up to Boundary 0.9.0 (the spec, v0.4) and to -1 from
 * 0.9.1 (`--emulate 0.21`). A Target imported with the `import` resource option under a program
 * that sets only `scopeId` and `name` previews no change on every mode (plugin route; the dynamic
 * route cannot import), and a program that stops setting a field already at the default shows no
 * change on either route.
 */
import type { Emulation } from "../../controller";
import { Stack } from "../../harness/stack";
import { release, requires } from "../../wire/releases";
import { PROJECT, useTestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";
import { ROUTES, routeTo, type TestRoute } from "../helpers/routes";

const MODES: [Emulation, number][] = [
  ["spec", 1],
  ["0.4", 1],
  ["0.21", -1],
];

describe.each(MODES)("--emulate %s (its session_connection_limit default: %d)", (mode, limit) => {
  const c = useTestController({ emulation: mode });

  describe.each(ROUTES)("through the %s route", (kind) => {
    let route: TestRoute;
    let n = 0;
    beforeAll(async () => {
      route = await routeTo(kind, c.apiUrl);
    }, 60_000);
    afterAll(() => route?.stop());
    const port = requires(release(mode), "defaultPort") ? { defaultPort: 22 } : {};

    if (kind === "plugin") {
      test("a Target imported under a program that sets only scopeId and name previews no change", async () => {
        // made outside Pulumi with the controller's defaults (and, on current releases, the required port)
        const made = await c.create({ name: `imported-${++n}` });
        expect(made.session_connection_limit).toBe(limit);
        const stack = new Stack(route, "web");
        const program = { scopeId: PROJECT, name: made.name, ...port };
        await stack.importExisting(made.id, program);
        expect(stack.id).toBe(made.id);
        const { result, calls } = await countCalls(c.opsUrl, () => stack.preview(program));
        expect(result.step).toBe("same");
        expect(calls).toEqual({});
        await stack.destroy();
      });
    }

    test("a program that stops setting sessionConnectionLimit where it already holds the default shows no change", async () => {
      const stack = new Stack(route, "web");
      const program = { scopeId: PROJECT, name: `at-default-${kind}-${++n}`, ...port };
      await stack.up({ ...program, sessionConnectionLimit: limit });
      expect((await stack.preview(program)).step).toBe("same");
      expect(await stack.up(program)).toBe("same");
      await stack.destroy();
    });

    test("a program that stops setting sessionConnectionLimit elsewhere resets it to this controller's default", async () => {
      const stack = new Stack(route, "web");
      const program = { scopeId: PROJECT, name: `reset-${kind}-${++n}`, ...port };
      await stack.up({ ...program, sessionConnectionLimit: 5 });
      expect(await stack.up(program)).toBe("update");
      expect(c.store.getTarget(stack.id!).session_connection_limit).toBe(limit);
      expect(stack.outputs).toMatchObject({ sessionConnectionLimit: limit });
      expect(await stack.up(program)).toBe("same");
      await stack.destroy();
    });
  });
});
