/**
 * The shape of a row of the release table (`release-rows.ts`): the facts about Boundary's Target
 * API that change between releases. A resolved release (`ReleaseFacts`) holds them all; a row
 * after the first states only what changed (`ReleaseRow`).
 */
import type { DescriptionRule } from "../common/rules";
import type { AssociationOp, InputField, ListField, ListKind, ListNoun } from "./target-fields";

export type { ListField, ListKind, ListNoun } from "./target-fields";

/** One action route of a list: its noun (`:set-host-sources`) and the body fields it reads the ids from (several are merged). */
export interface ListRoute {
  noun: ListNoun;
  reads: readonly string[];
}

/** How one release names and checks one list. */
export interface ListFacts {
  /** Its actions: each noun routes add, set and remove. */
  routes: readonly ListRoute[];
  /** The id fields the release's Target views carry the list under (each with its summaries' field). */
  answers: readonly string[];
  /** The id prefixes (`hsst_`) its actions accept. */
  prefixes: readonly string[];
}

/** What a release's handler answers when an action's repository call fails: its words over the error, or fixed words. */
export type HandlerWords = { wrap: string } | { fixed: string };

/**
 * The API rate limiter's defaults (internal/ratelimit/config.go): the quotas of each action of
 * each resource (requests per period, per auth token, per client address and in total; `list`
 * has its own, every other action `other`), and what the quota store's default size is computed from.
 */
export interface RateLimiterDefaults {
  periodSeconds: number;
  list: { authToken: number; ipAddress: number; total: number };
  other: { authToken: number; ipAddress: number; total: number };
  /**
   * How many actions the release registers for each resource (`action.ActionSetForResource`: the
   * union of its handler's IdActions and CollectionActions, over `resource.Map` less unknown, "*"
   * and controller): DefaultLimiterMaxQuotas is their sum × (1 + 1,000 + 1,000). Absent where the
   * table has not counted them.
   */
  actionsPerResource?: Readonly<Record<string, number>>;
}

/** `SessionAuthorizationData` fields later releases added to v0.4's token. */
export type LaterTokenField = "endpoint_port" | "expiration" | "default_client_port";

/**
 * A go-bexpr release whose grammar or evaluation differs from the one before it (v0.1.12 parses as
 * v0.1.10 does; its evaluator answers a key missing from a map by the operator, not by an error).
 */
export type BexprGrammar = "v0.1.8" | "v0.1.9" | "v0.1.10" | "v0.1.12" | "v0.1.13";

/** How Go's `x509.CreateCertificate` derived a CA's missing subject key id: SHA-1 up to Go 1.24, the first 160 bits of SHA-256 from Go 1.25. */
export type SubjectKeyIdMethod = "sha1" | "sha256-160";

/** What authorize-session answers and checks (TS AuthorizeSession, `internal/session`, `internal/server`). */
export interface SessionFacts {
  /** The answer's fields (TP `SessionAuthorization`). */
  fields: readonly string[];
  /** The name(s) each credential's origin is answered under. */
  credentialOrigin: readonly ("credential_library" | "credential_source")[];
  /** The token's fields beyond v0.4's `SessionAuthorizationData`. */
  tokenFields: readonly LaterTokenField[];
  /** The session certificate names the workers' addresses in its alternative names. */
  certificateNamesWorkers: boolean;
  /** How the session certificate's subject key id is made (the release's Go toolchain). */
  subjectKeyId: SubjectKeyIdMethod;
  /**
   * The id prefixes `host_id` may have: every prefix of the host subtypes' resources (a static host
   * catalog's, host set's and host's; a plugin's where the handler takes them: host.SubtypeFromId,
   * subtypes.Register), so a host set's id is well formed and "not available".
   */
  hostIds: readonly string[];
  /**
   * A Target with an address answers its own id as `host_id` (and the token carries it): 0.12–0.13,
   * TS AuthorizeSession under feature UseTargetIdForHostId (version/feature_manager.go, "< 0.14.0").
   */
  targetIdAsHostId: boolean;
  /** The workers are checked before the host (a Target with neither answers the worker error). */
  workersFirst: boolean;
  /** The 404's words when the Target has no host and no address. */
  noHosts: string;
  /** The answer when no worker is left: its kind, and its words with no worker at all and with a filter that left none. */
  noWorkers: { kind: "FailedPrecondition" | "Internal"; none: string; filtered: string };
}

