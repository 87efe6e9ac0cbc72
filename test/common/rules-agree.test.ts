/**
 * Each field rule exists once and both sides apply it: for every vector, the provider's `check`
 * fails on the field exactly when the controller answers 400 naming that field to the create body
 * the provider would send. So `pulumi preview` passes exactly when `pulumi up` can succeed.
 */
import { checkInputs } from "../../provider/resource/inputs";
import { createRequest } from "../../provider/resource/plan";
import { TARGET_FIELDS, type InputField } from "../../wire/target-fields";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";

let c: TestController;
beforeAll(async () => {
  c = await startTestController();
});
afterAll(() => c.shutdown());

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
  ["type", "ssh", false],
  ["hostSetIds", ["hsst_1234567890"], true],
  ["hostSetIds", ["hs_1234567890"], false],
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
];

let n = 0;
test.each(VECTORS)("%s = %j: valid is %s on both sides", async (field, value, valid) => {
  const checked = checkInputs({ scopeId: PROJECT, name: `agree-${++n}`, [field]: value });
  const failures = checked.failures.filter((f) => f.property === field || f.property.startsWith(`${field}[`));
  // the body the provider sends: built from what check returns (trimmed where Boundary trims)
  const res = await c.call("POST", "/v1/targets", createRequest(checked.inputs as Parameters<typeof createRequest>[0]));
  if (res.status === 200) await c.call("DELETE", `/v1/targets/${res.body.id}`); // names may repeat across vectors
  const wire = TARGET_FIELDS[field].wire;
  const named = (res.body?.details?.request_fields ?? []).some((f: { name: string }) => f.name === wire);
  expect({ check: failures.length === 0, controller: !(res.status === 400 && named) }).toEqual({ check: valid, controller: valid });
  if (valid) expect(res.status).toBe(200);
});

test("every input field has vectors, both valid and invalid (unless it has no rule)", () => {
  for (const field of Object.keys(TARGET_FIELDS) as InputField[]) {
    const mine = VECTORS.filter(([f]) => f === field);
    expect(mine.some(([, , ok]) => ok)).toBe(true);
    expect(mine.some(([, , ok]) => !ok)).toBe(true);
  }
});
