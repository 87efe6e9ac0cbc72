/**
 * The provider against a controller serving TLS with a certificate the client does not trust,
 * through the real dynamic-provider host: a failed TLS handshake proves nothing was sent, so a
 * create fails at once, naming the address and the settings that make the certificate trusted
 * (BOUNDARY_CACERT, BOUNDARY_TLS_INSECURE), never as an answer lost after which the Target may exist.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { engine, secret } from "../../harness/engine";
import { packedProgram, serializedProvider, startHost, type Host } from "../../harness/provider-host";
import { selfSignedCert } from "../helpers/certs";
import { startCli, type CliProcess } from "../helpers/cli";

const TOKEN = "at_2222222222_s1TlsTestToken";
const URN = "urn:pulumi:dev::host-test::pulumi-nodejs:dynamic/boundary:Target::web";
const dir = mkdtempSync(path.join(tmpdir(), "pb-tls-"));
const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });

/**
 * A root CA, an intermediate it signs and a leaf for 127.0.0.1 the intermediate signs; the leaf's
 * file carries the intermediate too (as servers send their chain). Trusting nothing, a client
 * fails with UNABLE_TO_GET_ISSUER_CERT_LOCALLY; trusting the root, it connects.
 */
function chain(): { certFile: string; keyFile: string; rootFile: string } {
  const f = (n: string) => path.join(dir, n);
  writeFileSync(f("ca.ext"), "basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n");
  writeFileSync(f("leaf.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  const key = (n: string) => openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", f(n));
  key("root.key");
  openssl(
    "req",
    "-x509",
    "-new",
    "-key",
    f("root.key"),
    "-out",
    f("root.crt"),
    "-days",
    "1",
    "-subj",
    "/CN=test root",
    "-addext",
    "basicConstraints=critical,CA:true",
  );
  key("int.key");
  openssl("req", "-new", "-key", f("int.key"), "-out", f("int.csr"), "-subj", "/CN=test intermediate");
  openssl(
    "x509",
    "-req",
    "-in",
    f("int.csr"),
    "-CA",
    f("root.crt"),
    "-CAkey",
    f("root.key"),
    "-set_serial",
    "2",
    "-out",
    f("int.crt"),
    "-days",
    "1",
    "-extfile",
    f("ca.ext"),
  );
  key("leaf.key");
  openssl("req", "-new", "-key", f("leaf.key"), "-out", f("leaf.csr"), "-subj", "/CN=leaf");
  openssl(
    "x509",
    "-req",
    "-in",
    f("leaf.csr"),
    "-CA",
    f("int.crt"),
    "-CAkey",
    f("int.key"),
    "-set_serial",
    "3",
    "-out",
    f("leaf.crt"),
    "-days",
    "1",
    "-extfile",
    f("leaf.ext"),
  );
  writeFileSync(f("chain.crt"), readFileSync(f("leaf.crt"), "utf8") + readFileSync(f("int.crt"), "utf8"));
  return { certFile: f("chain.crt"), keyFile: f("leaf.key"), rootFile: f("root.crt") };
}

/** The controller's CLI serving its API over TLS with `cert`. */
function startTls(cert: { certFile: string; keyFile: string }): Promise<CliProcess> {
  const config = path.join(dir, `tls-${path.basename(cert.certFile)}.hcl`);
  const tls = `tls_cert_file = "${cert.certFile}"\n  tls_key_file = "${cert.keyFile}"`;
  writeFileSync(config, `listener "tcp" {\n  purpose = "api"\n  ${tls}\n}\nlistener "tcp" {\n  purpose = "ops"\n  tls_disable = true\n}\n`);
  return startCli(["--token", TOKEN, "--config", config]);
}

const selfSigned = selfSignedCert(dir, "untrusted");
const signed = chain();
const started: { stop(): unknown }[] = [];
let providerText: string;

beforeAll(() => {
  providerText = serializedProvider(packedProgram());
}, 60_000);
afterAll(async () => {
  for (const s of started.reverse()) await s.stop();
});

/** A create through a fresh host (its environment `env`) against a controller serving `cert`: the new id, or the gRPC error's details. */
async function create(cert: { certFile: string; keyFile: string }, env: Record<string, string>): Promise<{ id?: string; error?: string; apiUrl: string }> {
  const cli = await startTls(cert);
  started.push({ stop: () => cli.child.kill("SIGKILL") });
  const host: Host = await startHost(packedProgram(), { BOUNDARY_MAX_RETRIES: "0", BOUNDARY_CACERT: "", BOUNDARY_TLS_INSECURE: "", ...env });
  started.push(host);
  const e = engine(host, URN);
  await e.configure({ "boundary:addr": cli.apiUrl, "boundary:token": secret(TOKEN) });
  const checked = await e.check({ scopeId: "p_1234567890", name: "tls", __provider: providerText }, {});
  return e.create(checked.inputs).then(
    ({ id }) => ({ id, apiUrl: cli.apiUrl }),
    (err: { details?: string }) => ({ error: String(err.details), apiUrl: cli.apiUrl }),
  );
}

test.each([
  ["a self-signed certificate", () => selfSigned],
  ["a chain whose root this machine does not trust", () => signed],
])("%s: create fails at once, naming the address, BOUNDARY_CACERT and BOUNDARY_TLS_INSECURE; nothing can exist", async (_, cert) => {
  const { id, error, apiUrl } = await create(cert(), {});
  expect(apiUrl).toMatch(/^https:/);
  expect(id).toBeUndefined();
  expect(error).toContain(`the TLS handshake with ${apiUrl} failed`);
  expect(error).toContain("nothing was sent");
  expect(error).toContain("BOUNDARY_CACERT");
  expect(error).toContain("BOUNDARY_TLS_INSECURE");
  // never the lost answer's story (the lookup, "may exist"), nor the story of a controller that is not running
  expect(error).not.toMatch(/may exist|was lost|asked afterwards|Is the controller running/);
  expect(error).not.toContain(TOKEN);
});

test("the same chain, its root trusted through BOUNDARY_CACERT: the create succeeds (the chain itself is sound)", async () => {
  const { id, error } = await create(signed, { BOUNDARY_CACERT: signed.rootFile });
  expect(error).toBeUndefined();
  expect(id).toMatch(/^ttcp_/);
});
