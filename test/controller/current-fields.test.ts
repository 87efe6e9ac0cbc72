/**
 * The Target fields later releases added (`egress_worker_filter`, `ingress_worker_filter`,
 * `address`, `attributes.default_client_port`), as v0.21.3 applies them, and as the v0.4 modes meet
 * them: Boundary v0.4 drops keys it does not know, the spec's controller names them.
 */
import type { Emulation } from "../../controller";
import { release } from "../../wire/releases";
import { startTestController, type TestController } from "../helpers/controller";

const modes: Record<string, TestController> = {};
const ctl = async (mode: Emulation) => (modes[mode] ??= await startTestController({ emulation: mode }));
afterAll(() => Promise.all(Object.values(modes).map((c) => c.shutdown())));

let n = 0;
const create = async (mode: Emulation, extra: object = {}) => (await ctl(mode)).create({ name: `newer-${++n}`, attributes: { default_port: 22 }, ...extra });
const patch = async (mode: Emulation, id: string, body: object, mask?: string) =>
  (await ctl(mode)).call("PATCH", `/v1/targets/${id}${mask ? `?update_mask=${mask}` : ""}`, body);
const act = async (mode: Emulation, id: string, action: string, body: object) => (await ctl(mode)).call("POST", `/v1/targets/${id}:${action}`, body);

