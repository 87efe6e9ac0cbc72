/**
 * Every failure of `pulumi-boundary import` is one line naming the fix, never a stack trace
 * (issue 31): refused scopes, nothing listening, a refused token, an unknown scope, http:// to TLS,
 * an untrusted certificate; and the values it compares, as the field-kinds table says. The built
 * bin, a real process, against the real controller.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { BoundaryClient } from "../../provider/client";
import { oneLine } from "../../provider/estate/command";
import { comparable, unset } from "../../provider/estate/values";
import { selfSignedCert } from "../helpers/certs";
import { ADMIN_TOKEN, PROJECT, startTestController, useTestController } from "../helpers/controller";
import { message, runImport, stateText, work } from "../helpers/estate";
import { startFaultProxy } from "../helpers/fault-proxy";
jest.setTimeout(120_000);

test("unset and compared as the field-kinds table says: a list as a set, a kind's zero as unset; any zero of an attribute no input takes", () => {
  expect(comparable("hostSetIds", ["hsst_2", "hsst_1"])).toBe(comparable("hostSetIds", ["hsst_1", "hsst_2"]));
  expect([comparable("hostSetIds", []), comparable("defaultPort", 0), comparable("name", ""), comparable("name", null)]).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
  expect(comparable("defaultPort", 22)).toBe("22");
  // SDKv2 writes false for an attribute left out (enable_session_recording): not a value to report
  expect([unset(undefined, false), unset(undefined, true), unset(undefined, 0), unset(undefined, "sb_1")]).toEqual([true, false, true, false]);
});

test("Node's own advice for an untrusted certificate is dropped: the message names BOUNDARY_CACERT already", () => {
  // the words Node 22.15 and later append to a TLS failure (Node 20 does not: hence not through the bin)
  const node = "GET /v1/targets: self-signed certificate; if the root CA is installed locally, try running Node.js with --use-system-ca\n: set BOUNDARY_CACERT";
  expect(oneLine(node)).toBe("GET /v1/targets: self-signed certificate : set BOUNDARY_CACERT");
});

describe("every failure one line naming the fix, never a stack trace", () => {
  const c = useTestController({ emulation: "0.21" });
  const env = () => ({ BOUNDARY_ADDR: c.apiUrl, BOUNDARY_TOKEN: ADMIN_TOKEN });

  test("--scope global or an org without --recursive is refused before any call, naming --recursive", async () => {
    const proxy = await startFaultProxy(c.apiUrl);
    try {
      for (const scope of ["global", "o_1234567890"]) {
        expect(message(await runImport(["--scope", scope], { ...env(), BOUNDARY_ADDR: proxy.url }))).toMatch(
          new RegExp(
            `^pulumi-boundary import: --scope ${scope}: Targets live in projects: add --recursive to list every project below .*, or give a project id`,
          ),
        );
      }
      expect(proxy.seen).toEqual([]);
    } finally {
      await proxy.close();
    }
    expect(message(await runImport(["--live", "--scope", PROJECT]), 2)).toBe(
      "pulumi-boundary import: --live goes with --from-terraform (--scope reads the controller already)",
    );
  });

  test("nothing listening, a refused token, an unknown scope", async () => {
    const closed = await startTestController();
    const gone = closed.apiUrl;
    await closed.shutdown();
    expect(message(await runImport(["--scope", PROJECT], { ...env(), BOUNDARY_ADDR: gone }))).toMatch(
      new RegExp(`^pulumi-boundary import: GET /v1/targets: ECONNREFUSED.*nothing was sent: no controller answers at ${gone}, the address BOUNDARY_ADDR gives`),
    );
    expect(message(await runImport(["--scope", PROJECT], { ...env(), BOUNDARY_TOKEN: "at_0000000000_refused" }))).toMatch(
      /^pulumi-boundary import: BOUNDARY_TOKEN: .*401/,
    );
    expect(message(await runImport(["--scope", "p_0000000000"], env()))).toMatch(/--scope p_0000000000: no such scope .*: give an existing scope id/);
    // --live reads the same way; the Target exists, since the controller (as Boundary) looks it up
    // before it answers a refused token, and a Target it does not have is a 404 to any token
    const client = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN });
    let id: string;
    try {
      id = (await client.createTarget({ scope_id: PROJECT, name: "web", type: "tcp", attributes: { default_port: 22 } })).id;
    } finally {
      await client.close();
    }
    const dir = work();
    writeFileSync(
      path.join(dir, "s.tfstate"),
      stateText([{ mode: "managed", type: "boundary_target", name: "web", instances: [{ attributes: { id, name: "web", scope_id: PROJECT } }] }]),
    );
    expect(message(await runImport(["--from-terraform", "s.tfstate", "--live"], { ...env(), BOUNDARY_ADDR: gone }, dir))).toMatch(
      new RegExp(`^pulumi-boundary import: GET /v1/targets/${id}: ECONNREFUSED.*BOUNDARY_ADDR`),
    );
    expect(message(await runImport(["--from-terraform", "s.tfstate", "--live"], { ...env(), BOUNDARY_TOKEN: "at_0000000000_refused" }, dir))).toMatch(
      /^pulumi-boundary import: BOUNDARY_TOKEN: .*401/,
    );
  });

  test("http:// to a TLS listener, and a certificate this machine does not trust", async () => {
    const dir = work();
    const cert = selfSignedCert(dir, "api");
    const tls = await startTestController({
      api: { host: "127.0.0.1", port: 0, tls: { certFile: cert.certFile, keyFile: cert.keyFile, cert: cert.cert, key: readFileSync(cert.keyFile, "utf8") } },
    });
    try {
      const https = tls.apiUrl;
      const http = https.replace(/^https:/, "http:");
      expect(message(await runImport(["--scope", PROJECT], { ...env(), BOUNDARY_ADDR: http }))).toMatch(
        new RegExp(`^pulumi-boundary import: GET /v1/targets: .*serves TLS.*Use ${https} in boundary:addr \\(or BOUNDARY_ADDR\\)`),
      );
      const untrusted = await runImport(["--scope", PROJECT], { ...env(), BOUNDARY_ADDR: https });
      expect(message(untrusted)).toMatch(
        /^pulumi-boundary import: GET \/v1\/targets: .*the TLS handshake with .* failed.*BOUNDARY_CACERT.*BOUNDARY_TLS_INSECURE/,
      );
      expect(untrusted.stderr).not.toContain("--use-system-ca");
      // trusted, it answers
      const ok = await runImport(["--scope", PROJECT], { ...env(), BOUNDARY_ADDR: https, BOUNDARY_CACERT: cert.certFile });
      expect(message(ok)).toMatch(/no Target found/);
    } finally {
      await tls.shutdown();
    }
  });
});
