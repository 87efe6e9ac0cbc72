/**
 * Each field rule exists once and both sides apply it: for every vector, the provider's `check`
 * fails on the field exactly when the controller answers 400 naming that field to the create body
 * the provider would send. So `pulumi preview` passes exactly when `pulumi up` can succeed.
 */
import { checkInputs } from "../../provider/resource/inputs";
import { createRequest } from "../../provider/resource/plan";
import { TARGET_FIELDS, spec, type InputField } from "../../wire/target-fields";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";

/** The spec's controller for the v0.4 fields; a v0.21.3 one for the fields later releases added. */
let c: TestController;
let current: TestController;
beforeAll(async () => {
  [c, current] = await Promise.all([startTestController(), startTestController({ emulation: "0.21" })]);
});
afterAll(() => Promise.all([c.shutdown(), current.shutdown()]));

/** [field, value, valid]: `valid` is what both sides must say. */
const VECTORS: [InputField, unknown, boolean][] = [
  ["scopeId", PROJECT, true],
  ["scopeId", "o_1234567890", false],
  ["scopeId", "global", false],
  ["name", "web", true],
  ["name", "   ", false],
  ["name", " web", true], // trimmed on both sides
  ["name", "web\n", true],
  ["name", "we\u0001b", false],
  ["description", "a description", true],
  ["description", "", true], // unset: the provider never sends ""
  ["description", "  ", true],
  ["description", "tab\there", false],
  ["description", "del\u007f", false],
  ["type", "tcp", true],
  ["type", "http", false], // ssh and rdp: valid at check, refused by an open-source controller (HCP and Enterprise take them)
  ["hostSetIds", ["hsst_1234567890"], true],
  ["hostSetIds", ["hx_1234567890"], false],
  ["hostSetIds", ["hsst_"], false],
  ["hostSetIds", ["hsst_ab-cd"], false],
  ["applicationCredentialLibraryIds", ["clvlt_1234567890"], true],
  ["applicationCredentialLibraryIds", ["clv_1234567890"], false],
  ["sessionMaxSeconds", 1, true],
  ["sessionMaxSeconds", 2 ** 31 - 1, true],
  ["sessionMaxSeconds", 2 ** 31, false],
  ["sessionMaxSeconds", 0, false],
  ["sessionMaxSeconds", -5, false],
  ["sessionMaxSeconds", 1.5, false],
  ["sessionConnectionLimit", -1, true],
  ["sessionConnectionLimit", 5, true],
  ["sessionConnectionLimit", 0, false],
  ["sessionConnectionLimit", -2, false],
  ["sessionConnectionLimit", 2 ** 31, false],
  ["workerFilter", '"dev" in "/tags/type"', true],
  ["workerFilter", "((", false],
  ["workerFilter", '"/name" ==', false],
  ["defaultPort", 1, true],
  ["defaultPort", 65535, true],
  ["defaultPort", 0, false],
  ["defaultPort", 65536, false],
  ["injectedApplicationCredentialSourceIds", ["credup_1234567890"], true],
  ["injectedApplicationCredentialSourceIds", ["clvlt_1234567890"], true],
  ["injectedApplicationCredentialSourceIds", ["credjson_1234567890"], false], // brokered only
  ["injectedApplicationCredentialSourceIds", ["hsst_1234567890"], false],
  ["egressWorkerFilter", '"dev" in "/tags/type"', true],
  ["egressWorkerFilter", "((", false],
  // an open-source controller refuses every ingress filter (HCP and Enterprise take valid ones)
  ["ingressWorkerFilter", "((", false],
  ["address", "db.internal", true],
  ["address", "10.0.0.5", true],
  ["address", "fd00::5", true],
  ["address", " db.internal ", true], // trimmed on both sides
  ["address", "db.internal:5432", false],
  ["address", "[fd00::5]", false],
  ["address", "[fd00::5]:22", false],
  ["address", "ab", false],
  ["address", "a".repeat(256), false],
  ["defaultClientPort", 1, true],
  ["defaultClientPort", 65535, true],
  ["defaultClientPort", 0, false],
  ["defaultClientPort", 65536, false],
];

let n = 0;
test.each(VECTORS)("%s = %j: valid is %s on both sides", async (field, value, valid) => {
  const checked = checkInputs({ scopeId: PROJECT, name: `agree-${++n}`, [field]: value });
  const failures = checked.failures.filter((f) => f.property === field || f.property.startsWith(`${field}[`));
  // the body the provider sends: built from what check returns (trimmed where Boundary trims)
  const body = createRequest(checked.inputs as Parameters<typeof createRequest>[0]);
  // fields later releases added go to a current controller, which requires a default port
  const to = spec(field).since ? current : c;
  if (to === current) body.attributes = { default_port: 22, ...body.attributes };
  let res = await to.call("POST", "/v1/targets", body);
  const created: string | undefined = res.status === 200 ? res.body.id : undefined;
  // a current controller ignores lists on create: they are judged by the action that sets them
  const a = spec(field).association;
  if (to === current && a && created) res = await to.call("POST", `/v1/targets/${created}:set-${a.current.action}`, { version: 1, [a.current.wire]: value });
  if (created) await to.call("DELETE", `/v1/targets/${created}`); // names may repeat across vectors
  const wire = TARGET_FIELDS[field].wire;
  const named = (res.body?.details?.request_fields ?? []).some((f: { name: string }) => f.name === wire);
  expect({ check: failures.length === 0, controller: !(res.status === 400 && named) }).toEqual({ check: valid, controller: valid });
  if (valid) expect(res.status).toBe(200);
});

test("every input field has vectors, both valid and invalid (ingress filters: only invalid, see above)", () => {
  for (const field of Object.keys(TARGET_FIELDS) as InputField[]) {
    const mine = VECTORS.filter(([f]) => f === field);
    if (field !== "ingressWorkerFilter") expect(mine.some(([, , ok]) => ok)).toBe(true);
    expect(mine.some(([, , ok]) => !ok)).toBe(true);
  }
});
