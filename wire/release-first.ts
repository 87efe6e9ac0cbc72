/**
 * The first row of the release table (`release-rows.ts`): Boundary v0.4.0, every fact, read at the
 * v0.4.0 tag of hashicorp/boundary (`TS` is `internal/servers/controller/handlers/targets/target_service.go`,
 * `TP` the Target's `target.proto`, `SP` its `target_service.proto`). Each later row states only what
 * changed, so this row is where every column starts.
 */
import type { ReleaseFacts } from "./release-facts";
import { FILTERED, SESSION_FIELDS_04, actionsFor, listOf, repositoryOps, wraps } from "./release-parts";

/** Boundary v0.4.0, every fact (its TS, TP, SP, handlers/verifiers.go and internal/target at that tag). */
export const V04: ReleaseFacts = {
  release: "0.4",
  patch: "0.4.0",
  changes: "the spec's release: host sets and credential libraries",
  actions: actionsFor("host-sets", "credential-libraries"),
  lists: {
    hostSetIds: listOf(["hsst_"], ["host-sets", "host_set_ids"]),
    applicationCredentialLibraryIds: listOf(["clvlt_"], ["credential-libraries", "application_credential_library_ids"]),
  },
  fields: [
    "scopeId",
    "name",
    "description",
    "type",
    "hostSetIds",
    "applicationCredentialLibraryIds",
    "sessionMaxSeconds",
    "sessionConnectionLimit",
    "workerFilter",
    "defaultPort",
  ],
  values: [],
  requires: [],
  replaces: [],
  // internal/target/options.go; the database default
  defaults: { sessionConnectionLimit: 1 },
  // handlers/verifiers.go ValidNameDescription: unicode.IsPrint
  descriptions: "print",
  addressBrackets: "taken",
  addressAlways: false,
  addressChildRow: false,
  credentialSourceOrder: "attached",
  // target.fetchSets reads the target_set view (a join with no ORDER BY): host sets in the order they were created
  hostSetOrder: "created",
  pagination: false,
  emptyList: {},
  listItemsCarryLists: false,
  aliases: false,
  // TS AuthorizeSession and validateAuthorizeSessionRequest; internal/session/session.go newCert (Go 1.16)
  authorizeSession: {
    fields: SESSION_FIELDS_04,
    credentialOrigin: ["credential_library"],
    tokenFields: [],
    certificateNamesWorkers: false,
    subjectKeyId: "sha1",
    hostIds: ["hst_", "hsst_", "hcst_"],
    targetIdAsHostId: false,
    workersFirst: true,
    noHosts: "No hosts found from available target host sets.",
    noWorkers: { kind: "FailedPrecondition", none: FILTERED, filtered: FILTERED },
  },
  // handlers/errors.go backendErrorToApiError: the gateway's codes.Unimplemented → 405; its routing
  // NotFound (grpc-gateway v2 DefaultRoutingErrorHandler: a status, never runtime.ErrNotMatch) → 500
  routing: "gateway",
  // handler.go: mux "/v1/" → the API, "/" → handleUi (handler_ui.go; the Makefile builds with the ui tag)
  outsideApi: "ui",
  errors: "boundary",
  createAppliesLists: false,
  // handlers/marshler.go: protojson with DiscardUnknown
  unknownKeys: "discarded",
  // (0.4 has no credential-sources route: 0.5.0–0.6.2's TS validateAddCredentialSourcesRequest and
  // validateRemoveCredentialSourcesRequest, the latter naming the libraries' field)
  emptyCredentialSources: {
    message: "Must be non-empty.",
    fields: { add: ["application_credential_source_ids"], remove: ["application_credential_library_ids"] },
  },
  // internal/target/repository_host_set.go, repository_credential_library.go (the typo is theirs)
  actionErrors: {
    ops: { host: { add: "AddTargetHostSets", set: "SetTargetHostSets", remove: "DeleteTargeHostSets" }, credential: repositoryOps("CredentialLibraries") },
    handler: { host: wraps("host sets"), credential: wraps("credential libraries") },
    staleSet: "set target host sets: ",
    removedMismatch: { host: "target host sets", credential: "credential libraries" },
  },
  // TS validateCreateRequest ("This optional field cannot be set to 0."); validateUpdateRequest's SubtypeFromId(type) matches nothing
  ports: { zeroOnCreate: "This optional field cannot be set to 0.", zeroOnUpdate: "This optional field cannot be set to 0.", vetsUpdate: false },
  patchEchoesUnmasked: true,
  hostSetsAnyProject: true,
  credentialLibraryForeignKey: true,
  hostSetConstraints: true,
  credentialSourcesLookedUp: false,
  credentialSourceConstraints: false,
  listTokenScoped: false,
  // the generated *.pb.gw.go with grpc-gateway v2.3.0's JSONPb (runtime/marshal_jsonpb.go decodeJSONPb) and protobuf-go v1.26.0
  bodyDecoding: "gateway",
  protojsonWords: "type",
  // SP: authorize-session is `/v1/targets/{id}:authorize-session`
  authorizeSessionPath: "segment",
  // handler.go: an http.ServeMux holds "/v1/" (net/http cleanPath, then a 301)
  pathCleaning: "redirect",
  // TS: validate*Request, then authResult (a lookup), then auth.Verify (internal/auth/auth.go: the anonymous user is 401)
  checksTokenAt: "last",
  // observed on a real v0.4.0 `boundary dev`
  anonymousGlobalList: "Unauthenticated",
  // ops came in 0.8 (handlers/health: GetHealthResponse{} through the gateway); earlier rows serve it the same way
  healthBody: "json",
  bexprGrammar: "v0.1.8",
  authenticate: { methods: ["ampw"], credentials: true, type: false },
};
