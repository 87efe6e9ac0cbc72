/**
 * authorize-session's `authorization_token`, as Boundary makes it: its protobuf
 * `SessionAuthorizationData` (controller.api.resources.targets.v1), marshaled and base58-encoded.
 * Boundary's client decodes it (`SessionAuthorization.GetSessionAuthorizationData`) and
 * `boundary connect -authz-token` connects with it: the worker addresses, the session's
 * certificate and private key, the endpoint.
 *
 * The message is declared here from Boundary's field names, numbers and types (read in
 * `internal/proto/controller/api/resources/targets/v1/target.proto` at v0.21.3, and at v0.4.0 under
 * `internal/proto/local/…`); the numbers never changed between releases, later releases only added
 * fields. protobufjs encodes it (its light build: no .proto parser is loaded).
 */
import { Root, type Type } from "protobufjs/light";
import { base58Encode } from "./base58";
import type { LaterTokenField } from "../../wire/releases";

/** protobufjs's JSON form of the messages: name → field → { type, id } (and `rule` for a list). */
const MESSAGES = {
  nested: {
    google: { nested: { protobuf: { nested: { Timestamp: { fields: { seconds: { type: "int64", id: 1 }, nanos: { type: "int32", id: 2 } } } } } } },
    ScopeInfo: {
      fields: {
        id: { type: "string", id: 1 },
        type: { type: "string", id: 2 },
        name: { type: "string", id: 3 },
        description: { type: "string", id: 4 },
        parent_scope_id: { type: "string", id: 5 },
      },
    },
    WorkerInfo: { fields: { address: { type: "string", id: 10 } } },
    SessionAuthorizationData: {
      fields: {
        session_id: { type: "string", id: 10 },
        target_id: { type: "string", id: 20 },
        scope: { type: "ScopeInfo", id: 30 },
        created_time: { type: "google.protobuf.Timestamp", id: 40 },
        type: { type: "string", id: 80 },
        connection_limit: { type: "int32", id: 90 },
        // 0.15+
        endpoint_port: { type: "uint32", id: 102 },
        // 0.15+
        expiration: { type: "google.protobuf.Timestamp", id: 105 },
        certificate: { type: "bytes", id: 120 },
        private_key: { type: "bytes", id: 130 },
        host_id: { type: "string", id: 140 },
        endpoint: { type: "string", id: 141 },
        worker_info: { rule: "repeated", type: "WorkerInfo", id: 150 },
        // 0.13+
        default_client_port: { type: "uint32", id: 160 },
      },
    },
  },
};

const SessionAuthorizationData: Type = Root.fromJSON(MESSAGES).lookupType("SessionAuthorizationData");

/** The fields of `SessionAuthorizationData` that later releases added to v0.4's (the release table's `tokenFields`). */
export type { LaterTokenField };

/** What the token carries, in the message's own (snake_case) names; proto3: zero values are not sent. */
export interface SessionAuthorizationData {
  session_id: string;
  target_id: string;
  scope: { id: string; type: string; name?: string; description?: string; parent_scope_id?: string };
  created_time: Date;
  type: string;
  connection_limit: number;
  endpoint_port?: number;
  expiration?: Date;
  /** The session certificate's DER. */
  certificate: Uint8Array;
  /** Go's `ed25519.PrivateKey` (seed and public key, 64 bytes). */
  private_key: Uint8Array;
  host_id?: string;
  endpoint: string;
  worker_info: { address: string }[];
  default_client_port?: number;
}

/** google.protobuf.Timestamp of a Date: whole seconds since the epoch and the nanoseconds left. */
function timestamp(d: Date): { seconds: number; nanos: number } {
  const ms = d.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1_000_000 };
}

/**
 * The fields Go's proto3 marshaling writes: it leaves out zero values ("", 0, empty lists), while
 * protobufjs writes every field present. Dropping them keeps the bytes Boundary's.
 */
function populated<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== "" && v !== 0 && !(Array.isArray(v) && v.length === 0))) as Partial<T>;
}

/**
 * The authorization token of `data` as a release makes it: the fields of v0.4's message, and of
 * the later ones only those in `later` (a release's message has no others, so it sends none).
 */
export function authorizationToken(data: SessionAuthorizationData, later: readonly LaterTokenField[]): string {
  const has = (f: LaterTokenField) => later.includes(f);
  const message = SessionAuthorizationData.fromObject(
    populated({
      ...data,
      scope: populated(data.scope),
      created_time: timestamp(data.created_time),
      endpoint_port: has("endpoint_port") ? data.endpoint_port : undefined,
      expiration: has("expiration") && data.expiration ? timestamp(data.expiration) : undefined,
      default_client_port: has("default_client_port") ? data.default_client_port : undefined,
    }),
  );
  return base58Encode(SessionAuthorizationData.encode(message).finish());
}
