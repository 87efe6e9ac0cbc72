/**
 * The pieces the release table's rows (`release-rows.ts`) are built from: the answers, actions,
 * words and lists several rows share, each read where the row that uses it says.
 */
import type { ListFacts, ListNoun } from "./release-facts";

/** authorize-session's answer up to 0.14 (TP `SessionAuthorization`). */
// prettier-ignore
export const SESSION_FIELDS_04 = [
  "session_id", "target_id", "scope", "created_time", "user_id", "host_set_id", "host_id", "type", "authorization_token", "endpoint", "credentials",
] as const;

/** authorize-session's answer from 0.15 (TP `SessionAuthorization`; TS fills `connection_limit` only from 0.19). */
export const SESSION_FIELDS_015 = [...SESSION_FIELDS_04, "endpoint_port", "expiration"] as const;

/** authorize-session's 400 when no worker is left, in the handler's words (0.4–0.18; from 0.13 only when a filter left none). */
export const FILTERED = "No workers are available to handle this session, or all have been filtered.";

/** A list noun's actions: add, set and remove. */
export const actionsOn = (noun: ListNoun) => [`add-${noun}`, `set-${noun}`, `remove-${noun}`];
/** A release's actions (TS IdActions): read and write, each list noun's add, set and remove, then authorize-session. */
export const actionsFor = (...nouns: ListNoun[]) => ["no-op", "read", "update", "delete", ...nouns.flatMap(actionsOn), "authorize-session"];

/** The repository's operations on a list (`AddTargetHostSources`), as its errors name them. */
export const repositoryOps = (list: string) => ({ add: `AddTarget${list}`, set: `SetTarget${list}`, remove: `DeleteTarget${list}` });

/** A handler's words over an action's failed repository call: it wraps the error, naming the list (`host sets`). */
export const wraps = (nouns: string) => ({
  add: { wrap: `Unable to add ${nouns} to target` },
  set: { wrap: `Unable to set ${nouns} in target` },
  remove: { wrap: `Unable to remove ${nouns} from target` },
});

/** A list taking `prefixes` through its routes (`[noun, ...id fields read]`), its views answering every id field routed. */
export const listOf = (prefixes: readonly string[], ...routes: [ListNoun, ...string[]][]): ListFacts => ({
  routes: routes.map(([noun, ...reads]) => ({ noun, reads })),
  answers: routes.flatMap(([, ...reads]) => reads),
  prefixes,
});

/** The three lists' facts in the releases 0.5 to 0.21, the ones several rows share. */
export const HOSTS_05 = listOf(["hsst_"], ["host-sets", "host_set_ids"], ["host-sources", "host_source_ids"]);
/** The host list of 0.10: plugin host sets beside static ones. */
export const HOSTS_010: ListFacts = { ...HOSTS_05, prefixes: ["hsst_", "hsplg_", "hs_"] };
/** The host list of 0.11: v0.4's host-set names gone. */
export const HOSTS_011 = listOf(HOSTS_010.prefixes, ["host-sources", "host_source_ids"]);
/** The brokered credential list of 0.10 (the 0.5 name still read). */
export const CREDS_010 = (prefixes: readonly string[]) =>
  listOf(prefixes, ["credential-sources", "application_credential_source_ids", "brokered_credential_source_ids"]);
/** The brokered credential list of 0.14 (the 0.5 name gone). */
export const CREDS_014 = (prefixes: readonly string[]) => listOf(prefixes, ["credential-sources", "brokered_credential_source_ids"]);
/** The injected credential list (0.10+). */
export const INJECTED = (prefixes: readonly string[]) => listOf(prefixes, ["credential-sources", "injected_application_credential_source_ids"]);
/** The fields an empty credential-sources add or remove names, 0.7–0.9 (TS validateAddCredentialSourcesRequest, validateRemoveCredentialSourcesRequest). */
export const EGRESS_07 = ["application_credential_source_ids", "egress_credential_source_ids"] as const;
/** The same from 0.10, the brokered and injected names. */
export const BROKERED_010 = ["brokered_credential_source_ids", "injected_application_credential_source_ids"] as const;
/** The credential sources 0.10 took (`credup_`, its earlier prefix `cred_`, `credspk_`), before JSON credentials (0.11). */
export const STATIC_010 = ["credup_", "cred_", "credspk_"] as const;

/** The rate limiter's default quotas, the same from 0.14.3 to 0.21.3 (internal/ratelimit/config.go). */
export const RATE_LIMITS = {
  periodSeconds: 30,
  list: { authToken: 150, ipAddress: 1500, total: 1500 },
  other: { authToken: 3000, ipAddress: 30000, total: 30000 },
} as const;

/** The actions each resource registers (action.RegisterResource: IdActions ∪ CollectionActions) at 0.21.3, as the rate limiter's defaults count them. */
// a count per resource, alphabetical, reads best as a few lines
// prettier-ignore
export const ACTIONS_PER_RESOURCE_021 = {
  account: 8, alias: 6, "auth-method": 8, "auth-token": 6, billing: 1, credential: 6, "credential-library": 6, "credential-store": 6,
  group: 9, "host-catalog": 6, host: 6, "host-set": 9, "managed-group": 6, policy: 6, role: 15, scope: 12, session: 6,
  "session-recording": 6, "storage-bucket": 6, target: 13, user: 10, worker: 12,
} as const;
