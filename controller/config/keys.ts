/**
 * The keys and blocks of Boundary's configuration file (v0.21.3: internal/cmd/config/config.go,
 * go-secure-stdlib configutil and listenerutil), and which of them the local controller reads.
 *
 * Boundary decodes its file with HCL v1, which ignores any key it does not know: a misspelt
 * `adress` or `listner` block silently falls back to the defaults. Here a key or block within a
 * typo of a known one (or a known key in the wrong block) is refused, naming the line and the
 * known one; an unknown key with nothing near is warned about and ignored, as Boundary ignores
 * it (a file written for a newer Boundary still loads); keys Boundary knows but this controller
 * does not use (`database`, `kms`, …) are warned about as ignored.
 */
import { nearestName } from "../../common/nearest";
import type { Block } from "./hcl";

/** What a block may hold: keys this controller reads, keys only Boundary uses, and nested blocks. */
interface BlockKeys {
  read: readonly string[];
  boundaryOnly: readonly string[];
  /** Nested blocks: checked ones, and "ignored" for Boundary's blocks this controller does not look into. */
  blocks: Record<string, BlockKeys | "ignored">;
}

const RATE_LIMIT: BlockKeys = { read: ["resources", "actions", "per", "limit", "period"], boundaryOnly: ["unlimited"], blocks: {} };

const CONTROLLER: BlockKeys = {
  read: ["graceful_shutdown_wait_duration", "emulate", "api_rate_limit_max_quotas", "api_rate_limit_disable", "max_page_size", "auth_token_time_to_live"],
  boundaryOnly: [
    "name",
    "description",
    "public_cluster_addr",
    "auth_token_time_to_stale",
    "worker_status_grace_period",
    "liveness_time_to_stale",
    "get_downstream_workers_timeout",
    "license",
    "concurrent_password_hash_workers",
  ],
  blocks: { api_rate_limit: RATE_LIMIT, database: "ignored", scheduler: "ignored" },
};

const LISTENER: BlockKeys = {
  read: ["type", "purpose", "address", "tls_disable", "tls_cert_file", "tls_key_file", "tls_min_version", "tls_max_version"],
  boundaryOnly: [
    ...["cluster_address", "max_request_size", "max_request_duration", "require_request_header"],
    ...["tls_cipher_suites", "tls_prefer_server_cipher_suites", "tls_require_and_verify_client_cert", "tls_client_ca_file", "tls_disable_client_certs"],
    ...["http_read_timeout", "http_read_header_timeout", "http_write_timeout", "http_idle_timeout"],
    ...["proxy_protocol_behavior", "proxy_protocol_authorized_addrs", "socket_mode", "socket_user", "socket_group"],
    ...["x_forwarded_for_authorized_addrs", "x_forwarded_for_hop_skips", "x_forwarded_for_reject_not_present", "x_forwarded_for_reject_not_authorized"],
    ...["cors_enabled", "cors_disable_default_allowed_origin_values", "cors_allowed_origins", "cors_allowed_headers"],
  ],
  blocks: { telemetry: "ignored", custom_api_response_headers: "ignored", custom_ui_response_headers: "ignored" },
};

const ROOT: BlockKeys = {
  read: [],
  boundaryOnly: [
    ...["hcp_boundary_cluster_id", "enable_worker_auth_debugging", "disable_mlock", "default_max_request_duration"],
    ...["log_format", "log_level", "pid_file", "cluster_name"],
  ],
  blocks: {
    controller: CONTROLLER,
    listener: LISTENER,
    ...Object.fromEntries(["worker", "kms", "seal", "hsm", "entropy", "events", "plugins", "telemetry", "reporting"].map((b) => [b, "ignored" as const])),
  },
};

/** Every key and block name, and the block it belongs in, for "belongs in …" messages. */
const HOMES: [BlockKeys, string][] = [
  [ROOT, "at the top level"],
  [CONTROLLER, "in the controller block"],
  [LISTENER, 'in a listener "tcp" block'],
  [RATE_LIMIT, "in a controller.api_rate_limit block"],
];

/** A mistake or a warning about one key, with the line it is on (0 when unknown). */
export interface KeyFinding {
  line: number;
  message: string;
}

/** The refused keys and the warnings of a configuration file, each in line order. */
export function checkConfigKeys(root: Block): { errors: KeyFinding[]; warnings: KeyFinding[] } {
  const errors: KeyFinding[] = [];
  const warnings: KeyFinding[] = [];
  const walk = (block: Block, keys: BlockKeys, name: string) => {
    const entries: [string, number, Block | undefined][] = [
      ...Object.keys(block.attrs).map((k): [string, number, undefined] => [k, block.lines[k] ?? 0, undefined]),
      ...block.blocks.map((b): [string, number, Block] => [b.type, b.line, b]),
    ];
    for (const [key, line, child] of entries) {
      const what = child ? "block" : "key";
      const nested = keys.blocks[key];
      if (child && nested === "ignored") {
        warnings.push({ line, message: `the ${key} block ${name} is Boundary's, and not used by the local controller: ignored` });
      } else if (child && nested && nested !== "ignored") {
        walk(child, nested, ["in", key, ...child.labels.map((l) => JSON.stringify(l))].join(" "));
      } else if (!child && keys.read.includes(key)) {
        continue;
      } else if (!child && keys.boundaryOnly.includes(key)) {
        warnings.push({ line, message: `${key} ${name} is Boundary's, and not used by the local controller: ignored` });
      } else {
        const known = [...keys.read, ...keys.boundaryOnly, ...Object.keys(keys.blocks)];
        const home = HOMES.find(([k]) => k !== keys && (k.read.includes(key) || k.boundaryOnly.includes(key) || key in k.blocks));
        const near = nearestName(key, known);
        if (home) errors.push({ line, message: `${key} ${name}: it belongs ${home[1]}` });
        else if (near) errors.push({ line, message: `unknown ${what} ${JSON.stringify(key)} ${name}: the nearest known one is ${JSON.stringify(near)}` });
        else warnings.push({ line, message: `unknown ${what} ${JSON.stringify(key)} ${name}: ignored, as Boundary ignores what it does not know` });
      }
    }
  };
  walk(root, ROOT, "at the top level");
  const byLine = (a: KeyFinding, b: KeyFinding) => a.line - b.line;
  return { errors: errors.sort(byLine), warnings: warnings.sort(byLine) };
}

/** The listener purposes Boundary takes; the local controller serves api and ops. */
export const LISTENER_PURPOSES = ["api", "ops", "cluster", "proxy"] as const;
