/**
 * The one error hierarchy: every class has its name, a fixed code, the message its callers rely
 * on, and `instanceof` that holds across two loaded copies of the package (the program's and the
 * provider host's), for the class itself and each ancestor, and never for an unrelated class. The
 * provider's classes are enumerated from its catalogue (`provider/errors.ts`, `PROVIDER_ERRORS`):
 * a class added there without a case here fails.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { tsFiles } from "../helpers/imports";

const ROOT = path.join(__dirname, "..", "..");
/**
 * Every module that defines an error class, loaded twice: two copies, as two installs would be.
 * The controller's classes are all in its catalogue (`controller/errors`, enumerated below).
 */
const MODULES = {
  common: "common/errors",
  provider: "provider/errors",
  filter: "common/filter",
  controller: "controller/errors",
} as const;
type Copy = {
  common: typeof import("../../common/errors");
  provider: typeof import("../../provider/errors");
  filter: typeof import("../../common/filter");
  controller: typeof import("../../controller/errors");
};
/** A class of the hierarchy, whatever its constructor takes. */
type ErrorClass = abstract new (...args: never[]) => Error;
const load = (): Copy => {
  let copy = {} as Copy;
  jest.isolateModules(() => {
    copy = Object.fromEntries(Object.entries(MODULES).map(([k, m]) => [k, jest.requireActual(path.join(ROOT, m))])) as Copy;
  });
  return copy;
};
const a = load();
const b = load();

