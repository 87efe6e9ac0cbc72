/**
 * A session's certificate, as Boundary's `internal/session` makes one (`newCert`): a fresh Ed25519
 * key pair and a self-signed X.509 v3 certificate for it with an empty subject and issuer, a
 * random positive 63-bit serial, valid from a minute ago until the session expires, key usage
 * digitalSignature|keyEncipherment|keyAgreement|keyCertSign (critical), extended key usage
 * serverAuth and clientAuth, basic constraints CA (critical), the subject key identifier Go's
 * `x509.CreateCertificate` adds to a CA certificate, and subject alternative names (critical, as
 * Go marks them when the subject is empty): the session id as a DNS name, then each worker's
 * address (an IP address, or a DNS name) from 0.8 on. The client presents it to the worker.
 *
 * The ASN.1 structures are @peculiar/asn1-x509's and their DER asn1js's (the library it is built
 * on); the key pair and the signature are Node's own (synchronous and fast: no WebCrypto promise
 * per session).
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isIP } from "node:net";
import { AsnConvert, AsnSerializer, OctetString } from "@peculiar/asn1-schema";
import { BitString, Sequence } from "asn1js";
import {
  AlgorithmIdentifier,
  BasicConstraints,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  GeneralName,
  KeyUsage,
  KeyUsageFlags,
  Name,
  SubjectAlternativeName,
  SubjectKeyIdentifier,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_subjectAltName,
  id_ce_subjectKeyIdentifier,
  id_kp_clientAuth,
  id_kp_serverAuth,
} from "@peculiar/asn1-x509";
import type { SubjectKeyIdMethod } from "../../wire/releases";

/** Ed25519's algorithm identifier (RFC 8410): the key's and the signature's, without parameters. */
const ID_ED25519 = "1.3.101.112";

/** How the subject key id is derived from the raw public key (the release table says which Go each release was built with). */
export type { SubjectKeyIdMethod };

/** What a session certificate is made from. */
export interface CertificateRequest {
  sessionId: string;
  /** The session's expiry: the certificate's notAfter. */
  expiresAt: Date;
  /** Worker addresses (host, or host:port) named in the subject alternative names; none before 0.8. */
  workerAddresses: readonly string[];
  subjectKeyId: SubjectKeyIdMethod;
  /** The time the certificate is made (notBefore is a minute earlier); now by default. */
  now?: Date;
}

/** A session certificate and its key, in the forms Boundary's token carries them. */
export interface SessionCertificate {
  /** The certificate's DER. */
  der: Buffer;
  /** Go's `ed25519.PrivateKey`: the 32-byte seed followed by the 32-byte public key. */
  privateKey: Buffer;
}

/** Ed25519's algorithm identifier, as ASN.1 once: the certificate names it twice per session. */
const ED25519_ASN = AsnSerializer.toASN(new AlgorithmIdentifier({ algorithm: ID_ED25519 }));

/** An extension whose value the library serializes into its OCTET STRING. */
const extension = (extnID: string, critical: boolean, value: unknown) =>
  new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });

/** The extensions every session certificate carries alike, serialized once. */
const FIXED = {
  keyUsage: extension(
    id_ce_keyUsage,
    true,
    new KeyUsage(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment | KeyUsageFlags.keyAgreement | KeyUsageFlags.keyCertSign),
  ),
  extKeyUsage: extension(id_ce_extKeyUsage, false, new ExtendedKeyUsage([id_kp_serverAuth, id_kp_clientAuth])),
  basicConstraints: extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: true })),
};

/** Makes a session's key pair and self-signed certificate (about 0.2 ms; see docs/numbers.md). */
export function sessionCertificate(req: CertificateRequest): SessionCertificate {
  const { privateKey } = generateKeyPairSync("ed25519");
  // JWK gives the raw key bytes without parsing DER by hand: x is the public key, d the seed
  const jwk = privateKey.export({ format: "jwk" });
  const pub = Buffer.from(jwk.x!, "base64url");
  const seed = Buffer.from(jwk.d!, "base64url");
  const now = req.now ?? new Date();
  const empty = new Name();
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: serial63(),
    signature: new AlgorithmIdentifier({ algorithm: ID_ED25519 }),
    issuer: empty,
    validity: new Validity({ notBefore: new Date(now.getTime() - 60_000), notAfter: req.expiresAt }),
    subject: empty,
    subjectPublicKeyInfo: new SubjectPublicKeyInfo({ algorithm: new AlgorithmIdentifier({ algorithm: ID_ED25519 }), subjectPublicKey: toArrayBuffer(pub) }),
    extensions: new Extensions([FIXED.keyUsage, FIXED.extKeyUsage, FIXED.basicConstraints, ...ownExtensions(req, pub)]),
  });
  // walked into ASN.1 once: the same blocks are signed and then are the certificate's first element
  const tbsAsn = AsnSerializer.toASN(tbs);
  const signature = sign(null, new Uint8Array(tbsAsn.toBER(false)), privateKey);
  const certificate = new Sequence({ value: [tbsAsn, ED25519_ASN, new BitString({ valueHex: toArrayBuffer(signature) })] });
  return { der: Buffer.from(certificate.toBER(false)), privateKey: Buffer.concat([seed, pub]) };
}

/** The extensions of this session's certificate, after the fixed ones, in the order Go writes them. */
function ownExtensions(req: CertificateRequest, pub: Buffer): Extension[] {
  const skid = req.subjectKeyId === "sha1" ? createHash("sha1").update(pub).digest() : createHash("sha256").update(pub).digest().subarray(0, 20);
  const names = [new GeneralName({ dNSName: req.sessionId })];
  const ips: GeneralName[] = [];
  for (const address of req.workerAddresses) {
    const host = hostOf(address);
    // Go lists DNS names before IP addresses
    if (isIP(host)) ips.push(new GeneralName({ iPAddress: host }));
    else names.push(new GeneralName({ dNSName: host }));
  }
  return [
    extension(id_ce_subjectKeyIdentifier, false, new SubjectKeyIdentifier(toArrayBuffer(skid))),
    extension(id_ce_subjectAltName, true, new SubjectAlternativeName([...names, ...ips])),
  ];
}

/** The host of `host`, `host:port`, `[v6]` or `[v6]:port` (a bare IPv6 address stays whole). */
function hostOf(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1]!;
  if (isIP(address)) return address;
  const colon = address.lastIndexOf(":");
  return colon < 0 ? address : address.slice(0, colon);
}

/** Go's `big.NewInt(rand.Int63())`: a positive integer below 2^63, as an INTEGER's minimal bytes. */
function serial63(): ArrayBuffer {
  const bytes = randomBytes(8);
  bytes[0]! &= 0x7f;
  let start = 0;
  // a DER INTEGER has no leading zero byte unless the next byte's top bit is set
  while (start < 7 && bytes[start] === 0 && bytes[start + 1]! < 0x80) start++;
  return toArrayBuffer(bytes.subarray(start));
}

function toArrayBuffer(b: Buffer): ArrayBuffer {
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}
