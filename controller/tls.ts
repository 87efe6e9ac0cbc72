/**
 * A listener's TLS, as Boundary's listener blocks configure it (`tls_cert_file`, `tls_key_file`,
 * `tls_min_version`, `tls_max_version`): the certificate and key are PEM files, read at start and
 * read again on SIGHUP (as `boundary server` reloads its listeners' certificates), so a renewed
 * certificate is served without a restart.
 */
import { readFileSync } from "node:fs";
import { createSecureContext, type SecureContextOptions } from "node:tls";

/** A listener's certificate and key: the files, and their PEM text as last read. */
export interface ListenerTls {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
  minVersion?: "TLSv1.2" | "TLSv1.3";
  maxVersion?: "TLSv1.2" | "TLSv1.3";
}

/** The options a TLS server takes for `tls` (Boundary's default minimum is TLS 1.2). */
export function secureOptions(tls: ListenerTls): SecureContextOptions {
  return { cert: tls.cert, key: tls.key, minVersion: tls.minVersion ?? "TLSv1.2", ...(tls.maxVersion ? { maxVersion: tls.maxVersion } : {}) };
}

/** Why `tls` cannot serve (not PEM, a key that is not the certificate's, …), or undefined. */
export function tlsProblem(tls: ListenerTls): string | undefined {
  try {
    createSecureContext(secureOptions(tls));
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** `tls` with its files read again; throws an Error naming the file that cannot be read or used. */
export function rereadTls(tls: ListenerTls): ListenerTls {
  const read = (file: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };
  const next = { ...tls, cert: read(tls.certFile), key: read(tls.keyFile) };
  const problem = tlsProblem(next);
  if (problem) throw new Error(`${tls.certFile} and ${tls.keyFile}: ${problem}`);
  return next;
}
