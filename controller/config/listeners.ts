/**
 * The config file's `listener "tcp"` blocks, read as Boundary reads them: one purpose each (api,
 * ops, cluster, proxy: the local controller serves api and ops), an address, and TLS unless
 * `tls_disable = true` (go-secure-stdlib listenerutil; internal/cmd/base/listener.go).
 */
import * as path from "node:path";
import { nearestName } from "../../common/nearest";
import { LISTENER_PURPOSES } from "./keys";
import { ConfigError } from "../errors";
import type { Block } from "./hcl";
import { tlsProblem, type ListenerTls } from "./tls";

/** The default address of each listener the controller serves (a `boundary dev`'s). */
export const DEFAULT_ADDR = { api: "127.0.0.1:9200", ops: "127.0.0.1:9203" } as const;

/** A listener block the controller serves, found by its purpose. */
export interface ListenerBlock {
  block: Block;
  purpose: "api" | "ops";
  /** `--config FILE: line N: ` for its messages. */
  at: (key?: string) => string;
}

/**
 * The api and ops listener blocks of `root`, each checked: its type (tcp), its one purpose, its
 * TLS settings. A purpose Boundary does not know is refused naming the nearest; cluster and
 * proxy listeners are Boundary's, and reported in `warnings` as not served.
 */
export function listenerBlocks(root: Block, file: string, warnings: string[]): Partial<Record<"api" | "ops", ListenerBlock>> {
  const found: Partial<Record<"api" | "ops", ListenerBlock>> = {};
  for (const block of root.blocks.filter((b) => b.type === "listener")) {
    const at = (key?: string) => `--config ${file}: line ${(key && block.lines[key]) || block.line}: `;
    const type = block.attrs["type"] ?? block.labels[0];
    if (type !== "tcp") {
      const near = typeof type === "string" && type !== "unix" ? nearestName(type, ["tcp"]) : undefined;
      throw new ConfigError(
        `${at("type")}listener type ${JSON.stringify(type ?? "")}: the local controller listens on "tcp" only${near ? `; did you mean "${near}"?` : ""}`,
      );
    }
    const raw = block.attrs["purpose"];
    const purposes = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",").map((p) => p.trim()) : [];
    if (purposes.length !== 1 || typeof purposes[0] !== "string")
      throw new ConfigError(`${at("purpose")}listener "tcp": expected a single listener purpose (api or ops), found ${JSON.stringify(raw ?? null)}`);
    const purpose = purposes[0].toLowerCase();
    if (!(LISTENER_PURPOSES as readonly string[]).includes(purpose)) {
      const near = nearestName(purpose, LISTENER_PURPOSES);
      throw new ConfigError(`${at("purpose")}unknown listener purpose ${JSON.stringify(purpose)}${near ? `: the nearest known one is "${near}"` : ""}`);
    }
    if (purpose !== "api" && purpose !== "ops") {
      warnings.push(`${at("purpose")}warning: a listener with purpose "${purpose}" is Boundary's (workers), and not served by the local controller: ignored`);
      continue;
    }
    // as Boundary, the first listener of a purpose serves (it would serve all: say so)
    if (found[purpose]) warnings.push(`${at("purpose")}warning: a second listener with purpose "${purpose}": only the first one is served`);
    else found[purpose] = { block, purpose, at };
  }
  return found;
}

/** The listener's address (`HOST:PORT`; a host without a port gets the purpose's default port). */
export function listenerAddress(l: ListenerBlock): string {
  const address = l.block.attrs["address"];
  if (address === undefined) return DEFAULT_ADDR[l.purpose];
  if (typeof address !== "string")
    throw new ConfigError(`${l.at("address")}listener "tcp" (purpose ${l.purpose}).address: must be a string, got ${JSON.stringify(address)}`);
  return /:\d+$/.test(address) ? address : `${address}:${DEFAULT_ADDR[l.purpose].split(":")[1]}`;
}

/** Boundary's `tls_min_version` / `tls_max_version` values, as Node names them. */
const TLS_VERSIONS: Record<string, ListenerTls["minVersion"]> = { tls12: "TLSv1.2", tls13: "TLSv1.3" };

/**
 * A listener block's TLS, as Boundary's listeners take it: `tls_cert_file` and `tls_key_file`
 * (PEM) serve HTTPS, `tls_disable = true` plain HTTP, `tls_min_version`/`tls_max_version` tls12 or
 * tls13. Neither a certificate nor `tls_disable = true` is refused in Boundary's words. A relative
 * path is read from the working directory, as Boundary reads it (reloadutil: ioutil.ReadFile), and messages name
 * the absolute path tried. Both files are read now: one missing, unreadable or not a matching
 * certificate and key is a ConfigError naming the key and the file.
 */
export function listenerTls(l: ListenerBlock, finalAddr: string, readFile: (path: string) => string): { tls?: ListenerTls } {
  const where = (k: string) => `${l.at(k)}listener "tcp" (purpose ${l.purpose}).${k}`;
  const { tls_disable: disable, tls_cert_file: cert, tls_key_file: key, tls_min_version: min, tls_max_version: max } = l.block.attrs;
  if (disable !== undefined && typeof disable !== "boolean") throw new ConfigError(`${where("tls_disable")}: ${JSON.stringify(disable)} must be true or false`);
  if (disable === true) return {};
  if (cert === undefined && key === undefined) {
    // Boundary's own words (internal/cmd/base/listener.go), then what to do
    const [addr, purpose] = [JSON.stringify(finalAddr), JSON.stringify(l.purpose)];
    const words = `tls not disabled for listener at address ${addr} with purpose ${purpose} but no certificate file supplied`;
    throw new ConfigError(`${l.at()}${words} (set tls_disable = true for plain HTTP, or tls_cert_file and tls_key_file)`);
  }
  if (typeof cert !== "string" || cert === "") throw new ConfigError(`${where("tls_cert_file")}: required with tls_key_file, unless tls_disable = true`);
  if (typeof key !== "string" || key === "") throw new ConfigError(`${where("tls_key_file")}: required with tls_cert_file, unless tls_disable = true`);
  for (const [k, v] of [
    ["tls_min_version", min],
    ["tls_max_version", max],
  ] as const) {
    if (v !== undefined && (typeof v !== "string" || !TLS_VERSIONS[v])) throw new ConfigError(`${where(k)}: ${JSON.stringify(v)} must be tls12 or tls13`);
  }
  const [certFile, keyFile] = [path.resolve(cert), path.resolve(key)];
  const read = (k: string, file: string) => {
    try {
      return readFile(file);
    } catch (err) {
      const relative = file !== (k === "tls_cert_file" ? cert : key) ? ` (relative paths are read from the working directory, as Boundary reads them)` : "";
      throw new ConfigError(`${where(k)}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}${relative}`);
    }
  };
  const tls: ListenerTls = { certFile, keyFile, cert: read("tls_cert_file", certFile), key: read("tls_key_file", keyFile) };
  if (typeof min === "string") tls.minVersion = TLS_VERSIONS[min];
  if (typeof max === "string") tls.maxVersion = TLS_VERSIONS[max];
  const problem = tlsProblem(tls);
  if (problem) throw new ConfigError(`${where("tls_cert_file")} ${certFile} and tls_key_file ${keyFile}: ${problem}`);
  return { tls };
}
