/**
 * authorize-session's authorization token, decoded as Boundary's client decodes it: base58, then
 * protobuf `SessionAuthorizationData` with a decoder built from .proto text written from Boundary's
 * declarations (test/fixtures/session-authorization-data-*.proto), not from the controller's own
 * message. Every field is checked; the certificate is parsed as X.509 and matched to the key.
 */
import { createHash, createPrivateKey, X509Certificate } from "node:crypto";
import { join } from "node:path";
import { AsnConvert } from "@peculiar/asn1-schema";
import {
  BasicConstraints,
  Certificate,
  KeyUsage,
  KeyUsageFlags,
  SubjectKeyIdentifier,
  id_ce_basicConstraints,
  id_ce_keyUsage,
  id_ce_subjectKeyIdentifier,
} from "@peculiar/asn1-x509";
import { Root, type Type } from "protobufjs";
import { PROJECT, startTestController, useTestController } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";
import { knows, release, type ReleaseKey } from "../../wire/releases";

/** Base58 (Bitcoin alphabet) decoded here, apart from the controller's encoder. */
function base58(text: string): Buffer {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let n = 0n;
  for (const c of text) n = n * 58n + BigInt(alphabet.indexOf(c));
  const hex = n.toString(16);
  const zeros = /^1*/.exec(text)![0].length;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex")]);
}

function messageType(release: "v0.4" | "v0.21"): Type {
  const root = new Root();
  root.loadSync(join(__dirname, "..", "fixtures", `session-authorization-data-${release}.proto`), { keepCase: true });
  return root.lookupType(`boundary.${release.replace(".", "_")}.SessionAuthorizationData`);
}
const V04 = messageType("v0.4");
const V021 = messageType("v0.21");

/** The token's message, as plain values (int64 seconds as numbers, bytes as Buffers). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the decoder's plain values, read field by field
function decode(type: Type, token: string): { bytes: Buffer; data: any } {
  const bytes = base58(token);
  const message = type.decode(bytes);
  return { bytes, data: type.toObject(message, { longs: Number, bytes: Buffer, defaults: false }) };
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const timestamp = (t: { seconds: number; nanos?: number }) => new Date(t.seconds * 1000 + Math.round((t.nanos ?? 0) / 1e6)).toISOString();

/**
 * What each release's token is, from its row of the release table: v0.4's message until a release
 * adds fields to it (0.13), then v0.21.3's (a superset), holding exactly the later fields the
 * release sends. (The rows' values are pinned, release by release, in test/wire/releases.test.ts.)
 */
function expectations(mode: ReleaseKey) {
  const r = release(mode);
  const s = r.authorizeSession;
  const later = new Set(s.tokenFields);
  return {
    type: later.size > 0 ? V021 : V04,
    later,
    answersLimits: s.fields.includes("expiration"),
    answersConnectionLimit: s.fields.includes("connection_limit"),
    sans: s.certificateNamesWorkers,
    skid: s.subjectKeyId,
    clientPort: knows(r, "defaultClientPort"),
  };
}

