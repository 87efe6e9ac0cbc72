/**
 * The release table resolves as the changelog of each fact says: a row's facts carry on to every
 * later release until a row changes them, and the lookups read the first release that has each.
 */
import {
  NEWEST,
  RELEASES,
  RELEASE_KEYS,
  actionFailure,
  anyReleasePrefixes,
  describeReleases,
  fieldSince,
  knows,
  release,
  replacedSince,
  requiredSince,
  requires,
  takesValue,
  valueSince,
  type SessionFacts,
} from "../../wire/releases";

test("a row per minor release 0.4 … 0.21, and the spec first", () => {
  // every minor release from 0.4 on, in order, none missing (a new release is a row at the end)
  expect(RELEASE_KEYS).toEqual(["spec", ...Array.from({ length: RELEASE_KEYS.length - 1 }, (_, i) => `0.${i + 4}`)]);
  expect(RELEASE_KEYS).toContain("0.21");
  expect(release("0.21").patch).toBe("0.21.3");
  expect(NEWEST.release).toBe(RELEASE_KEYS.at(-1));
  // the keys (read from the rows, without resolving them) name the resolved releases, in their order
  expect(RELEASES.map((r) => r.release)).toEqual(RELEASE_KEYS);
  for (const r of RELEASES) expect(r.patch === "spec" || r.patch.startsWith(`${r.release}.`)).toBe(true);
});

test("a release that discards a body's unknown keys reads bodies as its gateway does (the controller decodes ports there alone)", () => {
  for (const r of RELEASES) if (r.unknownKeys === "discarded") expect([r.release, r.bodyDecoding]).toEqual([r.release, "gateway"]);
});

test("the lists' names, routes and prefixes change where the releases changed them", () => {
  const hosts = (key: Parameters<typeof release>[0]) => release(key).lists.hostSetIds!;
  expect(hosts("0.4").routes.map((r) => r.noun)).toEqual(["host-sets"]);
  expect(hosts("0.10").routes.map((r) => r.noun)).toEqual(["host-sets", "host-sources"]);
  expect(hosts("0.11").routes.map((r) => r.noun)).toEqual(["host-sources"]);
  expect(hosts("0.6").prefixes).toEqual(["hsst_"]);
  expect(hosts("0.9").prefixes).toEqual(["hsst_", "hs_"]);
  expect(hosts("0.21").prefixes).toEqual(["hsst_", "hsplg_", "hs_"]);
  const creds = (key: Parameters<typeof release>[0]) => release(key).lists.applicationCredentialLibraryIds!;
  expect(creds("0.8").answers).toEqual(["application_credential_library_ids", "application_credential_source_ids"]);
  expect(creds("0.9").answers).toEqual(["application_credential_source_ids"]);
  expect(creds("0.13").routes).toEqual([{ noun: "credential-sources", reads: ["application_credential_source_ids", "brokered_credential_source_ids"] }]);
  expect(creds("0.14").answers).toEqual(["brokered_credential_source_ids"]);
  expect(release("0.9").lists.injectedApplicationCredentialSourceIds).toBeUndefined();
  expect(release("0.12").lists.injectedApplicationCredentialSourceIds!.prefixes).toContain("clvsclt_");
  expect(anyReleasePrefixes("applicationCredentialLibraryIds")).toEqual([
    "clvlt_",
    "clvllt_",
    "credup_",
    "cred_",
    "credspk_",
    "credupd_",
    "credp_",
    "credjson_",
  ]);
  expect(anyReleasePrefixes("hostSetIds")).toEqual(["hsst_", "hsplg_", "hs_"]);
});

test("fields, values, requirements and replacements accumulate from the release that brought them", () => {
  expect([fieldSince("address"), fieldSince("defaultClientPort"), fieldSince("injectedApplicationCredentialSourceIds"), fieldSince("name")]).toEqual([
    "0.12",
    "0.13",
    "0.10",
    undefined,
  ]);
  expect([knows(release("0.11"), "address"), knows(release("0.12"), "address"), knows(release("spec"), "address")]).toEqual([false, true, false]);
  expect([valueSince("type", "ssh"), valueSince("type", "rdp"), valueSince("type", "tcp")]).toEqual(["0.10", "0.20", undefined]);
  expect([takesValue(release("0.4"), "type", "ssh"), takesValue(release("0.4"), "type", "tcp")]).toEqual([false, true]);
  expect(requiredSince("defaultPort")).toBe("0.9");
  expect([requires(release("0.8"), "defaultPort"), requires(release("0.21"), "defaultPort")]).toEqual([false, true]);
  expect(replacedSince("workerFilter")).toEqual({ since: "0.12", by: "egressWorkerFilter" });
});

