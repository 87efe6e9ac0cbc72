/**
 * Property: no client mistake produces a 5xx, and a rejected request leaves the store as it was.
 * Thousands of random bodies, built from the real field names with random JSON values, against
 * every mutating endpoint.
 */
import fc from "fast-check";
import { DEFAULT_RELEASE, viewKeys } from "../../wire/releases";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";

let c: TestController;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field
let target: any;
beforeAll(async () => {
  c = await startTestController();
  target = await c.create({ host_set_ids: ["hsst_1234567890"] });
});
afterAll(() => c.shutdown());

/** The keys the spec's Target views carry (from the tables), and keys that belong elsewhere: authorize-session's, a nested one at the top, a made-up one. */
const FIELDS = [...viewKeys(DEFAULT_RELEASE), "scope_name", "host_id", "default_port", "unknown"];
const plausible = fc.oneof(
  fc.constantFrom(
    PROJECT,
    "p_0987654321",
    "o_1234567890",
    "global",
    "tcp",
    "ssh",
    "",
    " ",
    "hsst_1234567890",
    "hsst_0987654321",
    "clvlt_1234567890",
    "hst_1234567891",
  ),
  fc.constantFrom(
    ["hsst_1234567890"],
    ["hsst_1234567891", "hsst_1234567891"],
    ["clvlt_1234567890"],
    [],
    null,
    { default_port: 22 },
    { default_port: -1 },
    { x: 1 },
  ),
  fc.constantFrom('"dev" in "/tags/type"', '"/name" ==', "(", 'not not "/name" matches "["'),
  fc.integer({ min: -3, max: 5 }),
  fc.constantFrom(0, -1, 1.5, 2 ** 53, 1e308, Number.MAX_SAFE_INTEGER),
  fc.jsonValue({ maxDepth: 2 }),
);
const body = fc.oneof(
  { weight: 8, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), plausible, { maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);
const endpoint = fc.constantFrom(
  ["POST", "/v1/targets"],
  ["PATCH", "/v1/targets/{id}"],
  ["PATCH", "/v1/targets/{id}?update_mask=name,description"],
  ["PATCH", "/v1/targets/{id}?update_mask=type,,colour"],
  ["POST", "/v1/targets/{id}:add-host-sets"],
  ["POST", "/v1/targets/{id}:remove-host-sets"],
  ["POST", "/v1/targets/{id}:set-host-sets"],
  ["POST", "/v1/targets/{id}:add-credential-libraries"],
  ["POST", "/v1/targets/{id}:remove-credential-libraries"],
  ["POST", "/v1/targets/{id}:set-credential-libraries"],
  ["POST", "/v1/targets/{id}:authorize-session"],
  ["POST", "/v1/targets/named:authorize-session"],
  ["GET", "/v1/targets?scope_id=global&recursive=true&filter=%22%2Fitem%2Fname%22%20%3D%3D"],
);

/** Every Target as the store holds it, lists and versions included (a list over HTTP would leave the lists out, and grow slower with each Target created). */
const snapshot = () => JSON.stringify(c.store.listTargets("global", true));

test("3,000 random requests: never a 5xx, and rejected ones change nothing", async () => {
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(endpoint, body, async ([method, path], b) => {
      const before = snapshot();
      const res = await c.call(method!, path!.replace("{id}", target.id), method === "GET" ? undefined : b);
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) {
        expect(res.body).toEqual(expect.objectContaining({ kind: expect.any(String), message: expect.any(String) }));
        expect(snapshot()).toBe(before);
      } else {
        accepted++;
      }
    }),
    { numRuns: 3000 },
  );
  // the generator is not so hostile that nothing ever succeeds
  expect(accepted).toBeGreaterThan(10);
}, 120_000);
