/**
 * The release table audited column by column: for every fact (a column of `wire/release-rows.ts`),
 * the releases where its value changes, as read in Boundary's source at the tag where it starts,
 * the tag just before, and the tag where a later row changes it again. The table is iterated, so a
 * row that drifts from what these tags say fails here, and a new column fails until it is audited.
 *
 * `read` names the tags and files each changelog was read at (hashicorp/boundary; `TS` is
 * handlers/targets/target_service.go, `TP` target.proto, `SP` target_service.proto). A scalar
 * column's changes carry its values; a compound column's carry the releases only (its values are
 * asserted by test/wire/releases.test.ts and the controller's suites).
 */
import { BOUNDARY_RELEASES, RELEASES, release, type Release } from "../../wire/releases";

/** A column's changelog: each release whose value differs from the release before, and what was read to say so. */
interface Audit {
  read: string;
  changes: readonly (string | readonly [string, unknown])[];
}

// prettier-ignore
const AUDIT: Record<string, Audit> = {
  actions: { read: "TS IdActions at v0.4.0, v0.5.0, v0.7.2/v0.7.3, v0.8.1, v0.9.0, v0.10.5, v0.11.0, v0.14.3, v0.21.3", changes: ["0.4", "0.5", "0.7", "0.9", "0.11"] },
  lists: { read: "SP routes at every tag; credential and host prefixes (internal/credential, internal/host/*/ids.go) at v0.9.1, v0.10.0, v0.11.2, v0.12.0, v0.19.5–v0.21.0", changes: ["0.4", "0.5", "0.7", "0.9", "0.10", "0.11", "0.12", "0.14", "0.20", "0.21"] },
  fields: { read: "TP at every tag (address 540 from v0.12.0, default_client_port from v0.13.0, injected 520 from v0.10.0)", changes: ["0.4", "0.10", "0.12", "0.13"] },
  values: { read: "TP ssh_target_attributes from v0.10.0, rdp_target_attributes from v0.20.0", changes: ["0.4", "0.10", "0.20"] },
  requires: { read: "tcp/tcp.go Vet at v0.7.4 (none) and v0.9.0 (\"This field is required.\")", changes: ["0.4", "0.9"] },
  replaces: { read: "TS validateCreateRequest at v0.11.2 and v0.12.0 (worker_filter deprecated)", changes: ["0.4", "0.12"] },
  defaults: { read: "internal/target/options.go at every tag (1 until v0.9.0, -1 from v0.9.1)", changes: ["0.4", "0.9"] },
  withinMinorDefaults: { read: "internal/target/options.go at v0.9.0 and v0.9.1", changes: ["0.4", "0.9", "0.10"] },
  descriptions: { read: "handlers/verifiers.go at every tag (IsSpace from v0.17.0)", changes: [["0.4", "print"], ["0.17", "print-or-space"]] },
  addressBrackets: { read: "TS net.SplitHostPort up to v0.19.2, util.ParseAddress from v0.19.3", changes: [["0.4", "taken"], ["0.19", "refused"]] },
  addressAlways: { read: "TS toProto `out.Address = wrapperspb.String(…)` from v0.12.0", changes: [["0.4", false], ["0.12", true]] },
  addressChildRow: { read: "internal/target/repository.go UpdateTarget \"If the Address field is the only present change\" from v0.12.0", changes: [["0.4", false], ["0.12", true]] },
  credentialSourceOrder: { read: "observed (v0.12.2, v0.15.5, v0.21.3); the view target_credential_source (a UNION) exists from v0.9.0, so where it starts is not settled", changes: [["0.4", "attached"], ["0.12", "collation"]] },
  hostSetOrder: { read: "observed on real v0.4.0 (target_set view, no ORDER BY); later: the emulation's own order", changes: [["0.4", "created"], ["0.5", "attached"]] },
  pagination: { read: "SP list_token from v0.15.0", changes: [["0.4", false], ["0.15", true]] },
  emptyList: { read: "SP ListTargetsResponse at v0.14.5 and v0.15.0; observed on real v0.15.5", changes: ["0.4", "0.15"] },
  listItemsCarryLists: { read: "the repository's list query at every tag loads no lists", changes: [["0.4", false]] },
  rateLimiter: { read: "internal/ratelimit/config.go from v0.14.3 (none at v0.14.2); the action count at v0.21.3", changes: ["0.4", "0.14", "0.21"] },
  aliases: { read: "TP with_aliases 560 from v0.16.0", changes: [["0.4", false], ["0.16", true]] },
  "authorizeSession.fields": { read: "TP SessionAuthorization; TS `ret := &pb.SessionAuthorization{` at v0.14.5, v0.15.0, v0.16.0, v0.18.2, v0.19.0", changes: ["0.4", "0.15", "0.16", "0.19"] },
  "authorizeSession.credentialOrigin": { read: "TS/credentials.go CredentialLibrary/CredentialSource at v0.5.1, v0.6.0, v0.8.1, v0.9.0", changes: ["0.4", "0.6", "0.9"] },
  "authorizeSession.tokenFields": { read: "TP SessionAuthorizationData at v0.12.2, v0.13.0, v0.14.5, v0.15.0", changes: ["0.4", "0.13", "0.15"] },
  "authorizeSession.certificateNamesWorkers": { read: "internal/session/session.go newCert at v0.7.6 and v0.8.0", changes: [["0.4", false], ["0.8", true]] },
  "authorizeSession.subjectKeyId": { read: ".go-version at every tag (1.25 from v0.19.5)", changes: [["0.4", "sha1"], ["0.19", "sha256-160"]] },
  "authorizeSession.hostIds": { read: "TS validateAuthorizeSessionRequest at v0.7.4, v0.7.5, v0.8.0; internal/host/plugin/ids.go at v0.7.6, v0.8.1, v0.10.0", changes: ["0.4", "0.7", "0.10"] },
  "authorizeSession.targetIdAsHostId": { read: "TS UseTargetIdForHostId from v0.12.0; version/feature_manager.go \"< 0.14.0\"", changes: [["0.4", false], ["0.12", true], ["0.14", false]] },
  "authorizeSession.workersFirst": { read: "TS AuthorizeSession at v0.11.2 and v0.12.0", changes: [["0.4", true], ["0.12", false]] },
  "authorizeSession.noHosts": { read: "TS NotFoundErrorf at v0.4.0, v0.5.0, v0.6.2, v0.7.0, v0.11.2, v0.12.0", changes: [["0.4", "No hosts found from available target host sets."], ["0.5", "No hosts found from available target host sources."], ["0.7", "No endpoint found from available target host sources."], ["0.12", "No host sources or address found for given target."]] },
  "authorizeSession.noWorkers": { read: "TS at v0.12.2, v0.13.0, v0.18.2, v0.19.0; internal/server/repository_worker.go SelectSessionWorkers from v0.19.0", changes: ["0.4", "0.13", "0.19"] },
  routing: { read: "controller/handler.go: ratelimit.Handler in front of the gateway from v0.14.3", changes: [["0.4", "gateway"], ["0.14", "rate-limiter"]] },
  outsideApi: { read: "controller/handler.go mux.Handle(\"/\" or uiPath, handleUi) at every tag", changes: [["0.4", "ui"]] },
  errors: { read: "Boundary's words at every tag; the spec's own elsewhere", changes: [["0.4", "boundary"]] },
  createAppliesLists: { read: "TS CreateTarget ignores the lists at every tag", changes: [["0.4", false]] },
  unknownKeys: { read: "handlers/marshaler DiscardUnknown at every tag", changes: [["0.4", "discarded"]] },
  emptyCredentialSources: { read: "TS validateAdd/RemoveCredentialSourcesRequest at v0.5.0, v0.6.2, v0.7.0, v0.9.1, v0.10.0", changes: ["0.4", "0.7", "0.10"] },
  actionErrors: { read: "internal/target repository_host_set.go / repository_host_source.go at v0.4.0, v0.5.0; TS add/set host sources at v0.12.0", changes: ["0.4", "0.5", "0.12"] },
  "ports.zeroOnCreate": { read: "TS validateCreateRequest up to v0.7.3; tcp/tcp.go Vet at v0.7.4, v0.9.0", changes: [["0.4", "This optional field cannot be set to 0."], ["0.9", "This field cannot be set to zero."]] },
  "ports.zeroOnUpdate": { read: "tcp/tcp.go VetForUpdate at v0.8.1, v0.9.0", changes: [["0.4", "This optional field cannot be set to 0."], ["0.9", "This cannot be set to zero."]] },
  "ports.vetsUpdate": { read: "TS validateUpdateRequest at v0.7.3 (SubtypeFromId(item.type)) and v0.7.4 (SubtypeFromId(id), a.Vet())", changes: [["0.4", false], ["0.7", true]] },
  "ports.aboveMax": { read: "tcp/tcp.go math.MaxUint16 at v0.12.2 and v0.13.0", changes: [["0.4", undefined], ["0.13", "Value is greater than maximum port number."]] },
  patchEchoesUnmasked: { read: "go.mod: jinzhu/gorm up to v0.6.2, gorm.io/gorm from v0.7.0", changes: [["0.4", true], ["0.7", false]] },
  hostSetsAnyProject: { read: "migrations 44/03_targets.up.sql target_host_set_scope_valid: absent at v0.10.1, present from v0.10.2", changes: [["0.4", true], ["0.10", false]] },
  credentialLibraryForeignKey: { read: "internal/target/repository_credential_library.go at v0.4.0 only", changes: [["0.4", true], ["0.5", false]] },
  hostSetConstraints: { read: "observed on real v0.4.0 (db.CreateItems); not observed later", changes: [["0.4", true], ["0.5", false]] },
  credentialSourcesLookedUp: { read: "internal/target/repository_credential_source.go createSources from v0.9.0", changes: [["0.4", false], ["0.9", true]] },
  credentialSourceConstraints: { read: "migrations 46/03_targets.up.sql from v0.10.2; tcp/register.go VetCredentialSources", changes: [["0.4", false], ["0.10", true]] },
  listTokenScoped: { read: "CHANGELOG 0.19.3; listtoken.Validate", changes: [["0.4", false], ["0.19", true]] },
  injectedOnTcp: { read: "internal/target/tcp/register.go at v0.9.1 (application) and v0.10.0 (brokered)", changes: [["0.4", undefined], ["0.10", 'tcp.VetCredentialSources: tcp.Target only supports credential purpose: "brokered": parameter violation: error #100']] },
  bodyDecoding: { read: "the generated *.pb.gw.go and the gateway's JSONPb at every tag", changes: [["0.4", "gateway"]] },
  protojsonWords: { read: "go.mod google.golang.org/protobuf at every tag (v1.34.2 to v0.19.2, v1.36.6 from v0.19.3)", changes: [["0.4", "type"], ["0.19", "field"]] },
  authorizeSessionPath: { read: "SP at v0.12.2 ({id}) and v0.13.0 ({id=**})", changes: [["0.4", "segment"], ["0.13", "rest"]] },
  pathCleaning: { read: "controller/handler.go http.NewServeMux at every tag", changes: [["0.4", "redirect"]] },
  checksTokenAt: { read: "TS validate*Request before authResult at every tag", changes: [["0.4", "last"]] },
  anonymousGlobalList: { read: "TS ListTargets at v0.5.1 (returns the 401) and v0.6.0 (goes on, #1478); scopeids ForbiddenError at v0.6.0, v0.8.0", changes: [["0.4", "Unauthenticated"], ["0.6", "PermissionDenied"]] },
  healthBody: { read: "ops listener from v0.8.0 (handlers/health); earlier rows serve it the same way", changes: [["0.4", "json"]] },
  bexprGrammar: { read: "go.mod go-bexpr at every tag (v0.1.9 from v0.5.1, v0.1.10 from v0.6.2, v0.1.12 from v0.13.0, v0.1.13 from v0.15.0)", changes: [["0.4", "v0.1.8"], ["0.5", "v0.1.9"], ["0.6", "v0.1.10"], ["0.13", "v0.1.12"], ["0.15", "v0.1.13"]] },
  "authenticate.methods": { read: "handlers/authmethods/ldap.go from v0.13.0", changes: ["0.4", "0.13"] },
  "authenticate.credentials": { read: "auth_method_service.proto: credentials = 3 up to v0.6.1, reserved from v0.6.2", changes: [["0.4", true], ["0.6", false]] },
  "authenticate.type": { read: "auth_method_service.proto type = 6 from v0.8.0", changes: [["0.4", false], ["0.8", true]] },
};

