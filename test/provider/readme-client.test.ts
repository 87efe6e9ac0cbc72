/**
 * The `BoundaryClient` example of docs/provider.md, its text taken from that page, run as written against the
 * real `pulumi-boundary dev` (the spec's v0.4 API) and `--emulate 0.21`: it must work on both ends.
 * And v0.4's own list methods against a current release: their 405 names the method to use.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import * as boundary from "../../provider";
import { ActionNotRoutedError, BoundaryClient } from "../../provider/client";
import { requiredSince } from "../../wire/releases";
import { startCli, type CliProcess } from "../helpers/cli";

const TOKEN = "at_2222222222_s1ReadmeClientToken";
const DOC = readFileSync(path.join(__dirname, "..", "..", "docs", "provider.md"), "utf8");

/** The first ```ts block under the page's `BoundaryClient` heading, as its text. */
function example(): string {
  const section = DOC.slice(DOC.indexOf("## `BoundaryClient`"));
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error("docs/provider.md: no ts block under ## `BoundaryClient`");
  return m[1]!;
}

/** Runs the example's code as a program would, with `boundary` the package and `addr`, `token` given. */
async function runExample(addr: string): Promise<void> {
  const js = ts.transpileModule(`export {};\n(async () => {\n${example()}\nawait client.close();\n})()`, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const run = new Function("exports", "boundary", "addr", "token", `return ${js.replace(/^.*?\(async/s, "(async")}`) as (...args: unknown[]) => Promise<void>;
  await run({}, boundary, addr, TOKEN);
}

const started: CliProcess[] = [];
afterAll(async () => {
  for (const cli of started) {
    cli.child.kill("SIGKILL");
    await cli.exited;
  }
});

test("the documented example sets host sources and adds credential sources (and says which release needs a default port)", () => {
  expect(example()).toMatch(/setHostSources\(/);
  expect(example()).toMatch(/addCredentialSources\(/);
  expect(DOC).toContain(`A \`tcp\` Target needs \`attributes.default_port\` from Boundary ${requiredSince("defaultPort")}\non`);
});

test.each([[[] as string[]], [["--emulate", "0.21"]]])("pulumi-boundary dev %j: the documented example works as written", async (flags) => {
  const cli = await startCli(["--token", TOKEN, ...flags]);
  started.push(cli);
  await runExample(cli.apiUrl);
  const client = new BoundaryClient({ addr: cli.apiUrl, token: TOKEN }, {});
  try {
    const [t] = await client.listTargets({ scopeId: "p_1234567890", filter: '"/item/name" == "db"' });
    const got = await client.getTarget(t!.id);
    // whatever names the release answers under
    const record = got as Record<string, unknown>;
    expect(record.host_source_ids ?? record.host_set_ids).toEqual(["hsst_1234567890"]);
    expect(record.brokered_credential_source_ids ?? record.application_credential_library_ids).toEqual(["clvlt_1234567890"]);
    expect(got.version).toBe(3);
  } finally {
    await client.close();
  }
});

test("v0.4's list methods against --emulate 0.21: a 405 saying the controller is a current release, naming the method to use", async () => {
  const cli = await startCli(["--token", TOKEN, "--emulate", "0.21"]);
  started.push(cli);
  const client = new BoundaryClient({ addr: cli.apiUrl, token: TOKEN }, {});
  try {
    const t = await client.createTarget({ scope_id: "p_1234567890", name: "old-ways", type: "tcp", attributes: { default_port: 22 } });
    const cases: [() => Promise<unknown>, RegExp][] = [
      [
        () => client.setHostSets(t.id, t.version, ["hsst_1234567890"]),
        /Boundary 0\.11 and later have no :set-host-sets .*:set-host-sources.*BoundaryClient\.setHostSources/,
      ],
      [
        () => client.addCredentialLibraries(t.id, t.version, ["clvlt_1234567890"]),
        /Boundary 0\.9 and later have no :add-credential-libraries .*:add-credential-sources.*BoundaryClient\.addCredentialSources/,
      ],
    ];
    for (const [call, message] of cases) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ActionNotRoutedError);
      expect((err as ActionNotRoutedError).code).toBe("BOUNDARY_ACTION_NOT_ROUTED");
      expect((err as Error).message).toMatch(/^POST \/v1\/targets\/ttcp_\w+:\S+: 405 .*This controller is a current release of Boundary/);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).toContain("Nothing was changed.");
    }
    expect((await client.getTarget(t.id)).version).toBe(1);
  } finally {
    await client.close();
  }
});
