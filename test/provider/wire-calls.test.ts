/**
 * The reconcile plan as the exact wire calls it becomes (method, path, body), without HTTP: for a
 * controller of v0.4's API, a current one (0.21), one in between (0.8: both actions, and the
 * credential list under both names), and one not known yet (every release). What the client sends
 * for a list is `api.listAction`, the same function, so these are the requests on the wire.
 */
import { listAction } from "../../provider/client/api";
import { LIST_FIELDS } from "../../wire/target-fields";
import { planUpdate, wireCall, type Call } from "../../provider/resource/plan";
import { stateFromTarget } from "../../provider/resource/state";
import { RELEASES, release } from "../../wire/releases";

const server = {
  id: "ttcp_1234567890",
  scope_id: "p_1234567890",
  name: "web",
  description: "front",
  version: 4,
  type: "tcp",
  host_set_ids: ["hsst_1234567890"],
  application_credential_library_ids: ["clvlt_1234567890"],
  session_max_seconds: 600,
  attributes: { default_port: 22 },
};
const state = stateFromTarget(server, ["scopeId", "name", "description", "hostSetIds", "applicationCredentialLibraryIds", "sessionMaxSeconds", "defaultPort"]);
const program = {
  scopeId: "p_1234567890",
  name: "web",
  description: "front",
  hostSetIds: ["hsst_1234567890"],
  applicationCredentialLibraryIds: ["clvlt_1234567890"],
  sessionMaxSeconds: 600,
  defaultPort: 22,
};

/** The plan's calls as sent, each at the version the one before would have left (every call changes something). */
const onTheWire = (calls: Call[], releases = RELEASES) =>
  calls.map((c, i) => wireCall(c, "ttcp_1234567890", 4 + i, releases)).map(({ method, path, body }) => ({ method, path, body }));

test("a description, a removed port and both lists, on v0.4's API: a PATCH with the exact mask, then one set action per list", () => {
  const calls = planUpdate(state, {
    ...program,
    description: "back",
    defaultPort: undefined,
    hostSetIds: ["hsst_1234567891"],
    applicationCredentialLibraryIds: [],
  });
  expect(onTheWire(calls, [release("0.4")])).toEqual([
    { method: "PATCH", path: "/v1/targets/ttcp_1234567890?update_mask=description%2Cattributes.default_port", body: { description: "back", version: 4 } },
    { method: "POST", path: "/v1/targets/ttcp_1234567890:set-host-sets", body: { version: 5, host_set_ids: ["hsst_1234567891"] } },
    { method: "POST", path: "/v1/targets/ttcp_1234567890:set-credential-libraries", body: { version: 6, application_credential_library_ids: [] } },
  ]);
});

test("the same lists on 0.21: the current actions, the brokered list carrying the injected one as the state holds it", () => {
  const calls = planUpdate(state, { ...program, hostSetIds: [], applicationCredentialLibraryIds: ["clvlt_1234567891"] });
  expect(onTheWire(calls, [release("0.21")])).toEqual([
    { method: "POST", path: "/v1/targets/ttcp_1234567890:set-host-sources", body: { version: 4, host_source_ids: [] } },
    {
      method: "POST",
      path: "/v1/targets/ttcp_1234567890:set-credential-sources",
      body: { version: 5, brokered_credential_source_ids: ["clvlt_1234567891"], injected_application_credential_source_ids: [] },
    },
  ]);
});

test("a controller that may be 0.5 to 0.13 (both credential names read): the body carries the list under each, never under a name one would drop", () => {
  const releases = [release("0.8"), release("0.13"), release("0.14")];
  const call = listAction(releases, "ttcp_1234567890", "set", 7, [{ field: "applicationCredentialLibraryIds", ids: ["clvlt_1234567890"] }]);
  expect({ method: call.method, path: call.path, body: call.body }).toEqual({
    method: "POST",
    path: "/v1/targets/ttcp_1234567890:set-credential-sources",
    body: { version: 7, application_credential_source_ids: ["clvlt_1234567890"], brokered_credential_source_ids: ["clvlt_1234567890"] },
  });
});

test("a controller not known yet (every release): v0.4's action first (the spec's default); the client learns from its 405", () => {
  const calls = planUpdate(state, { ...program, hostSetIds: ["hsst_1234567891"] });
  expect(onTheWire(calls)).toEqual([
    { method: "POST", path: "/v1/targets/ttcp_1234567890:set-host-sets", body: { version: 4, host_set_ids: ["hsst_1234567891"] } },
  ]);
});

test("injected sources cannot travel through v0.4's action: refused before anything is sent, naming the field", () => {
  expect(() =>
    listAction([release("0.4")], "ttcp_1", "set", 1, [
      { field: "applicationCredentialLibraryIds", ids: [] },
      { field: "injectedApplicationCredentialSourceIds", ids: ["credup_1234567890"] },
    ]),
  ).toThrow(
    "injected_application_credential_source_ids: no action of this controller (credential-libraries) carries it; it needs a controller of the current API",
  );
});

test("nothing changed: no call", () => {
  expect(onTheWire(planUpdate(state, program))).toEqual([]);
});

test("the lists the API knows are the field table's association entries", () => {
  expect(LIST_FIELDS).toEqual(["hostSetIds", "applicationCredentialLibraryIds", "injectedApplicationCredentialSourceIds"]);
});