/** Facts of a row that are not columns: its names, its prose, and the generation derived from its lists. */
const NOT_COLUMNS = new Set(["release", "patch", "changes", "withinMinor", "generation"]);
/** Columns whose facts are objects of facts, audited one by one. */
const NESTED = new Set(["authorizeSession", "ports", "authenticate"]);

/** Every column some row holds, nested facts by their path (`ports.vetsUpdate`). */
function columns(): string[] {
  const all = new Set<string>();
  for (const r of RELEASES)
    for (const [k, v] of Object.entries(r)) {
      if (NOT_COLUMNS.has(k)) continue;
      if (NESTED.has(k)) for (const sub of Object.keys(v as object)) all.add(`${k}.${sub}`);
      else all.add(k);
    }
  return [...all];
}

const valueOf = (r: Release, column: string): unknown => column.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], r);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const scalar = (column: string) => BOUNDARY_RELEASES.every((r) => ["string", "boolean", "number", "undefined"].includes(typeof valueOf(r, column)));

/** Where a column changes along Boundary's releases: each release whose value differs from the one before (with the value, for a scalar). */
function changesOf(column: string): (string | [string, unknown])[] {
  return BOUNDARY_RELEASES.filter((r, i) => i === 0 || !same(valueOf(r, column), valueOf(BOUNDARY_RELEASES[i - 1]!, column))).map((r) =>
    scalar(column) ? [r.release, valueOf(r, column)] : r.release,
  );
}