const call = { method: "POST", path: "/v1/targets" };
const cases: [name: string, code: string, make: (m: Copy) => Error, message: string, ancestors: string[]][] = [
  ["PulumiBoundaryError", "BOUNDARY_ERROR", (m) => new m.common.PulumiBoundaryError("root"), "root", []],
  ["BoundaryClientError", "BOUNDARY_CLIENT_ERROR", (m) => new m.provider.BoundaryClientError("client"), "client", ["PulumiBoundaryError"]],
  [
    "LoginRefusedError",
    "BOUNDARY_LOGIN_REFUSED",
    (m) => new m.provider.LoginRefusedError("check boundary:authMethodPassword"),
    "check boundary:authMethodPassword",
    ["BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "ClientSettingsError",
    "BOUNDARY_CLIENT_SETTINGS",
    (m) => new m.provider.ClientSettingsError("BOUNDARY_ADDR: bad"),
    "BOUNDARY_ADDR: bad",
    ["BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "BoundaryApiError",
    "BOUNDARY_API_ERROR",
    (m) =>
      new m.provider.BoundaryApiError(
        call.method,
        call.path,
        400,
        "InvalidArgument",
        "Error in provided request.",
        [{ name: "name", description: "This field is required." }],
        { "retry-after": "3" },
      ),
    "POST /v1/targets: 400 InvalidArgument: Error in provided request. (name: This field is required.)",
    ["BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "VersionConflictError",
    "BOUNDARY_VERSION_CONFLICT",
    (m) => m.provider.apiError("PATCH", "/v1/targets/ttcp_1", 404, "NotFound", 'Target "ttcp_1" not found or incorrect version provided.', []),
    'PATCH /v1/targets/ttcp_1: 404 NotFound: Target "ttcp_1" not found or incorrect version provided.',
    ["BoundaryApiError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "NotFoundError",
    "BOUNDARY_NOT_FOUND",
    (m) => m.provider.apiError("GET", "/v1/targets/ttcp_1", 404, "NotFound", "Resource not found.", []),
    "GET /v1/targets/ttcp_1: 404 NotFound: Resource not found.",
    ["BoundaryApiError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "SchemaValidationError",
    "BOUNDARY_SCHEMA_MISMATCH",
    (m) => new m.provider.SchemaValidationError("GET", "/v1/targets/ttcp_1", [{ path: ["version"], message: "expected number" }]),
    "GET /v1/targets/ttcp_1: unexpected response: version: expected number",
    ["BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "TransportError",
    "BOUNDARY_TRANSPORT_ERROR",
    (m) => new m.provider.TransportError("GET", "/v1/targets", "ECONNREFUSED: refused"),
    "GET /v1/targets: ECONNREFUSED: refused",
    ["BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "TimeoutError",
    "BOUNDARY_TIMEOUT",
    (m) => new m.provider.TimeoutError("GET", "/v1/targets", "no answer within 5 ms"),
    "GET /v1/targets: no answer within 5 ms",
    ["TransportError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "UnauthenticatedError",
    "BOUNDARY_UNAUTHENTICATED",
    (m) => m.provider.apiError("GET", "/v1/targets", 401, "Unauthenticated", "Unauthenticated, or invalid token.", []),
    "GET /v1/targets: 401 Unauthenticated: Unauthenticated, or invalid token.",
    ["BoundaryApiError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "ActionNotRoutedError",
    "BOUNDARY_ACTION_NOT_ROUTED",
    (m) => new m.provider.ActionNotRoutedError("POST", "/v1/targets/ttcp_1:set-host-sets", {}, ":set-host-sets", ":set-host-sources", "0.11", "setHostSources"),
    "POST /v1/targets/ttcp_1:set-host-sets: 405 Unknown: HTTP 405 This controller is a current release of Boundary: Boundary 0.11 and later have no " +
      ":set-host-sets (it was replaced by :set-host-sources). Call BoundaryClient.setHostSources, which picks the action the controller speaks on every " +
      "release. Nothing was changed.",
    ["BoundaryApiError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "UnexpectedAnswerError",
    "BOUNDARY_UNEXPECTED_ANSWER",
    (m) => new m.provider.UnexpectedAnswerError("GET", "/v1/targets/ttcp_1", "http://127.0.0.1:9200/v1/targets/ttcp_1", 502, "text/html", "<html>Bad Gateway"),
    "GET http://127.0.0.1:9200/v1/targets/ttcp_1: 502, and not an answer from Boundary's API (content-type text/html, body starts \"<html>Bad " +
      'Gateway"). A proxy or gateway in front of the controller answered; nothing can be concluded from it about the Target.',
    ["BoundaryApiError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "DeadlineError",
    "BOUNDARY_DEADLINE",
    (m) => new m.provider.DeadlineError("GET", "/v1/targets", "no answer before this operation's deadline (customTimeouts create 3s)"),
    "GET /v1/targets: no answer before this operation's deadline (customTimeouts create 3s)",
    ["TimeoutError", "TransportError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "CancelledError",
    "BOUNDARY_CANCELLED",
    (m) => new m.provider.CancelledError("GET", "/v1/targets", "cancelled while waiting for the answer", { maybeApplied: false }),
    "GET /v1/targets: cancelled while waiting for the answer",
    ["TransportError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "TargetNotAdoptedError",
    "BOUNDARY_TARGET_NOT_ADOPTED",
    (m) =>
      new m.provider.TargetNotAdoptedError("p_1", "web", "ttcp_2", ["it has been changed since it was made (version 2)"], new Error("POST /v1/targets: 502")),
    'creating target "web" in p_1: the answer was lost (POST /v1/targets: 502). A target of that name exists, ttcp_2, but it is not the one this ' +
      "create made (it has been changed since it was made (version 2)), so it is not adopted. If ttcp_2 should be managed by this stack, adopt it: " +
      "`pulumi import boundary:index:Target <resource name> ttcp_2` (plugin route; the dynamic route cannot import). Otherwise give this resource " +
      "another name (or leave name unset, so Pulumi names it), or delete ttcp_2 if nobody needs it; then run `pulumi up` again.",
    ["PulumiBoundaryError"],
  ],
  [
    "CreateNotAppliedError",
    "BOUNDARY_CREATE_NOT_APPLIED",
    (m) => new m.provider.CreateNotAppliedError("p_1", "web", new Error("POST /v1/targets: 502")),
    'creating target "web" in p_1: POST /v1/targets: 502. The controller, asked afterwards, holds no target of that name: it was not created, and ' +
      "nothing needs cleaning up. Run `pulumi up` again.",
    ["PulumiBoundaryError"],
  ],
  [
    "NameTakenError",
    "BOUNDARY_NAME_TAKEN",
    (m) => new m.provider.NameTakenError("p_1", "web", undefined, new Error("POST /v1/targets: 400 InvalidArgument")),
    'creating target "web" in p_1: the name is already used in that project: POST /v1/targets: 400 InvalidArgument. If it is the Target this resource ' +
      "replaces (`pulumi up --replace`, `replaceOnChanges`), Pulumi creates the replacement before deleting it and the names clash: set the resource " +
      "option `deleteBeforeReplace: true`, or leave `name` unset so each replacement gets a name of its own (autonaming). ",
    ["PulumiBoundaryError"],
  ],
  [
    "TargetDeletedError",
    "BOUNDARY_TARGET_DELETED",
    (m) => new m.provider.TargetDeletedError("ttcp_1", new Error("PATCH /v1/targets/ttcp_1: 404 NotFound: Resource not found.")),
    "target ttcp_1 was deleted outside Pulumi (PATCH /v1/targets/ttcp_1: 404 NotFound: Resource not found.). `pulumi refresh` drops it from the stack; " +
      "the next `pulumi up` then creates it again.",
    ["PulumiBoundaryError"],
  ],
  [
    "PlanError",
    "BOUNDARY_PLAN_FAILED",
    (m) => new m.provider.PlanError(new Error("400"), undefined, { op: "update", mask: ["name"], fields: {} }, "updating name"),
    "updating name failed: 400",
    ["PulumiBoundaryError"],
  ],
  [
    "ListNotAppliedError",
    "BOUNDARY_LIST_NOT_APPLIED",
    (m) =>
      new m.provider.ListNotAppliedError("POST /v1/targets/ttcp_1:set-credential-libraries", "the controller did not attach clvlt_1", {
        id: "ttcp_1",
      } as never),
    "POST /v1/targets/ttcp_1:set-credential-libraries answered success, but the controller did not attach clvlt_1. Check that each id exists and " +
      "belongs to the Target's project (Boundary 0.4 attaches nothing for a credential library it does not know, without an error)",
    ["BoundaryClientError", "PulumiBoundaryError"],
  ],
  ["ResourceInitError", "BOUNDARY_PARTIAL_FAILURE", (m) => new m.provider.ResourceInitError("ttcp_1", {}, ["a", "b"]), "a; b", ["PulumiBoundaryError"]],
  [
    "CreateOutcomeUnknownError",
    "BOUNDARY_CREATE_OUTCOME_UNKNOWN",
    (m) => new m.provider.CreateOutcomeUnknownError("p_1", "web", new Error("POST /v1/targets: ECONNRESET"), new Error("GET /v1/targets: ECONNREFUSED")),
    'creating target "web" in p_1: the answer was lost (POST /v1/targets: ECONNRESET), and the controller could not be asked afterwards whether it was ' +
      "created (GET /v1/targets: ECONNREFUSED). It may exist without being in the stack. Once the controller answers, look for it: GET " +
      '/v1/targets?scope_id=p_1&filter="/item/name" == "web" (or `boundary targets list -scope-id p_1`). If it is there, adopt it with `pulumi import ' +
      "boundary:index:Target <resource name> <its id>` (plugin route), or delete it and run `pulumi up` again (dynamic route, which cannot import); if " +
      "it is not, run `pulumi up` again.",
    ["PulumiBoundaryError"],
  ],
  [
    "UnsupportedInputError",
    "BOUNDARY_UNSUPPORTED_INPUT",
    (m) => new m.provider.UnsupportedInputError('"db"', [{ property: "address", reason: "address needs Boundary 0.12.0 or later" }]),
    'target "db": address needs Boundary 0.12.0 or later',
    ["PulumiBoundaryError"],
  ],
  [
    "InvalidResourceDataError",
    "BOUNDARY_INVALID_RESOURCE_DATA",
    (m) => new m.provider.InvalidResourceDataError("state: version"),
    "state: version",
    ["PulumiBoundaryError"],
  ],
  [
    "FilterSyntaxError",
    "BOUNDARY_FILTER_SYNTAX",
    (m) => new m.filter.FilterSyntaxError("unterminated string", 3),
    "unterminated string at position 3",
    ["PulumiBoundaryError"],
  ],
  [
    "FilterEvaluationError",
    "BOUNDARY_FILTER_EVALUATION",
    (m) => new m.filter.FilterEvaluationError("missing selector"),
    "missing selector",
    ["PulumiBoundaryError"],
  ],
  [
    "InvalidDurationError",
    "BOUNDARY_INVALID_DURATION",
    (m) => new m.common.InvalidDurationError('timeout: invalid duration "-1": must not be negative'),
    'timeout: invalid duration "-1": must not be negative',
    ["PulumiBoundaryError"],
  ],
  [
    "UnknownReleaseError",
    "BOUNDARY_UNKNOWN_RELEASE",
    (m) => new m.common.UnknownReleaseError("no release 0.3 in the table"),
    "no release 0.3 in the table",
    ["PulumiBoundaryError"],
  ],
  ["InternalError", "BOUNDARY_INTERNAL", (m) => new m.common.InternalError("no summaries for x"), "no summaries for x", ["PulumiBoundaryError"]],
  [
    "ListRefusal",
    "BOUNDARY_LIST_REFUSED",
    (m) => new m.provider.ListRefusal("InvalidArgument", "limit: -1 must be 0 (no limit) or more"),
    "limit: -1 must be 0 (no limit) or more",
    ["PulumiBoundaryError"],
  ],
  [
    "FunctionArgumentError",
    "BOUNDARY_FUNCTION_ARGUMENTS",
    (m) => new m.provider.FunctionArgumentError("authorizeSession: scopeId or scopeName is required with name"),
    "authorizeSession: scopeId or scopeName is required with name",
    ["PulumiBoundaryError"],
  ],
  [
    "UnknownFunctionError",
    "BOUNDARY_UNKNOWN_FUNCTION",
    (m) => new m.provider.UnknownFunctionError("unknown function boundary:index:x"),
    "unknown function boundary:index:x",
    ["PulumiBoundaryError"],
  ],
  ["UsageError", "BOUNDARY_USAGE", (m) => new m.provider.UsageError("unknown flag --x"), "unknown flag --x", ["PulumiBoundaryError"]],
  [
    "ImportInputError",
    "BOUNDARY_IMPORT_INPUT",
    (m) => new m.provider.ImportInputError("--scope x: not a scope id"),
    "--scope x: not a scope id",
    ["PulumiBoundaryError"],
  ],
  ["ConfigError", "BOUNDARY_CONFIG", (m) => new m.controller.ConfigError("--api-addr: bad"), "--api-addr: bad", ["PulumiBoundaryError"]],
  ["ConfigSyntaxError", "BOUNDARY_CONFIG_SYNTAX", (m) => new m.controller.ConfigSyntaxError("line 2: bad"), "line 2: bad", ["PulumiBoundaryError"]],
  [
    "NoRouteAnswer",
    "BOUNDARY_NO_ROUTE_ANSWER",
    (m) => new m.controller.NoRouteAnswer({ status: 404, page: { contentType: "text/plain", text: "No route" } }),
    "no route: answered 404 (text/plain)",
    ["PulumiBoundaryError"],
  ],
  [
    "ControllerFault",
    "BOUNDARY_CONTROLLER_RULE",
    (m) => new m.controller.ControllerFault("NotFound", "Resource not found."),
    "Resource not found.",
    ["PulumiBoundaryError"],
  ],
];

/** Each class by name, in a copy. */
const classes = (m: Copy): Record<string, ErrorClass> => Object.assign({}, ...Object.values(m));

test.each(cases)("%s: code %s, message, and instanceof across two copies", (name, code, make, message, ancestors) => {
  const err = make(a);
  expect(err.name).toBe(name);
  expect((err as { code?: string }).code).toBe(code);
  expect(err.message).toBe(message);
  expect(err).toBeInstanceOf(Error);
  for (const copy of [a, b]) {
    for (const cls of [name, ...ancestors]) expect(err instanceof (classes(copy)[cls] as new () => unknown)).toBe(true);
  }
  // never an instance of a class outside its chain
  for (const [other] of cases) {
    if (other !== name && !ancestors.includes(other)) expect(err instanceof (classes(b)[other] as new () => unknown)).toBe(false);
  }
});

test("the copies really are two: their classes differ", () => {
  expect(a.provider.BoundaryApiError).not.toBe(b.provider.BoundaryApiError);
});

test("every class of the provider's catalogue has its case above, under its own code; and the catalogue holds every error class the module exports", () => {
  const catalogue = a.provider.PROVIDER_ERRORS.map((e) => e.error);
  for (const cls of catalogue) expect(cases.find((c) => c[0] === cls.name)?.[1]).toBe(cls.code);
  const exported = Object.values(a.provider as Record<string, unknown>).filter((v) => typeof v === "function" && v.prototype instanceof Error);
  expect(new Set(catalogue)).toEqual(new Set(exported));
});

test("the catalogue's statuses are what the client makes of them", () => {
  const { PROVIDER_ERRORS, apiError } = a.provider;
  const statuses = (name: string) => PROVIDER_ERRORS.find((e) => e.error.name === name)!.statuses;
  expect(apiError("GET", "/v1/targets/ttcp_1", 401, "Unauthenticated", "Unauthenticated, or invalid token.", []).name).toBe("UnauthenticatedError");
  expect(statuses("UnauthenticatedError")).toEqual([401]);
  expect(apiError("GET", "/v1/targets/ttcp_1", 404, "NotFound", "Resource not found.", []).name).toBe("NotFoundError");
  expect(statuses("NotFoundError")).toEqual([404]);
  for (const [status, kind, message] of [
    [409, "Aborted", "version mismatch"],
    [404, "NotFound", 'Target "ttcp_1" not found or incorrect version provided.'],
    [500, "Internal", "db.DoTx: 0 rows updated"],
  ] as const) {
    expect(apiError("POST", "/v1/targets/ttcp_1:set-host-sets", status, kind, message, []).name).toBe("VersionConflictError");
    expect(statuses("VersionConflictError")).toContain(status);
  }
});

test("codes are unique", () => {
  expect(new Set(cases.map((c) => c[1])).size).toBe(cases.length);
});

test("an API error carries the response's headers", () => {
  expect(cases[4]![2](a)).toMatchObject({ status: 400, kind: "InvalidArgument", headers: { "retry-after": "3" } });
});

test("the controller's catalogue: each of its classes is a case above, and each kind has one status", () => {
  const catalogue: Record<string, unknown> = a.controller.CONTROLLER_ERRORS;
  expect(Object.keys(catalogue).length).toBeGreaterThan(0);
  for (const [name, cls] of Object.entries(catalogue)) {
    const c = cases.find((x) => x[0] === name);
    expect(c).toBeDefined();
    expect(c![2](a)).toBeInstanceOf(cls as new () => unknown);
  }
  expect(definedIn(["controller"]).sort()).toEqual(
    Object.keys(catalogue)
      .filter((n) => !SHARED.includes(n))
      .sort(),
  );
  for (const kind of a.controller.ERROR_KINDS) expect(a.controller.statusOf(kind)).toEqual(expect.any(Number));
});

/** The classes both catalogues list: defined in common/, thrown by code both sides run. */
const SHARED = ["InvalidDurationError", "UnknownReleaseError", "FilterSyntaxError", "FilterEvaluationError", "InternalError"];

/** The error classes defined in the source under `dirs`: every `class X extends Y` whose Y is an error class. */
const definedIn = (dirs: readonly string[]): string[] =>
  dirs
    .flatMap(tsFiles)
    .flatMap((f) =>
      [...fs.readFileSync(path.join(ROOT, f), "utf8").matchAll(/class (\w+) extends (\w*Error|ControllerFault|ListRefusal)\b/g)].map((m) => m[1]!),
    );

test("no module of provider/, common/ or wire/ defines an error class outside the two catalogues", () => {
  const listed = new Set([...a.provider.PROVIDER_ERRORS.map((e) => e.error.name), ...Object.keys(a.controller.CONTROLLER_ERRORS), "PulumiBoundaryError"]);
  const defined = definedIn(["provider", "common", "wire"]);
  expect(defined.length).toBeGreaterThan(0);
  expect(defined.filter((n) => !listed.has(n))).toEqual([]);
  for (const name of SHARED) {
    expect(a.provider.PROVIDER_ERRORS.map((e) => e.error.name)).toContain(name);
    expect(Object.keys(a.controller.CONTROLLER_ERRORS)).toContain(name);
  }
});
