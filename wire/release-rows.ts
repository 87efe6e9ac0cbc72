/**
 * THE table of Boundary's releases, as data: the first row (0.4) holds every fact, each later row
 * what changed in that release (a fact it leaves out is the previous row's), and `SPEC` is 0.4 with
 * our own clearer answers. `releases.ts` resolves the rows and answers questions about them.
 *
 * Each fact was read in that release's source at the row's `patch` tag of hashicorp/boundary
 * (`TS` is `internal/…/handlers/targets/target_service.go`, `TP` the Target's `target.proto`,
 * `SP` its `target_service.proto`). Adding a release is one row at the end of ROWS.
 *
 * A row gives its minor's newest patch release (`patch`). Where a fact changed inside a minor,
 * the row holds the newer behaviour and `withinMinor` says which earlier patches differ and how
 * (`--emulate 0.9` is 0.9.1; `--emulate 0.14` is 0.14.3 and later).
 */
import type { ReleaseFacts, ReleaseRow } from "./release-facts";
import {
  ACTIONS_PER_RESOURCE_021,
  BROKERED_010,
  CREDS_010,
  CREDS_014,
  EGRESS_07,
  FILTERED,
  HOSTS_05,
  HOSTS_010,
  HOSTS_011,
  INJECTED,
  RATE_LIMITS,
  SESSION_FIELDS_015,
  STATIC_010,
  actionsFor,
  listOf,
  repositoryOps,
  wraps,
} from "./release-parts";
import { V04 } from "./release-first";

export { V04 };

