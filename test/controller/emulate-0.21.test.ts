/**
 * `--emulate 0.21`, what only current releases do: Boundary v0.21.3's names and actions (host
 * sources, credential sources), v0.4's actions answered 405 with an empty body before
 * authentication, unknown JSON keys discarded (the trap), create's rules, the requests it refuses in
 * its own words (one table), credential_source and the update mask. Its lists: emulate-0.21-lists.test.ts;
 * its aliases: aliases.test.ts; its rate limits: rate-limit.test.ts. The Target fields later releases
 * added are in current-fields.test.ts; the rules all modes share run in the parameterised suites.
 */
import { PROJECT, useTestController } from "../helpers/controller";
import { normalised, targetView, type ViewOf } from "../helpers/views";
import { release } from "../../wire/releases";

const c = useTestController({ emulation: "0.21" });
/** A v0.21.3 Target view, whole (internal/daemon/controller/handlers/targets/target_service.go toProto at v0.21.3). */
const v021 = (v: ViewOf) => targetView(release("0.21"), v);

test("a Target has current names: host_source_ids, brokered_credential_source_ids, current authorized_actions; no v0.4 names", async () => {
  const t = await c.create();
  const withSources = await c.act(t.id, "set-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
  const withCreds = await c.act(t.id, "set-credential-sources", { version: 2, brokered_credential_source_ids: ["clvlt_1234567890"] });
  const own = { name: t.name, attributes: { default_port: 22 }, hosts: ["hsst_1234567890"] };
  expect([withSources.status, normalised(withSources.body)]).toEqual([200, v021({ version: 2, ...own })]);
  expect([withCreds.status, normalised(withCreds.body)]).toEqual([
    200,
    {
      ...v021({ version: 3, ...own }),
      brokered_credential_source_ids: ["clvlt_1234567890"],
      brokered_credential_sources: [{ id: "clvlt_1234567890", credential_store_id: "csvlt_1234567890" }],
    },
  ]);
  expect(withCreds.body.authorized_actions).toEqual([
    "no-op",
    "read",
    "update",
    "delete",
    "add-host-sources",
    "set-host-sources",
    "remove-host-sources",
    "add-credential-sources",
    "set-credential-sources",
    "remove-credential-sources",
    "authorize-session",
  ]);
});

test("the trap: host_set_ids sent to :set-host-sources is discarded, so the host sources are cleared", async () => {
  const t = await c.create();
  await c.act(t.id, "set-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
  const res = await c.act(t.id, "set-host-sources", { version: 2, host_set_ids: ["hsst_1234567891"] });
  expect([res.status, normalised(res.body)]).toEqual([200, v021({ version: 3, name: t.name, attributes: { default_port: 22 } })]);
});

test("unknown keys in a create are discarded; sources in a create are ignored", async () => {
  const res = await c.call("POST", "/v1/targets", {
    scope_id: PROJECT,
    name: "discarding",
    type: "tcp",
    attributes: { default_port: 22 },
    colour: "red",
    host_source_ids: ["hsst_1234567890"],
  });
  expect([res.status, normalised(res.body)]).toEqual([200, v021({ version: 1, name: "discarding", attributes: { default_port: 22 } })]);
});

test("create: attributes.default_port is required, worker_filter is deprecated, the connection limit defaults to -1", async () => {
  const res = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "rules", type: "tcp", worker_filter: '"dev" in "/tags/type"' });
  // TS validateCreateRequest and tcp.go Vet at v0.21.3
  expect([res.status, res.body]).toEqual([
    400,
    {
      kind: "InvalidArgument",
      message: "Error in provided request.",
      details: {
        request_fields: [
          { name: "attributes.default_port", description: "This field is required." },
          { name: "worker_filter", description: "This field is deprecated. Use egress_worker_filter instead." },
        ],
      },
    },
  ]);
  expect((await c.create()).session_connection_limit).toBe(-1);
});