describe("--emulate 0.21", () => {
  test("create and read back egress_worker_filter, address and default_client_port", async () => {
    const t = await create("0.21", {
      egress_worker_filter: '"dev" in "/tags/type"',
      address: " db.internal ",
      attributes: { default_port: 5432, default_client_port: 15432 },
    });
    expect(t).toMatchObject({
      egress_worker_filter: '"dev" in "/tags/type"',
      address: "db.internal",
      attributes: { default_port: 5432, default_client_port: 15432 },
    });
    const read = await (await ctl("0.21")).call("GET", `/v1/targets/${t.id}`);
    expect(read.body).toMatchObject({ address: "db.internal", attributes: { default_client_port: 15432 } });
  });

  test.each([
    ["address", { address: "db.internal:5432" }, "Address does not support a port."],
    ["address", { address: "[::1]" }, "Error parsing address: address cannot be encapsulated by brackets."],
    ["address", { address: "ab" }, "Address length must be between 3 and 255 characters."],
    ["egress_worker_filter", { egress_worker_filter: '"dev" in' }, "Unable to successfully parse egress filter expression."],
    ["ingress_worker_filter", { ingress_worker_filter: '"dev" in "/tags/type"' }, "Ingress Worker Filter field is not supported in OSS"],
    ["attributes.default_client_port", { attributes: { default_port: 22, default_client_port: 0 } }, "This field cannot be set to zero."],
    ["attributes.default_client_port", { attributes: { default_port: 22, default_client_port: 70000 } }, "Value is greater than maximum port number."],
  ])("create: %s %j is a 400 in v0.21.3's words", async (field, body, description) => {
    const res = await (
      await ctl("0.21")
    ).call("POST", "/v1/targets", { scope_id: "p_1234567890", name: `bad-${++n}`, type: "tcp", attributes: { default_port: 22 }, ...body });
    expect(res.status).toBe(400);
    expect(res.body.details.request_fields).toContainEqual({ name: field, description });
  });

  test("an IPv6 literal without brackets is an address", async () => {
    expect((await create("0.21", { address: "fd00::5" })).address).toBe("fd00::5");
  });

  test("PATCH applies address whether or not update_mask names it; a masked null clears it", async () => {
    const t = await create("0.21");
    const set = await patch("0.21", t.id, { version: 1, address: "10.0.0.7", description: "d" }, "description");
    expect(set.body).toMatchObject({ version: 2, address: "10.0.0.7", description: "d" });
    const cleared = await patch("0.21", t.id, { version: 2 }, "address");
    expect(cleared.status).toBe(200);
    // toProto sets the address whatever it is: "" when none
    expect(cleared.body.address).toBe("");
  });

  test("address and host sources exclude each other: 400 FailedPrecondition both ways, nothing changed", async () => {
    const withAddress = await create("0.21", { address: "10.0.0.8" });
    const res = await act("0.21", withAddress.id, "set-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
    expect(res.status).toBe(400);
    expect(res.body.kind).toBe("FailedPrecondition");
    expect(res.body.message).toMatch(/unable to set host sources because a network address is directly assigned/);
    const withSources = await create("0.21");
    await act("0.21", withSources.id, "add-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
    const p = await patch("0.21", withSources.id, { version: 2, address: "10.0.0.9" }, "address");
    expect([p.status, p.body.kind]).toEqual([400, "FailedPrecondition"]);
    expect(p.body.message).toMatch(/unable to set address because one or more host sources is assigned/);
    const after = await (await ctl("0.21")).call("GET", `/v1/targets/${withSources.id}`);
    expect(after.body.version).toBe(2);
    expect(after.body.address).toBe("");
  });

  test("a session to a Target with an address connects to it (IPv6 bracketed), with no host; host_id is not read (real v0.21.3: 200)", async () => {
    const t = await create("0.21", { address: "fd00::5", attributes: { default_port: 5432 } });
    const res = await act("0.21", t.id, "authorize-session", {});
    expect(res.body.endpoint).toBe("tcp://[fd00::5]:5432");
    for (const k of ["host_id", "host_set_id"]) expect(res.body).not.toHaveProperty(k);
    expect((await act("0.21", t.id, "authorize-session", { host_id: "hst_1234567890" })).status).toBe(200);
  });

  test("worker_filter and egress_worker_filter in one PATCH are mutually exclusive", async () => {
    const t = await create("0.21");
    const res = await patch("0.21", t.id, { version: 1, worker_filter: '"a" in "/tags/x"', egress_worker_filter: '"b" in "/tags/x"' });
    expect(res.status).toBe(400);
    expect(res.body.details.request_fields).toContainEqual({
      name: "egress_worker_filter",
      description: "Cannot set worker_filter and egress_worker_filter; they are mutually exclusive fields.",
    });
  });

  test("a new legacy worker_filter is refused by the database (500), the Target unchanged", async () => {
    const t = await create("0.21");
    const res = await patch("0.21", t.id, { version: 1, worker_filter: '"a" in "/tags/x"' }, "worker_filter");
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/worker_filter is deprecated and cannot be set/);
    expect((await (await ctl("0.21")).call("GET", `/v1/targets/${t.id}`)).body.version).toBe(1);
  });
});

describe("injected credential sources (--emulate 0.21)", () => {
  // internal/target/tcp/register.go VetCredentialSources (0.10+): an open-source tcp Target takes brokered sources only
  const VET = 'tcp.VetCredentialSources: tcp.Target only supports credential purpose: "brokered": parameter violation: error #100.';

  test(":set-credential-sources with an injected source is the repository's 500 on a tcp Target, and changes nothing", async () => {
    const t = await create("0.21");
    const res = await act("0.21", t.id, "set-credential-sources", {
      version: 1,
      brokered_credential_source_ids: ["clvlt_1234567890"],
      injected_application_credential_source_ids: ["credup_1234567890"],
    });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ kind: "Internal", message: `Unable to set credential sources in target: ${VET}` });
    const read = await (await ctl("0.21")).call("GET", `/v1/targets/${t.id}`);
    expect(read.body.version).toBe(1);
    expect(read.body).not.toHaveProperty("brokered_credential_source_ids");
  });

  test("add and remove of an injected source are refused in createSources; with neither list, both fields are named", async () => {
    const t = await create("0.21");
    const added = await act("0.21", t.id, "add-credential-sources", { version: 1, injected_application_credential_source_ids: ["clvlt_1234567891"] });
    const at = "target.(Repository).AddTargetCredentialSources: target.(Repository).createSources";
    expect(added.body).toEqual({ kind: "Internal", message: `Unable to add credential sources to target: ${at}: ${VET}` });
    const none = await act("0.21", t.id, "add-credential-sources", { version: 1 });
    expect(none.status).toBe(400);
    expect(none.body.details.request_fields).toEqual([
      { name: "brokered_credential_source_ids", description: "Brokered or Injected Application Credential Source IDs must be provided." },
      { name: "injected_application_credential_source_ids", description: "Brokered or Injected Application Credential Source IDs must be provided." },
    ]);
    const removed = await act("0.21", t.id, "remove-credential-sources", { version: 1, injected_application_credential_source_ids: ["clvlt_1234567891"] });
    expect(removed.status).toBe(500);
    expect(removed.body.message).toBe(
      `Unable to remove credential sources from target: target.(Repository).DeleteTargetCredentialSources: target.(Repository).createSources: ${VET}`,
    );
    const brokered = await act("0.21", t.id, "set-credential-sources", { version: 1, brokered_credential_source_ids: ["clvlt_1234567890"] });
    expect(brokered.body).toMatchObject({ version: 2, brokered_credential_source_ids: ["clvlt_1234567890"] });
  });
});

