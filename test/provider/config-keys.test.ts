/**
 * A misspelt stack config key of the package (`boundary:address`) is refused on the dynamic route,
 * through Pulumi's real dynamic-provider host, naming the nearest known key (the plugin route's
 * refusal is pinned in test/plugin/pulumi-do.test.ts), instead of the default address being used.
 */
import { engine, secret } from "../../harness/engine";
import { packedProgram, serializedProvider, startHost } from "../../harness/provider-host";
import { configKeyProblem } from "../../provider/config";
import { ADMIN_TOKEN, PROJECT } from "../helpers/controller";

test("the dynamic host refuses boundary:address, naming boundary:addr; other packages' keys are not its business", async () => {
  const program = packedProgram();
  const host = await startHost(program);
  try {
    const e = engine(host, "urn:pulumi:dev::host-test::pulumi-nodejs:dynamic/boundary:Target::web");
    await e.configure({ "boundary:address": "http://127.0.0.1:1", "boundary:token": secret(ADMIN_TOKEN), "aws:region": "eu-west-1" });
    await expect(e.check({ scopeId: PROJECT, name: "x", __provider: serializedProvider(program) }, {})).rejects.toThrow(
      /boundary:address is not a config key of the boundary provider: did you mean boundary:addr\? \(its keys: boundary:addr, boundary:token, boundary:apiGeneration, boundary:authMethodId, boundary:authMethodLoginName, boundary:authMethodPassword\)/,
    );
  } finally {
    await host.stop();
  }
});

test("the nearest key: by edit distance, or one key inside the other; none when nothing is close", () => {
  expect(configKeyProblem("addr")).toBeUndefined();
  expect(configKeyProblem("version")).toBeUndefined();
  expect(configKeyProblem("adr")).toMatch(/did you mean boundary:addr\?/);
  expect(configKeyProblem("authToken")).toMatch(/did you mean boundary:token\?/);
  expect(configKeyProblem("api_generation")).toMatch(/did you mean boundary:apiGeneration\?/);
  expect(configKeyProblem("colour")).toBe(
    "boundary:colour is not a config key of the boundary provider (its keys: boundary:addr, boundary:token, boundary:apiGeneration, " +
      "boundary:authMethodId, boundary:authMethodLoginName, boundary:authMethodPassword)",
  );
});
