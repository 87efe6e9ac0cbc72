/**
 * Self-signed certificates for TLS tests, made by the machine's `openssl` (1.1.1 or later, for
 * -addext): a P-256 key and a one-day certificate for localhost and 127.0.0.1. No library on the
 * npm registry is needed for it, and a machine without openssl fails the test saying so.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

/** A certificate made for a test: the files a server is configured with, and the certificate's PEM for a client to trust. */
export interface TestCert {
  certFile: string;
  keyFile: string;
  cert: string;
}

/** Writes `<name>.crt` and `<name>.key` into `dir`. */
export function selfSignedCert(dir: string, name: string): TestCert {
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  try {
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", keyFile, "-out", certFile],
        ...["-days", "1", "-subj", `/CN=${name}`, "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
      ],
      { stdio: "pipe" },
    );
  } catch (err) {
    throw new Error(`openssl could not make a test certificate (is openssl 1.1.1+ on PATH?): ${(err as Error).message}`);
  }
  return { certFile, keyFile, cert: readFileSync(certFile, "utf8") };
}