describe("plugin host sets and static credentials", () => {
  test("--emulate 0.21 takes the seeded hsplg_ host set and credup_ credential; a session brokers the credential", async () => {
    const t = await create("0.21");
    const hs = await act("0.21", t.id, "set-host-sources", { version: 1, host_source_ids: ["hsplg_1234567890", "hsst_1234567890"] });
    expect(hs.body.host_sources).toContainEqual({ id: "hsplg_1234567890", host_catalog_id: "hcplg_1234567890" });
    const cs = await act("0.21", t.id, "set-credential-sources", { version: 2, brokered_credential_source_ids: ["credup_1234567890"] });
    expect(cs.body.brokered_credential_sources).toEqual([{ id: "credup_1234567890", credential_store_id: "csst_1234567890" }]);
    const session = await act("0.21", t.id, "authorize-session", { host_id: "hplg_1234567890" });
    expect(session.body).toMatchObject({ host_id: "hplg_1234567890", host_set_id: "hsplg_1234567890", endpoint: "tcp://127.0.0.5:22" });
    // handlers/targets/credentials.go staticToSessionCredential: the source is `static` with its type, the fields typed beside the secret
    expect(session.body.credentials[0]).toEqual({
      credential_source: {
        id: "credup_1234567890",
        name: "dev static login",
        description: "Generated static credential (current releases only)",
        credential_store_id: "csst_1234567890",
        type: "static",
        credential_type: "username_password",
      },
      secret: { raw: expect.any(String), decoded: { username: "static", password: "static-password" } },
      credential: { username: "static", password: "static-password" },
    });
  });

  test("--emulate 0.21 names an id of no kind it takes, an empty add and a missing version in v0.21.3's words", async () => {
    const t = await create("0.21");
    // an SSH certificate library may be injected, never brokered
    const res = await act("0.21", t.id, "set-credential-sources", { version: 1, brokered_credential_source_ids: ["clvsclt_1234567890"] });
    expect(res.status).toBe(400);
    expect(res.body.details.request_fields).toEqual([
      { name: "brokered_credential_source_ids", description: 'Incorrectly formatted credential source identifier "clvsclt_1234567890".' },
    ]);
    const hosts = await act("0.21", t.id, "add-host-sources", { host_source_ids: [] });
    expect(hosts.body.details.request_fields).toEqual([
      { name: "host_source_ids", description: "Must be non-empty." },
      { name: "version", description: "Required field." },
    ]);
    const wrongKind = await act("0.21", t.id, "add-host-sources", { version: 1, host_source_ids: ["hcst_1234567890"] });
    expect(wrongKind.body.details.request_fields).toEqual([
      { name: "host_source_ids", description: 'Incorrectly formatted host source identifier "hcst_1234567890".' },
    ]);
  });

  test.each(["spec", "0.4"] as const)("%s mode refuses them by prefix, as Boundary v0.4 does", async (mode) => {
    const t = await (await ctl(mode)).create({ name: `newer-${++n}` });
    const hs = await act(mode, t.id, "set-host-sets", { version: 1, host_set_ids: ["hsplg_1234567890"] });
    expect(hs.status).toBe(400);
    expect(hs.body.details.request_fields[0].description).toMatch(
      release(mode).errors === "ours" ? /it must start with hsst_\./ : /^Incorrectly formatted host set identifier "hsplg_1234567890"\.$/,
    );
    const cl = await act(mode, t.id, "set-credential-libraries", { version: 1, application_credential_library_ids: ["credup_1234567890"] });
    expect(cl.status).toBe(400);
  });
});