test("defaults, rules, pagination, the rate limiter, aliases and authorize-session's fields by release", () => {
  expect(RELEASES.filter((r) => r.defaults.sessionConnectionLimit !== -1).map((r) => [r.release, r.defaults.sessionConnectionLimit])).toEqual(
    ["spec", "0.4", "0.5", "0.6", "0.7", "0.8"].map((r) => [r, 1]),
  );
  expect(release("0.9").withinMinor).toMatch(/0\.9\.0 still defaults session_connection_limit to 1/);
  expect(release("0.11").withinMinor).toBeUndefined();
  // the same fact, as data: only the 0.9 row has an earlier patch whose default differs
  expect(RELEASES.filter((r) => r.withinMinorDefaults).map((r) => [r.release, r.withinMinorDefaults])).toEqual([["0.9", { sessionConnectionLimit: 1 }]]);
  expect([release("0.16").descriptions, release("0.17").descriptions]).toEqual(["print", "print-or-space"]);
  expect([release("0.14").pagination, release("0.15").pagination]).toEqual([false, true]);
  expect([release("0.13").rateLimiter, release("0.14").rateLimiter?.list]).toEqual([undefined, { authToken: 150, ipAddress: 1500, total: 1500 }]);
  expect([release("0.13").routing, release("0.14").routing, release("spec").routing]).toEqual(["gateway", "rate-limiter", "ours"]);
  // the admin UI answers outside /v1/ in every release binary; the spec's controller answers in plain text
  expect(RELEASES.filter((r) => r.outsideApi !== "ui").map((r) => [r.release, r.outsideApi])).toEqual([["spec", "ours"]]);
  expect([release("0.15").aliases, release("0.16").aliases]).toEqual([false, true]);
  expect(release("0.15").authorizeSession.fields).toContain("endpoint_port");
  expect(release("0.14").authorizeSession.fields).not.toContain("endpoint_port");
  expect(release("0.8").authorizeSession.credentialOrigin).toEqual(["credential_source", "credential_library"]);
  expect(release("0.5").authorizeSession.credentialOrigin).toEqual(["credential_library"]);
  expect([release("0.11").addressAlways, release("0.12").addressAlways]).toEqual([false, true]);
});

/** Where a fact of authorize-session changes along the releases 0.4 … 0.21: each release whose value differs from the one before, with its value. */
function changesOf<K extends keyof SessionFacts>(fact: K): [string, SessionFacts[K]][] {
  const real = RELEASES.filter((r) => r.release !== "spec");
  return real
    .filter((r, i) => i === 0 || JSON.stringify(r.authorizeSession[fact]) !== JSON.stringify(real[i - 1]!.authorizeSession[fact]))
    .map((r) => [r.release, r.authorizeSession[fact]]);
}