/** How a release judges a Target's `attributes.default_port` (TS validate*Request; handlers/targets/tcp/tcp.go Vet, VetForUpdate). */
export interface PortFacts {
  /** A create's port 0, in the release's words. */
  zeroOnCreate: string;
  /** A PATCH's port 0, in the release's words, where the release vets a PATCH's attributes. */
  zeroOnUpdate: string;
  /**
   * A PATCH's type and attributes are vetted (0.8+). Before, validateUpdateRequest asked
   * `SubtypeFromId(item.type)`, which matches no subtype: a PATCH's port 0 clears the port, its `type`
   * is a mask path the mask manager drops, and attributes that do not decode are updateInRepo's
   * field-less 400 "Provided attributes don't match expected format."
   */
  vetsUpdate: boolean;
  /** A port above 65535, in the release's words (0.13+); absent: taken as given (a uint32). */
  aboveMax?: string;
}

/**
 * What `POST /v1/auth-methods/{id}:authenticate` reads and answers (AuthenticateRequest and
 * AuthenticateResponse in auth_method_service.proto; handlers/authmethods password.go, ldap.go).
 * Every release reads `{"command":"login","attributes":{"login_name","password"}}` (an empty command is
 * `login`) and answers `{"command","attributes":<the auth token>}`.
 */
export interface AuthenticateFacts {
  /** The auth method prefixes it logs in with a name and a password: password (`ampw`), LDAP (`amldap`, 0.13+). */
  methods: readonly ("ampw" | "amldap")[];
  /** The deprecated `credentials` stands in for absent `attributes` (0.4–0.6; a reserved name from 0.7, so discarded). */
  credentials: boolean;
  /** `type` beside the deprecated `token_type` in the request, and `type` in the answer (0.8+). */
  type: boolean;
}