describe.each(["spec", "0.4"] as const)("%s mode (the v0.4 API)", (mode) => {
  test("a create with the newer fields: the spec's controller names them; v0.4 drops the top-level ones silently and refuses an attribute it does not know", async () => {
    const body = {
      scope_id: "p_1234567890",
      name: `newer-${++n}`,
      type: "tcp",
      address: "10.0.0.1",
      egress_worker_filter: '"a" in "/tags/x"',
      attributes: { default_port: 22, default_client_port: 2222 },
    };
    const res = await (await ctl(mode)).call("POST", "/v1/targets", body);
    if (release(mode).unknownKeys === "named") {
      expect(res.status).toBe(400);
      expect(res.body.details.request_fields.map((f: { name: string }) => f.name).sort()).toEqual([
        "address",
        "attributes.default_client_port",
        "egress_worker_filter",
      ]);
      expect(res.body.details.request_fields[0].description).toMatch(/Unknown field: Boundary 0\.1[23] added it/);
      return;
    }
    // v0.4 decodes attributes strictly (handlers.StructToProto): the whole create is refused
    expect(res.body).toEqual({
      kind: "InvalidArgument",
      message: "Error in provided request.",
      details: { request_fields: [{ name: "attributes", description: "Attribute fields do not match the expected format." }] },
    });
    const { attributes: _a, ...rest } = body;
    const kept = await (await ctl(mode)).call("POST", "/v1/targets", { ...rest, attributes: { default_port: 22 } });
    expect(kept.status).toBe(200);
    for (const k of ["address", "egress_worker_filter"]) expect(kept.body).not.toHaveProperty(k);
  });

  test("a PATCH carrying injected sources: named once by the spec's controller, refused by v0.4's update mask (not a Target field there)", async () => {
    const t = await (await ctl(mode)).create({ name: `newer-${++n}` });
    const res = await patch(mode, t.id, { version: 1, description: "d", injected_application_credential_source_ids: ["clvlt_1234567890"] });
    if (release(mode).unknownKeys === "named") {
      expect(res.status).toBe(400);
      expect(res.body.details.request_fields).toEqual([
        { name: "injected_application_credential_source_ids", description: "Unknown field: Boundary 0.10 added it; this controller speaks the v0.4 API." },
      ]);
    } else {
      expect([res.status, res.body]).toEqual([
        500,
        {
          kind: "Internal",
          message:
            'rpc error: code = InvalidArgument desc = could not find field "injected_application_credential_source_ids" in "controller.api.resources.targets.v1.Target"',
        },
      ]);
    }
  });

  test("an update_mask naming a newer field is an unknown field, not a change", async () => {
    const t = await (await ctl(mode)).create({ name: `newer-${++n}` });
    const res = await patch(mode, t.id, { version: 1 }, "address");
    expect(res.status).toBe(400);
    expect((await (await ctl(mode)).call("GET", `/v1/targets/${t.id}`)).body.version).toBe(1);
  });
});