test("authorize-session's facts change where each release's source changed them (read at every tag)", () => {
  const filtered = "No workers are available to handle this session, or all have been filtered.";
  expect(changesOf("noHosts")).toEqual([
    ["0.4", "No hosts found from available target host sets."],
    ["0.5", "No hosts found from available target host sources."],
    ["0.7", "No endpoint found from available target host sources."],
    ["0.12", "No host sources or address found for given target."],
  ]);
  expect(changesOf("workersFirst")).toEqual([
    ["0.4", true],
    ["0.12", false],
  ]);
  expect(changesOf("noWorkers")).toEqual([
    ["0.4", { kind: "FailedPrecondition", none: filtered, filtered }],
    ["0.13", { kind: "FailedPrecondition", none: "No workers are available to handle this session.", filtered }],
    [
      "0.19",
      {
        kind: "Internal",
        none: "server.(Repository).SelectSessionWorkers: No workers are available to handle this session.: state violation: error #133",
        filtered: `server.(Repository).SelectSessionWorkers: server.filterWorkers: ${filtered}: state violation: error #133`,
      },
    ],
  ]);
  expect(changesOf("tokenFields")).toEqual([
    ["0.4", []],
    ["0.13", ["default_client_port"]],
    ["0.15", ["default_client_port", "endpoint_port", "expiration"]],
  ]);
  expect(changesOf("certificateNamesWorkers")).toEqual([
    ["0.4", false],
    ["0.8", true],
  ]);
  // v0.19.5 is built with Go 1.25.7 (.go-version); 0.19.0–0.19.3 with Go 1.23–1.24
  expect(changesOf("subjectKeyId")).toEqual([
    ["0.4", "sha1"],
    ["0.19", "sha256-160"],
  ]);
  expect(release("0.19").withinMinor).toMatch(/0\.19\.0–0\.19\.3 \(Go 1\.23–1\.24\) make the subject key id from SHA-1/);
  // every prefix host.SubtypeFromId / subtypes.Register give the host subtypes (catalog, set, host): a host set's id is well formed
  expect(changesOf("hostIds")).toEqual([
    ["0.4", ["hst_", "hsst_", "hcst_"]],
    // TS validateAuthorizeSessionRequest takes plugin.Subtype from 0.7.5
    ["0.7", ["hst_", "hsst_", "hcst_", "h_", "hs_", "hc_"]],
    ["0.10", ["hst_", "hsst_", "hcst_", "hplg_", "hsplg_", "hcplg_", "h_", "hs_", "hc_"]],
  ]);
  // version/feature_manager.go UseTargetIdForHostId: "< 0.14.0", and the address came in 0.12
  expect(changesOf("targetIdAsHostId")).toEqual([
    ["0.4", false],
    ["0.12", true],
    ["0.14", false],
  ]);
  expect(changesOf("credentialOrigin")).toEqual([
    ["0.4", ["credential_library"]],
    ["0.6", ["credential_source", "credential_library"]],
    ["0.9", ["credential_source"]],
  ]);
  // TS fills connection_limit from v0.19.0 (real v0.15.5 answered none)
  expect(changesOf("fields").map(([r]) => r)).toEqual(["0.4", "0.15", "0.16", "0.19"]);
  expect(release("0.18").authorizeSession.fields).not.toContain("connection_limit");
  expect(release("0.19").authorizeSession.fields).toContain("connection_limit");
  // the spec's controller answers as v0.4
  expect(release("spec").authorizeSession).toEqual(release("0.4").authorizeSession);
});

test("the actions' 500s as each release words them", () => {
  const cause = "updated target and 0 rows updated: search issue: error #1101";
  expect(actionFailure(release("0.4"), "host", "remove", cause)).toBe(
    "Unable to remove host sets from target: target.(Repository).DeleteTargeHostSets: db.DoTx: target.(Repository).DeleteTargeHostSets: updated target and 0 rows updated: search issue: error #1101.",
  );
  expect(actionFailure(release("0.11"), "host", "add", cause)).toMatch(/^Unable to add host sources to target: target\.\(Repository\)\.AddTargetHostSources: /);
  expect(actionFailure(release("0.12"), "host", "add", cause)).toBe("Failed to add target host sources");
  expect(actionFailure(release("0.21"), "host", "remove", cause)).toMatch(/^Unable to remove host sources from target: /);
});

test("a set of releases is named for messages", () => {
  expect(describeReleases(["spec", "0.4"])).toBe("Boundary v0.4 (the v0.4 API)");
  expect(describeReleases(["0.7", "0.8", "0.9", "0.10"])).toBe("Boundary 0.7–0.10");
  expect(describeReleases(RELEASE_KEYS.filter((k) => k !== "spec" && Number(k.split(".")[1]) >= 12))).toBe("Boundary 0.12 or later");
});

test("the rate limiter's defaults are the table's: list and every other action, per token, IP and in total", async () => {
  const { defaultPolicies } = await import("../../controller/rate-limit");
  const policies = (key: Parameters<typeof release>[0]) =>
    defaultPolicies(release(key).rateLimiter!).map((p) => `${p.action}:${p.per}=${p.limit}/${p.periodMs}`);
  const v0213 = [
    "list:auth-token=150/30000",
    "list:ip-address=1500/30000",
    "list:total=1500/30000",
    "other:auth-token=3000/30000",
    "other:ip-address=30000/30000",
    "other:total=30000/30000",
  ];
  // internal/ratelimit/config.go, the same constants at 0.14.3 and 0.21.3
  expect(policies("0.14")).toEqual(v0213);
  expect(policies("0.21")).toEqual(v0213);
});
