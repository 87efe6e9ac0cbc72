/**
 * Replacing a Target whose name the program set, through the real engine path on both routes. Names
 * are unique per project, so Pulumi's default create-before-delete would meet the old Target's name:
 * Diff answers deleteBeforeReplace when the program set the name and the replacement keeps it in
 * the same project (pulumi-kubernetes' convention), and `pulumi up --replace`, which asks no Diff,
 * reports the clash with the fix. An autonamed Target is replaced create-before-delete as before.
 *
 * A type change needs a controller that offers ssh (HCP and Enterprise); a gateway plays one in
 * front of `--emulate 0.21`, which like every open-source controller offers tcp only.
 */
import { Stack } from "../../harness/stack";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { startGateway, type Gateway } from "../helpers/gateway";
import { ROUTES, routeTo, type TestRoute } from "../helpers/routes";

/** The error's text, as the engine shows it. */
const shown = (err: unknown) => String(err instanceof Error ? err.message : err);

/** A gateway that makes the controller offer ssh: an ssh create is made as tcp, and answered as ssh. */
function offerSsh(gw: Gateway): void {
  const ssh = new Set<string>();
  gw.on((s) => {
    const asked = s.method === "POST" && s.path === "/v1/targets" && /"type":"ssh"/.test(s.body);
    return {
      rewrite: {
        request: (body) => body.replace('"type":"ssh"', '"type":"tcp"'),
        answer: (text) => {
          let json: { id?: string; type?: string; items?: { id: string; type?: string }[] };
          try {
            json = JSON.parse(text);
          } catch {
            return text;
          }
          if (asked && json.id) ssh.add(json.id);
          for (const t of [json, ...(json.items ?? [])]) if (t.id && ssh.has(t.id)) t.type = "ssh";
          return JSON.stringify(json);
        },
      },
    };
  });
}

describe.each(ROUTES)("through the %s route", (kind) => {
  let c: TestController;
  let gw: Gateway;
  let route: TestRoute;
  beforeAll(async () => {
    c = await startTestController({ emulation: "0.21" });
    gw = await startGateway(c.apiUrl);
    offerSsh(gw);
    route = await routeTo(kind, gw.url);
  }, 60_000);
  afterAll(async () => {
    await route?.stop();
    await gw?.close();
    await c?.shutdown();
  });

  const named = (name: string) => c.store.listTargets(PROJECT, false).filter((t) => t.name === name);

  test("a type change with a name the program set: Diff answers deleteBeforeReplace, and the replacement succeeds under the same name", async () => {
    const name = `fixed-${kind}`;
    const stack = new Stack(route, "web");
    await stack.up({ scopeId: PROJECT, name, type: "tcp", defaultPort: 22 });
    const old = stack.id!;
    const preview = await stack.preview({ scopeId: PROJECT, name, type: "ssh", defaultPort: 22 });
    expect(preview).toMatchObject({ step: "replace", replaces: ["type"], deleteBeforeReplace: true });
    expect(await stack.up({ scopeId: PROJECT, name, type: "ssh", defaultPort: 22 })).toBe("replace");
    expect(stack.id).not.toBe(old);
    expect(named(name).map((t) => t.id)).toEqual([stack.id]);
    expect(stack.outputs).toMatchObject({ name, type: "ssh" });
    await stack.destroy();
  });

  test("an autonamed Target is replaced create-before-delete: the replacement gets a name of its own", async () => {
    const stack = new Stack(route, "auto");
    await stack.up({ scopeId: PROJECT, type: "tcp", defaultPort: 22 });
    const [old, oldName] = [stack.id!, stack.outputs!.name as string];
    expect(await stack.preview({ scopeId: PROJECT, type: "ssh", defaultPort: 22 })).toMatchObject({ step: "replace", deleteBeforeReplace: false });
    expect(await stack.up({ scopeId: PROJECT, type: "ssh", defaultPort: 22 })).toBe("replace");
    expect(stack.outputs!.name).toMatch(/^auto-[0-9a-f]{7}$/);
    expect(stack.outputs!.name).not.toBe(oldName);
    expect(() => c.store.getTarget(old)).toThrow();
    await stack.destroy();
  });

  test("pulumi up --replace with a name the program set (no Diff): the clash is reported with the fix; with deleteBeforeReplace it succeeds", async () => {
    const name = `forced-${kind}`;
    const program = { scopeId: PROJECT, name, defaultPort: 22 };
    const stack = new Stack(route, "web");
    await stack.up(program);
    const old = stack.id!;
    const err = await stack.up(program, { replace: true }).catch((e: unknown) => e);
    expect(shown(err)).toContain(`creating target "${name}" in ${PROJECT}: the name is already used in that project (by ${old})`);
    expect(shown(err)).toContain(
      "set the resource option `deleteBeforeReplace: true`, or leave `name` unset so each replacement gets a name of its own (autonaming)",
    );
    expect(stack.id).toBe(old);
    expect(named(name).map((t) => t.id)).toEqual([old]);

    const fixed = new Stack(route, "web", { deleteBeforeReplace: true });
    fixed.recordSame(stack);
    expect(await fixed.up(program, { replace: true })).toBe("replace");
    expect(named(name).map((t) => t.id)).toEqual([fixed.id]);
    expect(fixed.id).not.toBe(old);
    await fixed.destroy();
  });
});

describe("replaceOnChanges (the plugin route: the engine sees which fields changed in the detailed diff)", () => {
  let c: TestController;
  let route: TestRoute;
  beforeAll(async () => {
    c = await startTestController();
    route = await routeTo("plugin", c.apiUrl);
  }, 60_000);
  afterAll(async () => {
    await route?.stop();
    await c?.shutdown();
  });

  test('replaceOnChanges: ["description"] with a name the program set: the replacement deletes first and succeeds', async () => {
    const stack = new Stack(route, "web", { replaceOnChanges: ["description"] });
    await stack.up({ scopeId: PROJECT, name: "roc", description: "v1" });
    const old = stack.id!;
    expect(await stack.up({ scopeId: PROJECT, name: "roc", description: "v2" })).toBe("replace");
    expect(c.store.listTargets(PROJECT, false).map((t) => [t.id, t.name, t.description])).toEqual([[stack.id, "roc", "v2"]]);
    expect(stack.id).not.toBe(old);
    await stack.destroy();
  });
});
