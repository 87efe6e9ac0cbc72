/**
 * A first program compiles: a Pulumi TypeScript program using the package, with Pulumi's own
 * TypeScript template `tsconfig.json` (strict, `module` commonjs, `moduleResolution` node, no
 * `esModuleInterop`, no `skipLibCheck`), passes `tsc --noEmit` against the package as npm installs
 * it. The project's own tsconfig hides what this catches: zod 4's declarations fail there (TS1259
 * in its locales), so the package's declarations must not reach zod (scripts/declarations.js), and
 * its subpaths need `typesVersions` under that resolution, which ignores `exports`.
 *
 * It reuses the tarball jest's globalSetup packed and installed (PB_PACKED_PROGRAM): the program is
 * a folder inside that install, so Node's resolution finds the installed package and its
 * dependencies; no second pack or install. One tsc run, most of it reading @pulumi/pulumi's types.
 */
import { typeCheckAsTemplate } from "../helpers/template";

/** A first program: the README's Target, the functions, the client, and each subpath the package exports. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as boundary from "pulumi-boundary";
import { DynamicTargetProvider } from "pulumi-boundary/dynamic";
import { startController, type RunningController } from "pulumi-boundary/controller";

const web = new boundary.Target("web", {
  scopeId: "p_1234567890",
  name: "web",
  hostSetIds: ["hsst_1234567891"],
  applicationCredentialLibraryIds: ["clvlt_1234567890"],
  defaultPort: 22,
});
export const webId: pulumi.Output<string> = web.id;

// the types are the package's, not any: a port is a number
// @ts-expect-error defaultPort takes a number
new boundary.Target("wrong", { scopeId: "p_1234567890", defaultPort: "22" });

export const found = boundary.getTargets({ scopeId: "p_1234567890" }).apply((ts) => ts.map((t) => t.id));
export async function read(client: boundary.BoundaryClient): Promise<string | undefined> {
  const t: boundary.ApiTarget = await client.getTarget("ttcp_1234567890");
  return t.name;
}
export const provider: DynamicTargetProvider | undefined = undefined;
export const started: Promise<RunningController> | undefined = process.env.START ? startController({} as never) : undefined;
`;

test("a Pulumi TypeScript program using the package passes tsc --noEmit under Pulumi's template tsconfig", () => {
  const r = typeCheckAsTemplate("template-program-", PROGRAM);
  expect(r.diagnostics).toBe("");
  expect([r.status, r.signal]).toEqual([0, null]);
}, 300_000);