test("authorize-session names each credential's origin credential_source", async () => {
  const t = await c.create();
  await c.act(t.id, "set-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] });
  await c.act(t.id, "set-credential-sources", { version: 2, brokered_credential_source_ids: ["clvlt_1234567890"] });
  const res = await c.call("POST", `/v1/targets/${t.id}:authorize-session`, {});
  expect(res.body.credentials[0].credential_source).toMatchObject({ id: "clvlt_1234567890" });
  expect(res.body.credentials[0]).not.toHaveProperty("credential_library");
});

/** A request v0.21.3 refuses, and its answer. */
interface Refused {
  what: string;
  method: string;
  /** `{id}` is a fresh Target's id; with `sourced`, one holding a host source (at version 2). */
  path: string;
  body?: object;
  /** As `TestController.call` takes it: undefined sends the admin token, null none. */
  token?: string | null;
  sourced?: boolean;
  status: number;
  /** The body exactly: "" for an empty one; a function of the Target's id where the words name it. */
  answer: "" | object | ((id: string) => object);
}

const at = (repo: string) => `target.(Repository).${repo}: db.DoTx: target.(Repository).${repo}`;
const invalid = (message: string, name: string, description: string) => ({
  kind: "InvalidArgument",
  message,
  details: { request_fields: [{ name, description }] },
});
const REFUSED: Refused[] = [
  // v0.4's actions are no route of v0.21.3: 405 with an empty body, with a token or without (before authentication)
  ...["set-host-sets", "add-host-sets", "remove-credential-libraries"].flatMap((action) =>
    [undefined, null].map((token) => ({
      what: `v0.4's :${action} ${token === null ? "without a token" : "with a token"}`,
      method: "POST",
      path: `/v1/targets/{id}:${action}`,
      body: { version: 1, host_set_ids: ["hsst_1234567890"] },
      token,
      status: 405,
      answer: "" as const,
    })),
  ),
  { what: "an unknown action", method: "POST", path: "/v1/targets/ttcp_1234567890:frobnicate", body: {}, status: 400, answer: "" },
  { what: "an unknown collection", method: "GET", path: "/v1/frobs", status: 404, answer: "" },
  // a stale version: the actions' 500 as v0.21.3 words it; the PATCH's 404
  {
    what: "a stale version on :add-host-sources",
    method: "POST",
    path: "/v1/targets/{id}:add-host-sources",
    body: { version: 9, host_source_ids: ["hsst_1234567890"] },
    status: 500,
    answer: { kind: "Internal", message: "Failed to add target host sources" },
  },
  {
    what: "a stale version on :set-host-sources",
    method: "POST",
    path: "/v1/targets/{id}:set-host-sources",
    body: { version: 9, host_source_ids: ["hsst_1234567890"] },
    status: 500,
    answer: { kind: "Internal", message: "Failed to set target host sources" },
  },
  {
    what: "a stale version on :add-credential-sources",
    method: "POST",
    path: "/v1/targets/{id}:add-credential-sources",
    body: { version: 9, brokered_credential_source_ids: ["clvlt_1234567890"] },
    status: 500,
    answer: {
      kind: "Internal",
      message:
        "Unable to add credential sources to target: target.(Repository).AddTargetCredentialSources: db.DoTx: target.(Repository).AddTargetCredentialSources: invalid target version: integrity violation: error #1105.",
    },
  },
  {
    what: "a stale version on PATCH",
    method: "PATCH",
    path: "/v1/targets/{id}",
    body: { version: 9, description: "x" },
    status: 404,
    answer: (id) => ({ kind: "NotFound", message: `Target "${id}" not found or incorrect version provided.` }),
  },
  // the actions' 500s on a Target holding a host source: add host sources says only that it failed; remove wraps the repository's error
  {
    what: "adding a host source it holds",
    method: "POST",
    path: "/v1/targets/{id}:add-host-sources",
    body: { version: 2, host_source_ids: ["hsst_1234567890"] },
    sourced: true,
    status: 500,
    answer: { kind: "Internal", message: "Failed to add target host sources" },
  },
  {
    what: "removing a host source it does not hold",
    method: "POST",
    path: "/v1/targets/{id}:remove-host-sources",
    body: { version: 2, host_source_ids: ["hsst_1234567891"] },
    sourced: true,
    status: 500,
    answer: {
      kind: "Internal",
      message: `Unable to remove host sources from target: ${at("DeleteTargetHostSources")}: target host sources deleted 0 did not match request for 1: search issue: error #1101.`,
    },
  },
  {
    what: "removing a credential source it does not hold",
    method: "POST",
    path: "/v1/targets/{id}:remove-credential-sources",
    body: { version: 2, brokered_credential_source_ids: ["clvlt_1234567890"] },
    sourced: true,
    status: 500,
    answer: {
      kind: "Internal",
      message: expect.stringMatching(
        /^Unable to remove credential sources from target: target\.\(Repository\)\.DeleteTargetCredentialSources: db\.DoTx: .*credential libraries deleted 0 did not match request for 1: search issue: error #1101\.$/,
      ),
    },
  },
  // field errors name the current fields
  {
    what: "an empty host_source_ids",
    method: "POST",
    path: "/v1/targets/{id}:add-host-sources",
    body: { version: 1, host_source_ids: [] },
    status: 400,
    answer: invalid("Errors in provided fields.", "host_source_ids", "Must be non-empty."),
  },
  // a version 0 is missing, in the validators' words
  {
    what: "a version 0 on PATCH",
    method: "PATCH",
    path: "/v1/targets/{id}",
    body: { version: 0, description: "d" },
    status: 400,
    answer: invalid("Error in provided request.", "version", "Existing resource version is required for an update."),
  },
  {
    what: "a version 0 on :add-host-sources",
    method: "POST",
    path: "/v1/targets/{id}:add-host-sources",
    body: { version: 0, host_source_ids: ["hsst_1234567890"] },
    status: 400,
    answer: invalid("Errors in provided fields.", "version", "Required field."),
  },
  // ids: letters, digits and _ only (400, in each verifier's words); a segment without _ is an alias value (404 when unknown)
  {
    what: "a malformed id on GET",
    method: "GET",
    path: "/v1/targets/ttcp_1234-567890",
    status: 400,
    answer: invalid("Error in provided request.", "id", "Invalid formatted identifier."),
  },
  {
    what: "a malformed id on PATCH",
    method: "PATCH",
    path: "/v1/targets/ttcp_1234-567890",
    body: { version: 1, description: "x" },
    status: 400,
    answer: invalid("Error in provided request.", "id", "Improperly formatted path identifier."),
  },
  {
    what: "a malformed id on DELETE",
    method: "DELETE",
    path: "/v1/targets/ttcp_1234-567890",
    status: 400,
    answer: invalid("Error in provided request.", "id", "Incorrectly formatted identifier."),
  },
  {
    what: "a malformed id on an action",
    method: "POST",
    path: "/v1/targets/ttcp_12345.67890:add-host-sources",
    body: { version: 1, host_source_ids: ["hsst_1234567890"] },
    status: 400,
    answer: invalid("Errors in provided fields.", "id", "Incorrectly formatted identifier."),
  },
  ...["no-such-alias.example", "xyz"].map((alias) => ({
    what: `an unknown alias value (${alias})`,
    method: "GET",
    path: `/v1/targets/${alias}`,
    status: 404,
    answer: { kind: "NotFound", message: "Resource not found." },
  })),
];

test.each(REFUSED)(
  "$what: $method $path is $status, in v0.21.3's words, and changes nothing",
  async ({ method, path, body, token, sourced, status, answer }) => {
    const t = path.includes("{id}") ? await c.create() : undefined;
    if (t && sourced) expect((await c.act(t.id, "set-host-sources", { version: 1, host_source_ids: ["hsst_1234567890"] })).status).toBe(200);
    const res = await c.call(method, path.replace("{id}", t?.id ?? ""), body, token);
    expect(res.status).toBe(status);
    if (answer === "") expect(res.text).toBe("");
    else expect(res.body).toEqual(typeof answer === "function" ? answer(t!.id) : answer);
    if (t) expect((await c.call("GET", `/v1/targets/${t.id}`)).body.version).toBe(sourced ? 2 : 1);
  },
);

describe("what v0.21.3 answers for its own client (section 2 of the release table's issue)", () => {
  test('every view carries "address": "" when a Target has none: create, read, update, the actions and list items', async () => {
    // v021 carries `address: ""` (the 0.21 row's addressAlways, TS toProto at v0.21.3)
    const own = { name: "no-address", attributes: { default_port: 22 } };
    const created = await c.create({ name: "no-address" });
    expect(normalised(created)).toEqual(v021({ version: 1, ...own }));
    expect(normalised((await c.call("GET", `/v1/targets/${created.id}`)).body)).toEqual(v021({ version: 1, ...own }));
    const patched = await c.call("PATCH", `/v1/targets/${created.id}`, { version: 1, description: "d" });
    expect([patched.status, normalised(patched.body)]).toEqual([200, v021({ version: 2, description: "d", ...own })]);
    const acted = await c.act(created.id, "set-host-sources", { version: 2, host_source_ids: ["hsst_1234567890"] });
    expect([acted.status, normalised(acted.body)]).toEqual([200, v021({ version: 3, description: "d", hosts: ["hsst_1234567890"], ...own })]);
    const listed = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent(`"/item/id" == "${created.id}"`)}`);
    // list items carry no lists (the list query loads none)
    expect(normalised(listed.body.items)).toEqual([v021({ version: 3, description: "d", ...own })]);
    // and the filter sees the item as listed
    const empty = await c.call(
      "GET",
      `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent(`"/item/id" == "${created.id}" and "/item/address" == ""`)}`,
    );
    expect(empty.body.items).toHaveLength(1);
  });

  test("the update mask is the body's fields, nested ones included: clearing default_client_port with another field is one PATCH; default_port is checked only when in the mask", async () => {
    const t = await c.create({ name: "mask", attributes: { default_port: 22, default_client_port: 2222 } });
    const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: 1, description: "d", attributes: { default_client_port: null } });
    expect([res.status, normalised(res.body)]).toEqual([200, v021({ version: 2, name: "mask", description: "d", attributes: { default_port: 22 } })]);
    // naming default_port in the mask still requires it
    const port = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=attributes.default_port`, { version: 2 });
    expect(port.body.details.request_fields).toEqual([{ name: "attributes.default_port", description: "This field is required." }]);
  });
});
