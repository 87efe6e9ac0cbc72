/**
 * A listener's TLS, as Boundary's listener blocks configure it (`tls_cert_file`, `tls_key_file`,
 * `tls_min_version`, `tls_max_version`): the certificate and key are PEM files, read at start and
 * read again on SIGHUP (as `boundary server` reloads its listeners' certificates), so a renewed
 * certificate is served without a restart.
 */
import { readFileSync } from "node:fs";
import { createSecureContext, type SecureContextOptions } from "node:tls";
import { ConfigError } from "../errors";

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

/** The PEM block types in `text` (`CERTIFICATE`, `PRIVATE KEY`, `EC PRIVATE KEY`, …). */
function pemTypes(text: string): string[] {
  return [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1]!);
}

/**
 * Why `tls` cannot serve, in plain words rather than OpenSSL's codes (`error:0480006C:PEM
 * routines::no start line`): files swapped, not PEM, an encrypted key, a key from another pair;
 * or undefined when it can.
 */
export function tlsProblem(tls: ListenerTls): string | undefined {
  const [cert, key] = [pemTypes(tls.cert), pemTypes(tls.key)];
  const isKey = (t: string) => t.endsWith("PRIVATE KEY");
  const certHasCert = cert.includes("CERTIFICATE");
  const keyHasKey = key.some(isKey);
  if (!certHasCert && !keyHasKey && cert.some(isKey) && key.includes("CERTIFICATE"))
    return "the two files are swapped: tls_cert_file holds a private key and tls_key_file a certificate";
  if (!certHasCert)
    return cert.some(isKey)
      ? "tls_cert_file holds a private key, not a certificate"
      : "tls_cert_file is not a PEM certificate (it has no -----BEGIN CERTIFICATE----- line)";
  if (!keyHasKey)
    return key.includes("CERTIFICATE")
      ? "tls_key_file holds a certificate, not a private key"
      : "tls_key_file is not a PEM private key (it has no -----BEGIN PRIVATE KEY----- line)";
  if (key.includes("ENCRYPTED PRIVATE KEY") || /Proc-Type: 4,ENCRYPTED/.test(tls.key))
    return "tls_key_file is encrypted with a passphrase, which the local controller cannot ask for: give it the key unencrypted (openssl pkey -in KEY)";
  try {
    createSecureContext(secureOptions(tls));
    return undefined;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ERR_OSSL_X509_KEY_VALUES_MISMATCH") return "the key is not the certificate's key (they come from different pairs)";
    // what is left: OpenSSL's words without its code (`error:1E08010C:DECODER routines::unsupported`)
    return `the certificate or key cannot be used: ${e.message.replace(/^error:[0-9A-F]+:/, "")}`;
  }
}

/** `tls` with its files read again; throws a ConfigError naming the file that cannot be read or used. */
export function rereadTls(tls: ListenerTls): ListenerTls {
  const read = (file: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      throw new ConfigError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };
  const next = { ...tls, cert: read(tls.certFile), key: read(tls.keyFile) };
  const problem = tlsProblem(next);
  if (problem) throw new ConfigError(`${tls.certFile} and ${tls.keyFile}: ${problem}`);
  return next;
}