test("every column of the table has been audited (a new column needs its changelog here)", () => {
  expect(columns().filter((c) => !(c in AUDIT))).toEqual([]);
  expect(Object.keys(AUDIT).filter((c) => !columns().includes(c))).toEqual([]);
});

test.each(Object.keys(AUDIT))("%s changes where the tags read say", (column) => {
  expect(changesOf(column)).toEqual(AUDIT[column]!.changes);
});

test("a row's within-minor note names the earlier patches of each change the audit found inside its minor", () => {
  // the changes found at a patch other than the row's first: each row must say so
  const inside: [string, RegExp][] = [
    ["0.5", /0\.5\.0 pins go-bexpr v0\.1\.8/],
    ["0.6", /0\.6\.0–0\.6\.1 still read authenticate's deprecated credentials/],
    ["0.7", /0\.7\.0–0\.7\.3 do not vet a PATCH's type and attributes; 0\.7\.0–0\.7\.4 refuse a plugin host's id/],
    ["0.9", /0\.9\.0 still defaults session_connection_limit to 1/],
    ["0.10", /0\.10\.0–0\.10\.1 lack migrations 44–46/],
    ["0.14", /0\.14\.0–0\.14\.2 have no rate limiter/],
    ["0.19", /take a list token in another scope/],
  ];
  for (const [key, says] of inside) expect(release(key as Release["release"]).withinMinor).toMatch(says);
});
