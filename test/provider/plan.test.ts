/** The pure decisions: check, diff and the update plan, without HTTP. */
import { UNKNOWN, checkInputs } from "../../provider/resource/inputs";
import { createRequest, diffTarget, planUpdate } from "../../provider/resource/plan";
import { TARGET_FIELDS } from "../../wire/target-fields";
import { inputsFromState, stateFromTarget, type TargetState } from "../../provider/resource/state";

const server = {
  id: "ttcp_1234567890",
  scope_id: "p_1234567890",
  name: "web",
  description: "front",
  version: 4,
  type: "tcp",
  host_set_ids: ["hsst_1234567891", "hsst_1234567890"],
  session_max_seconds: 600,
  session_connection_limit: -1,
  attributes: { default_port: 22 },
};
const state = (managed: TargetState["__managed"] = ["scopeId", "name", "description", "hostSetIds", "sessionMaxSeconds", "defaultPort"]) =>
  stateFromTarget(server, managed);
const program = {
  scopeId: "p_1234567890",
  name: "web",
  description: "front",
  hostSetIds: ["hsst_1234567890", "hsst_1234567891"],
  sessionMaxSeconds: 600,
  defaultPort: 22,
};

describe("check", () => {
  test("valid inputs pass unchanged: no defaults injected", () => {
    const news = { ...program, __provider: "x" };
    expect(checkInputs(news)).toEqual({ inputs: news, failures: [] });
  });

  test.each([
    [{ scopeId: "o_1234567890" }, "scopeId", "must be a project scope id"],
    [{ scopeId: undefined }, "scopeId", "scopeId is required"],
    [{ name: " " }, "name", "must not be empty"],
    [{ name: "we\u0001b" }, "name", "printable characters only"],
    // Go's unicode.IsPrint, as Boundary's ValidName: no tab, no-break space, zero-width, bidi control or C1 control
    [{ name: "we\tb" }, "name", "printable characters only"],
    [{ name: "we\u00a0b" }, "name", "printable characters only"],
    [{ name: "we\u200bb" }, "name", "printable characters only"],
    [{ name: "we\u202eb" }, "name", "printable characters only"],
    [{ name: "we\u0085b" }, "name", "printable characters only"],
    [{ description: "zero\u200bwidth" }, "description", "printable characters or white space only"],
    [{ type: "http" }, "type", 'must be one of "tcp", "ssh", "rdp"'],
    [{ hostSetIds: ["hsst_1234567890", "hx_1"] }, "hostSetIds[1]", "must be a host set id starting with hsst_, hsplg_ or hs_"],
    [{ applicationCredentialLibraryIds: ["cred"] }, "applicationCredentialLibraryIds[0]", "clvlt_"],
    [{ sessionMaxSeconds: 0 }, "sessionMaxSeconds", "greater than zero"],
    [{ sessionMaxSeconds: 1.5 }, "sessionMaxSeconds", "whole number"],
    [{ sessionConnectionLimit: 0 }, "sessionConnectionLimit", "-1 (unlimited) or greater than zero"],
    [{ defaultPort: 70000 }, "defaultPort", "1 to 65535"],
    [{ workerFilter: '"dev" in' }, "workerFilter", "is not a valid filter"],
    [{ hostsetIds: [] }, "hostsetIds", "not an input of boundary:Target"],
  ])("%j fails naming %s", (override, property, reason) => {
    const { failures } = checkInputs({ ...program, ...override });
    expect(failures).toHaveLength(1);
    expect(failures[0]!.property).toBe(property);
    expect(failures[0]!.reason).toContain(reason);
  });

  test("unknown values during preview are skipped, also inside lists and for required fields", () => {
    expect(checkInputs({ scopeId: UNKNOWN, name: UNKNOWN, hostSetIds: [UNKNOWN, "hsst_1234567890"], defaultPort: UNKNOWN }).failures).toEqual([]);
    expect(checkInputs({ scopeId: "p_1234567890", name: "web", hostSetIds: [UNKNOWN, "bad"] }).failures.map((f) => f.property)).toEqual(["hostSetIds[1]"]);
  });
});

