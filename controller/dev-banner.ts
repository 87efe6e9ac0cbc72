/**
 * The banner `pulumi-boundary dev` prints once the controller listens: what it speaks, its
 * addresses, the admin token and the seeded ids, and a `Try:` line that works pasted into a shell.
 */
import { X509Certificate } from "node:crypto";
import type { DevConfig } from "./config/dev-config";
import { describeEmulation } from "./emulation";
import { printable } from "./log";
import type { RunningController } from "./server";
import { hasAnyIdPrefix } from "../common/rules";

/** A token's life as the banner shows it: Boundary's default 7 days unless configured. */
function formatTtl(ms: number | undefined): string {
  if (ms === undefined) return "7 days";
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${ms / 1000}s`;
}

/** A shell word that bash, zsh and sh read back as `text` (single quotes; `'` as '\''). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The banner's example: one line that works pasted into bash, zsh or sh. The variables are
 * exported first (an assignment in front of a command is not seen by `$VAR` on the same line),
 * every value is quoted (`?` and `[` are globs in zsh), and no `<placeholder>` (a redirect).
 */
function tryLine(config: DevConfig, c: RunningController, project: string): string {
  const vars = [`BOUNDARY_ADDR=${shellWord(c.apiUrl)}`];
  if (config.generatedToken) vars.push(`BOUNDARY_TOKEN=${shellWord(config.token)}`);
  const cacert = config.api.tls && selfSigned(config.api.tls.cert) ? ` --cacert ${shellWord(config.api.tls.certFile)}` : "";
  const curl = `curl -sS${cacert} -H "Authorization: Bearer $BOUNDARY_TOKEN" "$BOUNDARY_ADDR/v1/targets?scope_id=${project}"`;
  return `export ${vars.join(" ")}; ${curl}`;
}

/** True when the certificate signed itself (then curl needs it as its CA). */
function selfSigned(pem: string): boolean {
  try {
    const cert = new X509Certificate(pem);
    return cert.checkIssued(cert);
  } catch {
    return false;
  }
}

/** The seeded ids the emulated release takes (the spec's controller refuses plugin host sets and static credentials). */
function acceptedFixtures(config: DevConfig, c: RunningController) {
  const lists = c.store.release.lists;
  const hostPrefixes = lists.hostSetIds?.prefixes ?? [];
  const credentialPrefixes = Object.entries(lists).flatMap(([field, l]) => (field === "hostSetIds" ? [] : l.prefixes));
  const f = config.fixtures;
  return {
    hostSets: f.host_sets.filter((h) => hasAnyIdPrefix(h.id, hostPrefixes)),
    libraries: f.credential_libraries.filter((l) => hasAnyIdPrefix(l.id, credentialPrefixes)),
    credentials: f.credentials.filter((l) => hasAnyIdPrefix(l.id, credentialPrefixes)),
  };
}

/** Writes the banner to standard output. */
export function printBanner(config: DevConfig, c: RunningController): void {
  const f = config.fixtures;
  const project = f.scopes.find((s) => s.type === "project")?.id ?? "p_1234567890";
  const seeded = acceptedFixtures(config, c);
  const lines = [
    "==> Boundary local controller started",
    `           Speaks: ${describeEmulation(c.store.release)}`,
    `        API address: ${c.apiUrl}${config.api.tls ? ` (TLS: ${config.api.tls.certFile})` : ""}`,
    `        Ops address: ${c.opsUrl} (GET /health, GET /metrics)${config.ops.tls ? ` (TLS: ${config.ops.tls.certFile})` : ""}`,
    `        Admin token: ${config.generatedToken ? config.token : "(as given with --token)"}`,
    `          Read-only: ${config.readOnlyToken ? "(as given with --read-only-token)" : "disabled"}`,
    ...f.auth_methods.map(
      (m) =>
        `        Auth method: ${m.id} (${m.accounts.map((a) => `${a.login_name}${a.grant === "read-only" ? " read-only" : ""}`).join(", ")}; ` +
        `POST /v1/auth-methods/${m.id}:authenticate, tokens live ${formatTtl(config.authTokenTtlMs)})`,
    ),
    `     Graceful wait: ${config.gracefulShutdownWaitMs ? `${config.gracefulShutdownWaitMs} ms` : "disabled"}`,
    `          Log level: ${config.logLevel}${config.logLevel === "info" ? " (--log-level debug logs each request)" : ""}`,
    `            Storage: in memory: Targets are gone when the controller stops`,
    `             Scopes: ${f.scopes.map((s) => `${s.id} (${s.type})`).join(", ")}`,
    `          Host sets: ${seeded.hostSets.map((h) => `${h.id} [${h.hosts.map((x) => `${x.id} ${x.address}`).join(", ")}]`).join(", ") || "none"}`,
    `Credential libraries: ${seeded.libraries.map((l) => l.id).join(", ") || "none"}`,
    ` Static credentials: ${seeded.credentials.map((l) => l.id).join(", ") || "none"}`,
    `            Workers: ${f.workers.map((w) => w.name).join(", ") || "none"}`,
    ...(config.generatedToken ? [] : ["     (set BOUNDARY_TOKEN to the token given with --token, then:)"]),
    `     Try: ${tryLine(config, c, project)}`,
    "",
  ];
  // what the fixtures file says is data: never a control character to the terminal
  process.stdout.write(lines.map(printable).join("\n") + "\n");
}
