/**
 * The one error hierarchy: every class has its name, a fixed code, the message its callers rely
 * on, and `instanceof` that holds across two loaded copies of the package (the program's and the
 * provider host's), for the class itself and each ancestor, and never for an unrelated class.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
/**
 * Every module that defines an error class, loaded twice: two copies, as two installs would be.
 * The controller's classes are all in its catalogue (`controller/errors`, enumerated below).
 */
const MODULES = {
  common: "common/errors",
  client: "provider/client/errors",
  apply: "provider/resource/apply",
  resource: "provider/resource/errors",
  filter: "common/filter",
  controller: "controller/errors",
} as const;
// each copy's modules are loaded by path at run time, so their types are not known here
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Copy = { [K in keyof typeof MODULES]: any };
const load = (): Copy => {
  let copy = {} as Copy;
  jest.isolateModules(() => {
    // a second copy needs require inside isolateModules: an import is loaded once
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    copy = Object.fromEntries(Object.entries(MODULES).map(([k, m]) => [k, require(path.join(ROOT, m))])) as Copy;
  });
  return copy;
};
const a = load();
const b = load();

const call = { method: "POST", path: "/v1/targets" };
const cases: [name: string, code: string, make: (m: Copy) => Error, message: string, ancestors: string[]][] = [
  ["PulumiBoundaryError", "BOUNDARY_ERROR", (m) => new m.common.PulumiBoundaryError("root"), "root", []],
  ["BoundaryClientError", "BOUNDARY_CLIENT_ERROR", (m) => new m.client.BoundaryClientError("client"), "client", ["PulumiBoundaryError"]],
  [
    "ClientSettingsError",
    "BOUNDARY_CLIENT_SETTINGS",
    (m) => new m.client.ClientSettingsError("BOUNDARY_ADDR: bad"),
    "BOUNDARY_ADDR: bad",
    ["BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "BoundaryApiError",
    "BOUNDARY_API_ERROR",
    (m) =>
      new m.client.BoundaryApiError(
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
    (m) => m.client.apiError("PATCH", "/v1/targets/ttcp_1", 404, "NotFound", 'Target "ttcp_1" not found or incorrect version provided.', []),
    'PATCH /v1/targets/ttcp_1: 404 NotFound: Target "ttcp_1" not found or incorrect version provided.',
    ["BoundaryApiError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "NotFoundError",
    "BOUNDARY_NOT_FOUND",
    (m) => m.client.apiError("GET", "/v1/targets/ttcp_1", 404, "NotFound", "Resource not found.", []),
    "GET /v1/targets/ttcp_1: 404 NotFound: Resource not found.",
    ["BoundaryApiError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "SchemaValidationError",
    "BOUNDARY_SCHEMA_MISMATCH",
    (m) => new m.client.SchemaValidationError("GET", "/v1/targets/ttcp_1", [{ path: ["version"], message: "expected number" }]),
    "GET /v1/targets/ttcp_1: unexpected response: version: expected number",
    ["BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "TransportError",
    "BOUNDARY_TRANSPORT_ERROR",
    (m) => new m.client.TransportError("GET", "/v1/targets", "ECONNREFUSED: refused"),
    "GET /v1/targets: ECONNREFUSED: refused",
    ["BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "TimeoutError",
    "BOUNDARY_TIMEOUT",
    (m) => new m.client.TimeoutError("GET", "/v1/targets", "no answer within 5 ms"),
    "GET /v1/targets: no answer within 5 ms",
    ["TransportError", "BoundaryClientError", "PulumiBoundaryError"],
  ],
  [
    "PlanError",
    "BOUNDARY_PLAN_FAILED",
    (m) => new m.apply.PlanError(new Error("400"), undefined, { op: "update", mask: ["name"], fields: {} }),
    "updating name failed: 400",
    ["PulumiBoundaryError"],
  ],
  ["ResourceInitError", "BOUNDARY_PARTIAL_FAILURE", (m) => new m.resource.ResourceInitError("ttcp_1", {}, ["a", "b"]), "a; b", ["PulumiBoundaryError"]],
  [
    "CreateOutcomeUnknownError",
    "BOUNDARY_CREATE_OUTCOME_UNKNOWN",
    (m) => new m.resource.CreateOutcomeUnknownError("p_1", "web", new Error("POST /v1/targets: ECONNRESET"), new Error("GET /v1/targets: ECONNREFUSED")),
    'creating target "web" in p_1: the answer was lost (POST /v1/targets: ECONNRESET), and the controller could not be asked afterwards ' +
      "whether it was created (GET /v1/targets: ECONNREFUSED). It may exist without being in the stack. Once the controller answers, look for " +
      'it: GET /v1/targets?scope_id=p_1&filter="/item/name" == "web" (or `boundary targets list -scope-id p_1`). If it is there, adopt it with ' +
      "`pulumi import boundary:index:Target <resource name> <its id>` (plugin route), or delete it and run `pulumi up` again (dynamic route, " +
      "which cannot import); if it is not, run `pulumi up` again.",
    ["PulumiBoundaryError"],
  ],
  [
    "UnsupportedInputError",
    "BOUNDARY_UNSUPPORTED_INPUT",
    (m) => new m.resource.UnsupportedInputError('"db"', [{ property: "address", reason: "address needs Boundary 0.12.0 or later" }]),
    'target "db": address needs Boundary 0.12.0 or later',
    ["PulumiBoundaryError"],
  ],
  [
    "InvalidResourceDataError",
    "BOUNDARY_INVALID_RESOURCE_DATA",
    (m) => new m.resource.InvalidResourceDataError("state: version"),
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
  ["ConfigError", "BOUNDARY_CONFIG", (m) => new m.controller.ConfigError("--api-addr: bad"), "--api-addr: bad", ["PulumiBoundaryError"]],
  ["ConfigSyntaxError", "BOUNDARY_CONFIG_SYNTAX", (m) => new m.controller.ConfigSyntaxError("line 2: bad"), "line 2: bad", ["PulumiBoundaryError"]],
  [
    "ControllerFault",
    "BOUNDARY_CONTROLLER_RULE",
    (m) => new m.controller.ControllerFault("NotFound", "Resource not found."),
    "Resource not found.",
    ["PulumiBoundaryError"],
  ],
];

/** Each class by name, in a copy. */
const classes = (m: Copy): Record<string, unknown> => Object.assign({}, ...Object.values(m));

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
  expect(a.client.BoundaryApiError).not.toBe(b.client.BoundaryApiError);
});

test("codes are unique", () => {
  expect(new Set(cases.map((c) => c[1])).size).toBe(cases.length);
});

test("an API error carries the response's headers", () => {
  expect(cases[3]![2](a)).toMatchObject({ status: 400, kind: "InvalidArgument", headers: { "retry-after": "3" } });
});

test("the controller's catalogue: each of its classes is a case above, and each kind has one status", () => {
  const catalogue: Record<string, unknown> = a.controller.CONTROLLER_ERRORS;
  expect(Object.keys(catalogue).length).toBeGreaterThan(0);
  for (const [name, cls] of Object.entries(catalogue)) {
    const c = cases.find((x) => x[0] === name);
    expect(c).toBeDefined();
    expect(c![2](a)).toBeInstanceOf(cls as new () => unknown);
  }
  // no controller module defines an error class outside the catalogue
  const sources = fs.readdirSync(path.join(ROOT, "controller"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
  const defined = sources.flatMap((f) =>
    [...fs.readFileSync(path.join(ROOT, "controller", f), "utf8").matchAll(/class (\w+) extends (\w*Error|ControllerFault)\b/g)].map((m) => m[1]),
  );
  expect(defined.sort()).toEqual(Object.keys(catalogue).sort());
  for (const kind of a.controller.ERROR_KINDS as string[]) expect(a.controller.statusOf(kind)).toEqual(expect.any(Number));
});