describe("diff", () => {
  test("no change when the program matches; id lists compare as sets", () => {
    expect(diffTarget(state(), program)).toMatchObject({ changes: false, replaces: [] });
  });

  test("an address compares as Boundary stores it: another spelling of the stored address is no change, and the plan sends nothing", () => {
    for (const stored of ["2001:beef:4860::8888", "[2001:BEEF:4860::8888]"]) {
      const s = { ...state([...state().__managed, "address"]), hostSetIds: [], address: stored };
      for (const address of ["2001:BEEF:4860::8888", "[2001:beef:4860:0:0:0:0:8888]"]) {
        const news = { ...program, hostSetIds: [], address };
        expect(diffTarget(s, news).changes).toBe(false);
        expect(planUpdate(s, news)).toEqual([]);
      }
      expect(diffTarget(s, { ...program, hostSetIds: [], address: "2001:beef:4860::8889" }).changes).toBe(true);
    }
  });

  test("a field the program never set is not managed, whatever the server holds", () => {
    const s = { ...state(), workerFilter: '"dev" in "/tags/type"', sessionConnectionLimit: 5 };
    expect(diffTarget(s, program).changes).toBe(false);
  });

  test("a changed field is an update; scopeId and type replace, create-before-delete", () => {
    expect(diffTarget(state(), { ...program, description: "back" })).toMatchObject({ changes: true, replaces: [] });
    expect(diffTarget(state(), { ...program, scopeId: "p_0987654321" })).toMatchObject({ changes: true, replaces: ["scopeId"], deleteBeforeReplace: false });
  });

  test("removing a field from the program resets it to the controller's default", () => {
    const { description, sessionMaxSeconds, ...rest } = program;
    const d = diffTarget(state(), rest);
    expect(d.changed.map((c) => [c.field, c.to, c.kind])).toEqual([
      ["description", undefined, "delete"],
      ["sessionMaxSeconds", 28800, "delete"],
    ]);
  });

  test("each change has its kind: add where unset, update, delete when removed; replace for identity fields", () => {
    const { description, ...rest } = program;
    const d = diffTarget({ ...state(), workerFilter: undefined }, { ...rest, scopeId: "p_0987654321", name: "renamed", workerFilter: '"dev" in "/tags/type"' });
    expect(d.changed.map((c) => [c.field, c.kind, c.replace])).toEqual([
      ["scopeId", "update", true],
      ["name", "update", false],
      ["description", "delete", false],
      ["workerFilter", "add", false],
    ]);
  });

  test("a removed field already at its default is no change", () => {
    const s = { ...state(), sessionMaxSeconds: 28800 };
    const { sessionMaxSeconds, ...rest } = program;
    expect(diffTarget(s, rest).changes).toBe(false);
  });

  test("an unknown value is a change (it may differ)", () => {
    expect(diffTarget(state(), { ...program, description: UNKNOWN }).changes).toBe(true);
    expect(diffTarget(state(), { ...program, scopeId: UNKNOWN }).replaces).toEqual(["scopeId"]);
  });

  test("drift seen by a refresh shows as a change of that field only", () => {
    const refreshed = stateFromTarget({ ...server, description: "changed by hand", version: 5 }, state().__managed);
    expect(diffTarget(refreshed, program).changed.map((c) => c.field)).toEqual(["description"]);
  });
});

describe("plan", () => {
  test("an unchanged target needs no call", () => {
    expect(planUpdate(state(), program)).toEqual([]);
  });

  test("scalar changes are one PATCH with an exact mask; resets are masked and left out", () => {
    const { sessionMaxSeconds, ...rest } = program;
    expect(planUpdate(state(), { ...rest, name: "web2", defaultPort: 2222, workerFilter: '"dev" in "/tags/type"' })).toEqual([
      {
        op: "update",
        mask: ["name", "sessionMaxSeconds", "worker_filter", "attributes.default_port"].map((m) => (m === "sessionMaxSeconds" ? "session_max_seconds" : m)),
        fields: { name: "web2", worker_filter: '"dev" in "/tags/type"', attributes: { default_port: 2222 } },
      },
    ]);
  });

  test("only the lists that changed get a set-* call, after the PATCH", () => {
    expect(planUpdate(state(), { ...program, description: "x", applicationCredentialLibraryIds: ["clvlt_1234567890"] })).toEqual([
      { op: "update", mask: ["description"], fields: { description: "x" } },
      // the injected list travels along: a current :set-credential-sources replaces both
      {
        op: "set",
        field: "applicationCredentialLibraryIds",
        association: TARGET_FIELDS.applicationCredentialLibraryIds.association,
        ids: ["clvlt_1234567890"],
        siblings: [{ field: "injectedApplicationCredentialSourceIds", ids: [] }],
      },
    ]);
    const { hostSetIds, ...rest } = program;
    expect(planUpdate(state(), rest)).toEqual([{ op: "set", field: "hostSetIds", association: TARGET_FIELDS.hostSetIds.association, ids: [] }]);
  });

  test("create sends only what the program set", () => {
    expect(createRequest({ scopeId: "p_1234567890", name: "a" })).toEqual({ scope_id: "p_1234567890", name: "a", type: "tcp" });
    expect(createRequest({ ...program, hostSetIds: ["hsst_1234567891", "hsst_1234567890", "hsst_1234567890"] })).toEqual({
      scope_id: "p_1234567890",
      name: "web",
      type: "tcp",
      description: "front",
      session_max_seconds: 600,
      attributes: { default_port: 22 },
      host_set_ids: ["hsst_1234567890", "hsst_1234567891"],
    });
  });
});

describe("state", () => {
  test("the mapper fills defaults, sorts lists and holds no undefined value", () => {
    const s = stateFromTarget({ id: "ttcp_1", scope_id: "p_1", version: 1 }, []);
    expect(s).toEqual({
      scopeId: "p_1",
      name: "",
      type: "tcp",
      hostSetIds: [],
      applicationCredentialLibraryIds: [],
      injectedApplicationCredentialSourceIds: [],
      sessionMaxSeconds: 28800,
      sessionConnectionLimit: -1,
      version: 1,
      hostSets: [],
      applicationCredentialLibraries: [],
      authorizedActions: [],
      aliases: [],
      __managed: [],
    });
    expect(Object.values(s).includes(undefined)).toBe(false);
  });

  test("refreshed inputs cover the managed fields; an import takes every field that has a value", () => {
    expect(inputsFromState(state(["scopeId", "name", "hostSetIds"]))).toEqual({
      scopeId: "p_1234567890",
      name: "web",
      hostSetIds: ["hsst_1234567890", "hsst_1234567891"],
    });
    expect(inputsFromState(state([]), true)).toEqual({
      scopeId: "p_1234567890",
      name: "web",
      description: "front",
      type: "tcp",
      hostSetIds: ["hsst_1234567890", "hsst_1234567891"],
      sessionMaxSeconds: 600,
      sessionConnectionLimit: -1,
      defaultPort: 22,
    });
  });
});
