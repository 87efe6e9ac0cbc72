/**
 * What loading the provider costs in Pulumi's dynamic-provider host, which loads the installed
 * package once per `pulumi up`: the modules the entry loads leave out what the first calls do not
 * use (zod's translations, the filter parser and its regular-expression engine, undici's fetch,
 * WebSocket, caches and mocks, the inputs' zod schema), and what they leave out still works,
 * unchanged, when asked for.
 * Each case runs in a fresh Node process of the program that installed the packed tarball: jest's
 * own module registry would hide Node's.
 */
import { execFileSync } from "node:child_process";
import * as undici from "undici";
import { packedProgram } from "../../harness/provider-host";
import { UNDICI } from "../../provider/client/undici-parts";

/** Runs `script` in a fresh Node process in the packed program; returns what it printed as JSON. */
function inProgram<T>(script: string): T {
  const out = execFileSync(process.execPath, ["-e", script], { cwd: packedProgram(), encoding: "utf8" });
  return JSON.parse(out) as T;
}

/** A script's prelude: `loaded(part)` tells whether a module whose path contains `part` is loaded. */
const LOADED = `const loaded = (part) => Object.keys(require.cache).some((f) => f.includes(part));`;

test("the dynamic entry loads neither zod's translations, nor the filter parser, nor undici's index, nor the inputs' zod schema", () => {
  const seen = inProgram<Record<string, boolean>>(`${LOADED}
    require("pulumi-boundary/dynamic");
    process.stdout.write(JSON.stringify({
      zod: loaded("/zod/v4/core/"), fr: loaded("/zod/v4/locales/fr.cjs"), ar: loaded("/zod/v4/locales/ar.cjs"),
      filter: loaded("/dist/common/filter.js"), re2js: loaded("/re2js/"), inputSchema: loaded("/dist/provider/resource/input-schema.js"),
      pool: loaded("/undici/lib/dispatcher/pool.js"), index: loaded("/undici/index.js"), fetch: loaded("/undici/lib/web/fetch/"),
    }));`);
  expect(seen).toEqual({ zod: true, fr: false, ar: false, filter: false, re2js: false, inputSchema: false, pool: true, index: false, fetch: false });
});

test("zod's translations still load at their first use, the same as without the provider, and its English messages are unchanged", () => {
  const probe = `
    const z = require("zod");
    const names = Object.keys(z.locales);
    const english = z.object({ port: z.number() }).safeParse({ port: "22" }).error.issues[0].message;
    z.config(z.locales.fr());
    const french = z.number().safeParse("22").error.issues[0].message;
    z.config(z.locales.en());
    process.stdout.write(JSON.stringify({ names, english, french, has: "de" in z.locales, esm: z.locales.__esModule }));`;
  const plain = inProgram<object>(probe);
  const afterProvider = inProgram<Record<string, unknown>>(`${LOADED} require("pulumi-boundary/dynamic"); const before = loaded("/zod/v4/locales/fr.cjs");
    ${probe.replace("process.stdout.write(JSON.stringify({", "process.stdout.write(JSON.stringify({ before,")}`);
  expect(afterProvider).toEqual({ before: false, ...plain });
  expect((plain as { names: string[] }).names.length).toBeGreaterThan(40);
  expect(afterProvider.french).not.toEqual(afterProvider.english);
});

test("a filter input is still checked (the parser loads at the first filter) with the same message", () => {
  const seen = inProgram<{ before: boolean; failures: { property: string; reason: string }[]; after: boolean }>(`${LOADED}
    const p = require("pulumi-boundary/dynamic");
    const before = loaded("/dist/common/filter.js");
    p.check({}, { scopeId: "p_1234567890", name: "x", egressWorkerFilter: '"/name" ==' }).then((r) =>
      process.stdout.write(JSON.stringify({ before, failures: r.failures, after: loaded("/re2js/") })));`);
  expect(seen.before).toBe(false);
  expect(seen.failures).toHaveLength(1);
  expect(seen.failures[0]!.property).toBe("egressWorkerFilter");
  expect(seen.after).toBe(true);
});

test("undici's parts are the very classes and function its index exports, loaded from their own modules", () => {
  expect(UNDICI.from).toBe("modules");
  expect(UNDICI.Pool).toBe(undici.Pool);
  expect(UNDICI.buildConnector).toBe(undici.buildConnector);
  expect(UNDICI.request).toBe(undici.Dispatcher.prototype.request);
});

test("inputs that fail are still worded by the inputs' zod schema, which loads at the first of them", () => {
  const seen = inProgram<{ good: unknown[]; before: boolean; failures: { property: string; reason: string }[]; after: boolean }>(`${LOADED}
    const p = require("pulumi-boundary/dynamic");
    const schema = "/dist/provider/resource/input-schema.js";
    p.check({}, { scopeId: "p_1234567890", name: "web", sessionMaxSeconds: 60, hostSetIds: ["hsst_1234567890"] }).then((good) => {
      const before = loaded(schema);
      return p.check({}, { scopeId: "p_1234567890", name: "web", sessionMaxSeconds: 1.5, hostSetId: ["hsst_1"], type: "ssh2", hostSetIds: ["x_1"] })
        .then((r) => process.stdout.write(JSON.stringify({ good: good.failures, before, failures: r.failures, after: loaded(schema) })));
    });`);
  expect(seen.good).toEqual([]);
  expect(seen.before).toBe(false);
  expect(seen.failures).toEqual([
    { property: "type", reason: 'type must be one of "tcp", "ssh", "rdp"' },
    { property: "hostSetIds[0]", reason: "hostSetIds[0] must be a host set id starting with hsst_, hsplg_ or hs_" },
    { property: "sessionMaxSeconds", reason: "sessionMaxSeconds must be a whole number" },
    { property: "hostSetId", reason: "hostSetId is not an input of boundary:Target: did you mean hostSetIds?" },
  ]);
  expect(seen.after).toBe(true);
});