describe.each(MATRIX)("--emulate %s", (mode) => {
  const m = expectations(mode);
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });

  async function authorize(fields: Record<string, unknown> = {}) {
    const attributes = m.clientPort ? { default_port: 2222, default_client_port: 5555 } : { default_port: 2222 };
    const t = await c.create({ host_set_ids: ["hsst_1234567890"], attributes, session_max_seconds: 600, session_connection_limit: 3, ...fields });
    const res = await c.call("POST", `/v1/targets/${t.id}:authorize-session`, {});
    expect(res.status).toBe(200);
    return { t, s: res.body };
  }

  test("the token is the release's SessionAuthorizationData, every field as the answer says", async () => {
    const { t, s } = await authorize();
    const { bytes, data } = decode(m.type, s.authorization_token);
    // re-encoding gives the same bytes: no field the release's message lacks, none out of order
    expect(Buffer.from(m.type.encode(m.type.decode(bytes)).finish()).equals(bytes)).toBe(true);
    const { certificate, private_key, created_time, expiration, ...rest } = data;
    expect(s.scope).toMatchObject({ id: PROJECT, type: "project" });
    expect(rest).toEqual({
      session_id: s.session_id,
      target_id: t.id,
      scope: s.scope,
      type: "tcp",
      connection_limit: 3,
      host_id: "hst_1234567890",
      endpoint: "tcp://127.0.0.1:2222",
      worker_info: [{ address: "127.0.0.1:9202" }],
      ...(m.later.has("endpoint_port") && { endpoint_port: 2222 }),
      ...(m.later.has("default_client_port") && { default_client_port: 5555 }),
    });
    expect(timestamp(created_time)).toBe(s.created_time);
    if (m.later.has("expiration")) expect(timestamp(expiration)).toBe(s.expiration);
    else expect(expiration).toBeUndefined();
    expect(certificate).toBeInstanceOf(Buffer);
    expect(private_key).toHaveLength(64);
  });

  test("the answer carries endpoint_port and expiration only from 0.15, connection_limit only from 0.19 (real v0.15.5 answered none)", async () => {
    const { s } = await authorize({ session_connection_limit: -1 });
    if (m.answersLimits) {
      expect(s).toMatchObject({ endpoint_port: 2222 });
      expect(Date.parse(s.expiration) - Date.parse(s.created_time)).toBe(600_000);
    } else {
      for (const k of ["endpoint_port", "expiration"]) expect(s).not.toHaveProperty(k);
    }
    if (m.answersConnectionLimit) expect(s.connection_limit).toBe(-1);
    else expect(s).not.toHaveProperty("connection_limit");
    // no session recording in an open-source controller: the field is left out
    expect(s).not.toHaveProperty("session_recording_id");
  });

  test("the certificate is a self-signed Ed25519 CA certificate for the session, and the private key is its key", async () => {
    const { s } = await authorize();
    const { data } = decode(m.type, s.authorization_token);
    const x = new X509Certificate(data.certificate);
    const seed = data.private_key.subarray(0, 32);
    const pub = data.private_key.subarray(32);
    const key = createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", d: seed.toString("base64url"), x: pub.toString("base64url") }, format: "jwk" });
    expect(x.checkPrivateKey(key)).toBe(true);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.publicKey.asymmetricKeyType).toBe("ed25519");
    expect(x.ca).toBe(true);
    expect(x.subject ?? "").toBe("");
    expect(x.issuer ?? "").toBe("");
    expect(x.subjectAltName).toBe(m.sans ? `DNS:${s.session_id}, IP Address:127.0.0.1` : `DNS:${s.session_id}`);
    expect(x.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
    // valid from a minute before the session until it expires
    expect(seconds(x.validFrom) - seconds(s.created_time)).toBe(-60);
    const expires = m.answersLimits ? s.expiration : new Date(Date.parse(s.created_time) + 600_000).toISOString();
    expect(seconds(x.validTo)).toBe(seconds(expires));
    expect(BigInt(`0x${x.serialNumber}`)).toBeLessThan(2n ** 63n);

    const cert = AsnConvert.parse(data.certificate, Certificate);
    const ext = (id: string) => cert.tbsCertificate.extensions!.find((e) => e.extnID === id)!;
    expect(ext(id_ce_keyUsage).critical).toBe(true);
    const usage = AsnConvert.parse(ext(id_ce_keyUsage).extnValue, KeyUsage).toNumber();
    expect(usage).toBe(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment | KeyUsageFlags.keyAgreement | KeyUsageFlags.keyCertSign);
    expect(ext(id_ce_basicConstraints).critical).toBe(true);
    expect(AsnConvert.parse(ext(id_ce_basicConstraints).extnValue, BasicConstraints).cA).toBe(true);
    // Go's subject key id: SHA-1 of the key (v0.4, Go 1.16), the first 20 bytes of SHA-256 (Go 1.25: v0.19.5, v0.20, v0.21.3)
    const skid = Buffer.from(AsnConvert.parse(ext(id_ce_subjectKeyIdentifier).extnValue, SubjectKeyIdentifier).buffer);
    expect(skid).toEqual(m.skid === "sha256-160" ? createHash("sha256").update(pub).digest().subarray(0, 20) : createHash("sha1").update(pub).digest());
  });

  test("each session has its own key and certificate", async () => {
    const [a, b] = [(await authorize()).s, (await authorize()).s].map((s) => decode(m.type, s.authorization_token).data);
    expect(a.private_key.equals(b.private_key)).toBe(false);
    expect(a.certificate.equals(b.certificate)).toBe(false);
  });
});

test("a v0.4 token holds none of the later fields (decoded with v0.21.3's message)", async () => {
  const c = await startTestController({ emulation: "0.4", rateLimits: "disabled" });
  try {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"], attributes: { default_port: 2222 } });
    const s = (await c.call("POST", `/v1/targets/${t.id}:authorize-session`, {})).body;
    const { data } = decode(V021, s.authorization_token);
    expect(data).not.toHaveProperty("endpoint_port");
    expect(data).not.toHaveProperty("expiration");
    expect(data).not.toHaveProperty("default_client_port");
  } finally {
    await c.shutdown();
  }
});