/** Every fact of one release. */
export interface ReleaseFacts {
  /** `spec`, or the minor release (`0.12`). */
  release: string;
  /** The patch release whose source the row's facts were read at (the minor's newest), or `spec`. */
  patch: string;
  /** What changed in this release, in one line (the README's mode table). */
  changes: string;
  /** How earlier patches of the same minor differ from `patch`, when they do. */
  withinMinor?: string;
  /** A Target's `authorized_actions` for a caller with every grant (the handlers' IdActions). */
  actions: readonly string[];
  /** Each list's names, routes and prefixes; absent for a list the release does not have. */
  lists: Partial<Record<ListField, ListFacts>>;
  /** The input fields the release knows (reads in bodies, answers in views). */
  fields: readonly InputField[];
  /** Enum values later releases added (`type: "ssh"`), where this release has them. */
  values: readonly { field: InputField; value: string }[];
  /** Fields a create must carry beyond the spec's (`attributes.default_port` from 0.9). */
  requires: readonly InputField[];
  /** Fields replaced by another: a new value is refused (a held one is kept). */
  replaces: readonly { field: InputField; by: InputField }[];
  /** Defaults that differ from the field table's (`session_connection_limit` was 1 until 0.9.1). */
  defaults: Partial<Record<InputField, number | string>>;
  /**
   * Defaults an earlier patch of the minor gave where they differ from `defaults` (0.9.0's
   * `session_connection_limit` 1): a client cannot tell the patch, so either may be the controller's.
   */
  withinMinorDefaults?: Partial<Record<InputField, number | string>>;
  /** Which characters a description may hold: `unicode.IsPrint`, or `IsPrint || IsSpace` (0.17+). Names are always IsPrint. */
  descriptions: DescriptionRule;
  /**
   * How an address is parsed (`common/address.ts`): `taken` (0.12.0–0.19.2: host and port split by
   * net.SplitHostPort, so an IPv6 address is taken only in brackets, "too many colons" without; stored
   * as sent) or `refused` (0.19.3+, util.ParseAddress → parseutil.NormalizeAddr: brackets and a host
   * a URL may not hold are refused; an IP address is stored in net.IP.String() form).
   */
  addressBrackets: "taken" | "refused";
  /** Views carry `"address": ""` when a Target has none (0.12+). */
  addressAlways: boolean;
  /**
   * The address is a child row of the Target (table target_address, 0.12+): a PATCH whose only path
   * is `address` (a set, or a clear, even of an address the Target never had) advances the version,
   * UpdateTarget putting `Version` in the mask; beside another path, only the Target's own row moves
   * it (the version trigger fires only on a row that changes), so a new address beside an unchanged
   * name keeps the version.
   */
  addressChildRow: boolean;
  /**
   * The order a Target's credential source ids are answered in: `attached` (the order they were
   * attached), or `collation` (by id, as PostgreSQL's en_US collation sorts them: fetchCredentialSources
   * reads the target_credential_source view, a UNION with no ORDER BY, whose de-duplication sorts;
   * real v0.12.2, v0.15.5 and v0.21.3 answered so).
   */
  credentialSourceOrder: "attached" | "collation";
  /**
   * The order of host set ids in a view: `created` (the order the host sets were created: v0.4.0's
   * fetchSets reads the target_set view, a join with no ORDER BY that the planner walks in host_set's
   * storage order; real v0.4.0 answered a host set of `boundary dev`, created first, before those
   * attached earlier) or `attached` (not observed after v0.4.0: the emulation's own order).
   */
  hostSetOrder: "created" | "attached";
  /** Lists are paginated (0.15+). */
  pagination: boolean;
  /** The body of an empty list. */
  emptyList: Readonly<Record<string, unknown>>;
  /** List items carry the lists' ids and summaries (Boundary's list query does not load them; the spec's controller does). */
  listItemsCarryLists: boolean;
  /** The API rate limiter and its defaults (0.14.3+), or none. */
  rateLimiter?: RateLimiterDefaults;
  /** Aliases: `with_aliases` on create, `aliases` in views, alias values as ids in paths (0.16+). */
  aliases: boolean;
  /** What authorize-session answers and checks. */
  authorizeSession: SessionFacts;
  /**
   * How a request under `/v1/` that no route takes is answered: `gateway` (the grpc-gateway: a
   * wrong method or another generation's action 405 `{"kind":"Unimplemented","message":"Method Not
   * Allowed"}`; a path it does not match reaches Boundary's error handler as a gRPC NotFound status it
   * maps to nothing, so 500 `{"kind":"Internal","message":"rpc error: code = NotFound desc = Not
   * Found"}`), `rate-limiter` (0.14.3+: refused before the API with an empty body: 405 for another
   * generation's action, 400 for an unknown one, 404 for an unknown collection; a path under a known
   * collection still reaches the gateway), `ours` (a 404 in plain text naming the path: never
   * Boundary's NotFound body, which a client takes for "gone").
   */
  routing: "gateway" | "rate-limiter" | "ours";
  /**
   * How a path outside `/v1/` is answered (a client whose address has a wrong base path asks one):
   * `ui` (Boundary's admin UI, built into every release binary, serves "/": a GET of a path without
   * a file extension is its index page, 200 text/html; a GET of a file it lacks Go's plain-text 404;
   * any other method 405 with an empty body), or `ours` (a 404 in plain text naming the path).
   */
  outsideApi: "ui" | "ours";
  /** Boundary's answers (`boundary`: stale versions 404/500, mistakes as repository 500s) or our clearer ones (`ours`: 409, 400s naming the field). */
  errors: "boundary" | "ours";
  /** Create applies the lists (real Boundary ignores them: only the actions change them). */
  createAppliesLists: boolean;
  /** A body's unknown keys: discarded (Boundary's marshaler sets DiscardUnknown) or named in a 400. */
  unknownKeys: "discarded" | "named";
  /**
   * An add or remove of credential sources with no id: the message, and the fields it is set on by
   * each (0.5–0.6's validateRemoveCredentialSourcesRequest names the libraries' field, its add the sources').
   */
  emptyCredentialSources: { message: string; fields: Readonly<Record<"add" | "remove", readonly string[]>> };
  /** How the handlers word an action's failures. */
  actionErrors: {
    /** The repository's operation names (`target.(Repository).<op>`), per list kind and action. */
    ops: Record<ListKind, Record<AssociationOp, string>>;
    handler: Record<ListKind, Record<AssociationOp, HandlerWords>>;
    /** What a stale `:set-*` on the host list says before "updated target and 0 rows updated". */
    staleSet: string;
    /** What a remove of an id that is not attached says was deleted (`target host sources deleted 0 did not match request for 1`). */
    removedMismatch: Record<ListKind, string>;
  };
  /** How `attributes.default_port` is judged on create and PATCH. */
  ports: PortFacts;
  /**
   * A PATCH with `?update_mask=` answers the body's fields the mask left out where the stored value
   * is unset (gorm v1's lookup after the write keeps a NULL column's field as the request set it:
   * 0.4–0.6; gorm v2 from 0.7) [inferred from go.mod and the real v0.4.0's answer].
   */
  patchEchoesUnmasked: boolean;
  /**
   * An add or set of host sets takes a host set of another project: up to 0.10 the trigger
   * target_host_set_scope_valid (migration 0/40) checks only that the Target's project has some
   * host set, never the one added; migration 44/03 (0.11) compares the two projects [observed on real v0.4.0].
   */
  hostSetsAnyProject: boolean;
  /**
   * An add of a credential library the controller does not know fails in the database: the foreign key
   * of target_credential_library, answered as a repository 500 (0.4 only; later releases answer the release's own unknown-member error).
   */
  credentialLibraryForeignKey: boolean;
  /**
   * An add or remove of credential sources looks its ids up before anything else (the repository's
   * createSources, 0.9+): ids it does not find are "mismatch between request and returned source
   * ids, expected N got M" (real v0.12.2, v0.15.5 and v0.21.3 answered so), before the version is checked.
   */
  credentialSourcesLookedUp: boolean;
  /**
   * An add of credential sources already attached, or of another project, breaks the database's keys:
   * the primary key, or the project-scoped foreign key migration 46/03 gave target_credential_library
   * and target_static_credential (0.10+; real v0.12.2, v0.15.5 and v0.21.3 answered in its words).
   */
  credentialSourceConstraints: boolean;
  /**
   * An add or set of host sets the database refuses is answered in the database's words: an attached
   * one added again the primary key of target_host_set, an unknown one its foreign key (0.4:
   * repository_host_set.go creates the rows with db.CreateItems; observed on real v0.4.0).
   */
  hostSetConstraints: boolean;
  /**
   * A list token used with another scope is the 400 "grants have changed since list token was issued"
   * (0.19.3+: grants are fetched for the request's scope, so their hash differs; listtoken.Validate).
   */
  listTokenScoped: boolean;
  /** What a tcp Target answers for an injected credential source (tcp.VetCredentialSources, 0.10+); absent before injected sources. */
  injectedOnTcp?: string;
  /**
   * How a request body is read: `gateway` (grpc-gateway's JSONPb: Go's encoding/json reads the first
   * value, protojson decodes it with DiscardUnknown; a PATCH's keys become the update mask, so an
   * unknown one is refused; every failure is a 500 "rpc error: code = InvalidArgument desc = …";
   * no size limit: globals.DefaultMaxRequestSize is never applied) or `ours` (JSON.parse, a 400
   * naming the body, 413 over 1 MiB).
   */
  bodyDecoding: "gateway" | "ours";
  /** protojson's words for a value of the wrong type: `type` (protobuf-go < 1.35: "invalid value for string type: 5") or `field` ("… string field name: 5"). */
  protojsonWords: "type" | "field";
  /** authorize-session's path template: `/v1/targets/{id}` (`segment`) or `/v1/targets/{id=**}` (`rest`, 0.13+: a Target name may hold `/`). */
  authorizeSessionPath: "segment" | "rest";
  /** Go's http.ServeMux cleans paths first: one with `.`, `..` or `//` is a 301 to the clean path (`redirect`); or no cleaning (`none`). */
  pathCleaning: "redirect" | "none";
  /** What the authenticate action reads and answers. */
  authenticate: AuthenticateFacts;
  /**
   * When the caller's token is judged: `last` (Boundary: the gateway decodes the body, the handler
   * validates the request, `authResult` looks the scope or Target up, and only then `auth.Verify`
   * answers 401 for the anonymous user, 403 for a token without the grant: TS and auth.go at every
   * tag from v0.4.0 to v0.21.3) or `first` (the spec's controller: 401 and 403 before the body is read).
   */
  checksTokenAt: "first" | "last";
  /**
   * The answer to a recursive list from `global` with no token, one it never issued or one that is no
   * token: 401 up to 0.5 (TS ListTargets goes on past authResult's error only for a 403), 403
   * PermissionDenied from 0.6 (it goes on for the anonymous user's 401 too, and scopeids finds no scope
   * where u_anon may list Targets: observed on real v0.15.5 and v0.21.3, 401 on real v0.4.0).
   */
  anonymousGlobalList: "Unauthenticated" | "PermissionDenied";
  /**
   * The go-bexpr release whose grammar judges a list's filter and whose evaluator matches it, as the
   * row's go.mod pins it (v0.1.9 lets a JSON pointer hold ":", v0.1.10 an identifier "/", v0.1.12
   * answers a key missing from a map by the operator's NotPresentDisposition (`!=` true) where older
   * ones excluded the item, v0.1.13 adds `any`/`all` collection expressions; v0.1.11, v0.1.14 and
   * v0.1.15 change neither): its parser's refusal is the 400's words.
   */
  bexprGrammar: BexprGrammar;
  /** What GET /health answers on the ops listener: `{}` as JSON (the health service through the gateway) or an empty body (the spec). */
  healthBody: "json" | "empty";
}

/**
 * A row after the first: the facts that changed (`adds`, `requires`, `replaces` accumulate; `lists`,
 * `ports`, `authorizeSession` and `actionErrors` merge over the previous row's; the rest replace).
 */
export type ReleaseRow = Partial<Omit<ReleaseFacts, "fields" | "values" | "lists" | "actionErrors" | "authorizeSession" | "ports" | "authenticate">> & {
  release: string;
  patch: string;
  changes: string;
  lists?: ReleaseFacts["lists"];
  adds?: { fields?: readonly InputField[]; values?: readonly { field: InputField; value: string }[] };
  actionErrors?: Partial<Omit<ReleaseFacts["actionErrors"], "handler">> & { handler?: Partial<ReleaseFacts["actionErrors"]["handler"]> };
  /** The port facts that changed (the rest are the previous release's). */
  ports?: Partial<PortFacts>;
  /** authorize-session's facts that changed (the rest are the previous release's). */
  authorizeSession?: Partial<SessionFacts>;
  /** The authenticate action's facts that changed. */
  authenticate?: Partial<AuthenticateFacts>;
};