/** The rows after 0.4, each what changed in that release. */
export const ROWS = [
  {
    release: "0.5",
    patch: "0.5.1",
    changes:
      "host sources and credential sources beside v0.4's host sets and credential libraries; views carry both names; authorize-session's " +
      "no-host 404 names host sources",
    withinMinor: "0.5.0 pins go-bexpr v0.1.8 (go.mod)",
    credentialLibraryForeignKey: false,
    hostSetOrder: "attached",
    // go.mod at 0.5.1
    bexprGrammar: "v0.1.9",
    // (not observed after v0.4.0: later releases keep the emulation's own words)
    hostSetConstraints: false,
    // TS IdActions; toProto fills both names; target_service.proto routes both generations
    actions: actionsFor("host-sets", "credential-libraries", "credential-sources"),
    lists: {
      hostSetIds: HOSTS_05,
      applicationCredentialLibraryIds: listOf(
        ["clvlt_"],
        ["credential-libraries", "application_credential_library_ids"],
        ["credential-sources", "application_credential_source_ids"],
      ),
    },
    authorizeSession: { noHosts: "No hosts found from available target host sources." },
    actionErrors: {
      ops: { host: repositoryOps("HostSources"), credential: repositoryOps("CredentialSources") },
      handler: { host: wraps("host sources"), credential: wraps("credential sources") },
      staleSet: "set target host sources: ",
      removedMismatch: { host: "target host sources", credential: "credential libraries" },
    },
  },
  {
    release: "0.6",
    patch: "0.6.2",
    changes:
      "authorize-session's credentials name their origin credential_source too; a recursive list with no token is 403; authenticate's " +
      "deprecated credentials is no longer read",
    withinMinor: "0.6.0–0.6.1 still read authenticate's deprecated credentials and pin go-bexpr v0.1.9",
    // go.mod at 0.6.2 (0.6.0 and 0.6.1 pin v0.1.9)
    bexprGrammar: "v0.1.10",
    // TS AuthorizeSession fills both CredentialSource and the deprecated CredentialLibrary
    authorizeSession: { credentialOrigin: ["credential_source", "credential_library"] },
    // auth_method_service.proto: `reserved "credentials"` from 0.6.2
    authenticate: { credentials: false },
    // TS ListTargets from 0.6.0 (#1478) goes on past an UnauthenticatedError on a recursive list; scopeids.GetListingScopeIds
    // then finds no scope the anonymous user may list Targets in: ForbiddenError (0.4.0–0.5.1 return the 401 at once)
    anonymousGlobalList: "PermissionDenied",
  },
  {
    release: "0.7",
    patch: "0.7.6",
    changes:
      "plugin host sets (hs_); authorized_actions name the host-sources actions; an empty credential-sources add names the egress list too; " +
      "authorize-session's no-host 404 says no endpoint, and host_id may name a plugin host (h_); a PATCH's type and attributes are vetted",
    withinMinor:
      "0.7.0–0.7.2 do not name the host-sources actions in authorized_actions (the routes exist); 0.7.0–0.7.3 do not vet a PATCH's type and " +
      "attributes; 0.7.0–0.7.4 refuse a plugin host's id as host_id",
    actions: actionsFor("host-sets", "host-sources", "credential-libraries", "credential-sources"),
    lists: { hostSetIds: { ...HOSTS_05, prefixes: ["hsst_", "hs_"] } },
    emptyCredentialSources: {
      message: "Application or Egress Credential Source IDs must be provided.",
      fields: { add: EGRESS_07, remove: EGRESS_07 },
    },
    // TS validateAuthorizeSessionRequest: `case static.Subtype, plugin.Subtype` from 0.7.5 (internal/host/plugin/ids.go: h, hs, hc)
    authorizeSession: { noHosts: "No endpoint found from available target host sources.", hostIds: ["hst_", "hsst_", "hcst_", "h_", "hs_", "hc_"] },
    // TS validateUpdateRequest from 0.7.4: SubtypeFromId(req.GetId()), then the subtype's Vet (handlers/targets/tcp/tcp.go)
    ports: { vetsUpdate: true },
    // go.mod: gorm v2 (a lookup after a write sets every column)
    patchEchoesUnmasked: false,
  },
  {
    release: "0.8",
    patch: "0.8.1",
    changes: "authorize-session: the session certificate names the workers' addresses; authenticate takes and answers type",
    // internal/session/session.go newCert(addresses) from 0.8.0
    authorizeSession: { certificateNamesWorkers: true },
    // auth_method_service.proto: AuthenticateRequest.type = 6, AuthenticateResponse.type = 3 from 0.8.0
    authenticate: { type: true },
  },
  {
    release: "0.9",
    patch: "0.9.1",
    changes:
      "credential libraries' names and actions removed; static credentials (cred_); attributes.default_port required; " +
      "session_connection_limit defaults to -1; authorize-session's credentials name credential_source only",
    withinMinor: "0.9.0 still defaults session_connection_limit to 1 (internal/target/options.go)",
    actions: actionsFor("host-sets", "host-sources", "credential-sources"),
    lists: { applicationCredentialLibraryIds: listOf(["clvlt_", "cred_"], ["credential-sources", "application_credential_source_ids"]) },
    // handlers/targets/tcp/tcp.go Vet
    requires: ["defaultPort"],
    defaults: { sessionConnectionLimit: -1 },
    // internal/target/repository_credential_source.go createSources (from v0.9.0)
    credentialSourcesLookedUp: true,
    withinMinorDefaults: { sessionConnectionLimit: 1 },
    // handlers/targets/credentials.go: CredentialSource only (credential_library reserved in TP)
    authorizeSession: { credentialOrigin: ["credential_source"] },
    // handlers/targets/tcp/tcp.go Vet, VetForUpdate
    ports: { zeroOnCreate: "This field cannot be set to zero.", zeroOnUpdate: "This cannot be set to zero." },
  },
  {
    release: "0.10",
    patch: "0.10.5",
    changes:
      "brokered and injected credential sources (the 0.5 name still read and answered); plugin host sets hsplg_ and hosts hplg_; ssh targets (HCP); " +
      "a host set of another project is refused",
    withinMinor: "0.10.0–0.10.1 lack migrations 44–46: a host set of another project is taken, and credential sources are not scoped to the Target's project",
    // migration 44/03_targets.up.sql (first in v0.10.2): target_host_set_scope_valid compares the Target's and the host set's projects
    hostSetsAnyProject: false,
    lists: {
      hostSetIds: HOSTS_010,
      applicationCredentialLibraryIds: CREDS_010(["clvlt_", ...STATIC_010]),
      injectedApplicationCredentialSourceIds: INJECTED(["clvlt_", ...STATIC_010]),
    },
    adds: { fields: ["injectedApplicationCredentialSourceIds"], values: [{ field: "type", value: "ssh" }] },
    emptyCredentialSources: {
      message: "Brokered or Injected Application Credential Source IDs must be provided.",
      fields: { add: BROKERED_010, remove: BROKERED_010 },
    },
    // internal/host/plugin/ids.go: HostPrefix hplg, PreviousHostPrefix h
    authorizeSession: { hostIds: ["hst_", "hsst_", "hcst_", "hplg_", "hsplg_", "hcplg_", "h_", "hs_", "hc_"] },
    // internal/target/tcp/register.go VetCredentialSources, called by the repository's createSources and SetTargetCredentialSources
    credentialSourceConstraints: true,
    injectedOnTcp: 'tcp.VetCredentialSources: tcp.Target only supports credential purpose: "brokered": parameter violation: error #100',
  },
  {
    release: "0.11",
    patch: "0.11.2",
    changes: "v0.4's host-set names and actions removed; JSON credentials (credjson_) brokered",
    // TS IdActions
    actions: actionsFor("host-sources", "credential-sources"),
    lists: { hostSetIds: HOSTS_011, applicationCredentialLibraryIds: CREDS_010(["clvlt_", ...STATIC_010, "credjson_"]) },
  },
  {
    release: "0.12",
    patch: "0.12.2",
    changes:
      "address, egress and ingress worker filters (worker_filter deprecated); views always carry address; SSH certificate libraries injected; " +
      "add/set host sources answer a fixed 500; authorize-session picks the host before the workers",
    lists: { injectedApplicationCredentialSourceIds: INJECTED(["clvlt_", "clvsclt_", ...STATIC_010]) },
    adds: { fields: ["egressWorkerFilter", "ingressWorkerFilter", "address"] },
    // TS validateCreateRequest; the database trigger of migration 59/01
    replaces: [{ field: "workerFilter", by: "egressWorkerFilter" }],
    // TS toProto: `out.Address = wrapperspb.String(in.GetAddress())` whatever the address
    addressAlways: true,
    // internal/target/repository.go UpdateTarget: "If the Address field is the only present change, then we must still
    // update the target's version" (v0.12.0 to v0.21.3); migration 60/01: target_address has no version trigger
    addressChildRow: true,
    // observed on real v0.12.2 (in some runs), v0.15.5 and v0.21.3; the release where it starts is not read (the source has no ORDER BY)
    credentialSourceOrder: "collation",
    actionErrors: {
      handler: { host: { ...wraps("host sources"), add: { fixed: "Failed to add target host sources" }, set: { fixed: "Failed to set target host sources" } } },
    },
    // TS AuthorizeSession: the host (or address) first, then ListWorkers and AuthorizeSessionWorkerFilterFn
    // TS AuthorizeSession: a Target with an address takes the address branch and never reads host_id; its own id is the host id
    authorizeSession: { workersFirst: false, noHosts: "No host sources or address found for given target.", targetIdAsHostId: true },
  },
  {
    release: "0.13",
    patch: "0.13.1",
    changes: "attributes.default_client_port (in the session token too); no worker at all is its own 400",
    adds: { fields: ["defaultClientPort"] },
    bexprGrammar: "v0.1.12",
    authenticate: { methods: ["ampw", "amldap"] },
    // TP SessionAuthorizationData default_client_port = 160; TS checks ListWorkers' answer before the filter
    // SP: `post: "/v1/targets/{id=**}:authorize-session"`
    authorizeSessionPath: "rest",
    authorizeSession: {
      tokenFields: ["default_client_port"],
      noWorkers: { kind: "FailedPrecondition", none: "No workers are available to handle this session.", filtered: FILTERED },
    },
    // handlers/targets/tcp/tcp.go Vet, VetForUpdate: math.MaxUint16
    ports: { aboveMax: "Value is greater than maximum port number." },
  },
  {
    release: "0.14",
    patch: "0.14.5",
    changes: "the 0.5 credential name removed; the API rate limiter; other generations' actions answer 405 with an empty body",
    withinMinor: "0.14.0–0.14.2 have no rate limiter and answer other generations' actions 405 with the gateway's JSON",
    lists: { applicationCredentialLibraryIds: CREDS_014(["clvlt_", ...STATIC_010, "credjson_"]) },
    // ratelimit/config.go defaults; ratelimit/handler.go answers before the API
    rateLimiter: RATE_LIMITS,
    routing: "rate-limiter",
    // version/feature_manager.go: UseTargetIdForHostId is "< 0.14.0"
    authorizeSession: { targetIdAsHostId: false },
  },
  {
    release: "0.15",
    patch: "0.15.5",
    changes: "paginated lists; authorize-session answers endpoint_port and expiration (and its token carries them)",
    pagination: true,
    bexprGrammar: "v0.1.13",
    emptyList: { response_type: "complete", sort_by: "created_time", sort_dir: "desc" },
    // TP SessionAuthorization; SessionAuthorizationData endpoint_port = 102, expiration = 105
    authorizeSession: { fields: SESSION_FIELDS_015, tokenFields: ["default_client_port", "endpoint_port", "expiration"] },
  },
  {
    release: "0.16",
    patch: "0.16.3",
    changes: "aliases (with_aliases on create, aliases in views, alias values as ids); authorize-session's session_recording_id",
    aliases: true,
    authorizeSession: { fields: [...SESSION_FIELDS_015, "session_recording_id"] },
  },
  // handlers/verifiers.go ValidDescription
  { release: "0.17", patch: "0.17.2", changes: "descriptions may hold new lines and tabs (unicode.IsSpace)", descriptions: "print-or-space" },
  { release: "0.18", patch: "0.18.2", changes: "nothing the Target API shows" },
  {
    release: "0.19",
    patch: "0.19.5",
    changes:
      "an address is parsed as a URL host: an IPv6 address in brackets, white space or a control character is refused; the server repository " +
      "picks a session's workers (none left is a 500); Go 1.25 makes the session certificate's subject key id from SHA-256",
    withinMinor:
      "0.19.0–0.19.2 take a bracketed IPv6 address and any character, word protojson's type errors without the field's name and take a list " +
      "token in another scope; 0.19.0–0.19.3 (Go 1.23–1.24) make the subject key id from SHA-1",
    addressBrackets: "refused",
    // go.mod: google.golang.org/protobuf v1.36.6 from 0.19.3 (v1.35.0 put the field's JSON name in protojson's type errors;
    // 0.19.0–0.19.2 hold v1.34.2 and word them without it)
    protojsonWords: "field",
    // internal/server/repository_worker.go SelectSessionWorkers, filterWorkers: WorkerNotFoundForRequest (#133), a 500 (handlers/errors.go);
    // .go-version 1.25.7: crypto/x509 makes a CA's subject key id from truncated SHA-256
    authorizeSession: {
      // TS fills SessionAuthorization.ConnectionLimit from v0.19.0 (TP had it since 0.15; real v0.15.5 answered none)
      fields: [...SESSION_FIELDS_015, "session_recording_id", "connection_limit"],
      subjectKeyId: "sha256-160",
      noWorkers: {
        kind: "Internal",
        none: "server.(Repository).SelectSessionWorkers: No workers are available to handle this session.: state violation: error #133",
        filtered:
          "server.(Repository).SelectSessionWorkers: server.filterWorkers: No workers are available to handle this session, or all have been " +
          "filtered.: state violation: error #133",
      },
    },
    // CHANGELOG 0.19.3: grants fetched for the request only, so a token's grants hash differs in another scope (listtoken.Validate)
    listTokenScoped: true,
  },
  {
    release: "0.20",
    patch: "0.20.3",
    changes: "username/password/domain credentials (credupd_); rdp targets (HCP)",
    lists: {
      applicationCredentialLibraryIds: CREDS_014(["clvlt_", ...STATIC_010, "credupd_", "credjson_"]),
      injectedApplicationCredentialSourceIds: INJECTED(["clvlt_", "clvsclt_", ...STATIC_010, "credupd_"]),
    },
    adds: { values: [{ field: "type", value: "rdp" }] },
  },
  {
    release: "0.21",
    patch: "0.21.3",
    changes: "Vault LDAP libraries (clvllt_) and password credentials (credp_)",
    // each handler's action.RegisterResource(IdActions ∪ CollectionActions); ratelimit/config.go DefaultLimiterMaxQuotas
    rateLimiter: {
      ...RATE_LIMITS,
      actionsPerResource: ACTIONS_PER_RESOURCE_021,
    },
    lists: {
      applicationCredentialLibraryIds: CREDS_014(["clvlt_", "clvllt_", ...STATIC_010, "credupd_", "credp_", "credjson_"]),
      injectedApplicationCredentialSourceIds: INJECTED(["clvlt_", "clvsclt_", "clvllt_", ...STATIC_010, "credupd_"]),
    },
  },
] as const satisfies readonly ReleaseRow[];

/**
 * The spec's controller: Boundary v0.4 where the spec is silent, with our own clearer answers
 * (a stale version is 409 naming both versions, mistakes are 400s naming the field), create
 * applies the lists, a body's unknown keys are named in a 400, lists are whole.
 */
export const SPEC: ReleaseFacts = {
  ...V04,
  release: "spec",
  patch: "spec",
  changes: "the spec's Target API, with Boundary v0.4's facts where it is silent and our clearer answers",
  errors: "ours",
  routing: "ours",
  outsideApi: "ours",
  createAppliesLists: true,
  unknownKeys: "named",
  listItemsCarryLists: true,
  emptyList: { items: [] },
  // the spec's controller answers what it stores, and checks a host set's project
  patchEchoesUnmasked: false,
  hostSetsAnyProject: false,
  hostSetOrder: "attached",
  bodyDecoding: "ours",
  pathCleaning: "none",
  healthBody: "empty",
  checksTokenAt: "first",
};
