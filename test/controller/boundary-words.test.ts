/**
 * Messages, fields and answers as each release of the matrix words them, read in its handlers
 * (TS validateCreateRequest, validateUpdateRequest, validateListRequest, updateInRepo; tcp.go Vet
 * and VetForUpdate) and checked against real servers (boundary-v0.*-observed.md). The spec's
 * controller keeps its clearer words where Boundary's are generic; the rows' facts are the table's.
 */
import { RELEASES, replacement, type Release } from "../../wire/releases";
import { OTHER_PROJECT, PROJECT, useTestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";

const SCOPE_OR_RECURSIVE = "This field must be a valid project scope ID or the list operation must be recursive.";

describe.each(MATRIX)("--emulate %s", (mode) => {
  const { r } = facts(mode);
  const boundary = r.errors === "boundary";
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  const post = (body: object) => c.call("POST", "/v1/targets", { scope_id: PROJECT, type: "tcp", ...body });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field
  const fields = (body: any) => body.details?.request_fields;

  if (boundary)
    test('a list without a project scope (and not recursive) is "Improperly formatted identifier."; an unknown scope is the generic 404', async () => {
      for (const query of ["", "?scope_id=o_1234567890", "?scope_id=global", "?scope_id=bogus"]) {
        const res = await c.call("GET", `/v1/targets${query}`);
        expect(res.body).toEqual({
          kind: "InvalidArgument",
          message: "Improperly formatted identifier.",
          details: { request_fields: [{ name: "scope_id", description: SCOPE_OR_RECURSIVE }] },
        });
      }
      expect((await c.call("GET", "/v1/targets?scope_id=p_0000000000")).body).toEqual({ kind: "NotFound", message: "Resource not found." });
      expect((await c.call("GET", "/v1/targets?scope_id=p_0000000000&recursive=true")).body).toEqual({ kind: "NotFound", message: "Resource not found." });
    });

  if (boundary)
    test("a create without a project scope id names scope_id in the validator's words; an unknown project is the generic 404", async () => {
      for (const scope of [{}, { scope_id: "o_1234567890" }, { scope_id: "global" }, { scope_id: "bogus" }]) {
        const res = await c.call("POST", "/v1/targets", { type: "tcp", name: "no-scope", attributes: { default_port: 22 }, ...scope });
        expect(fields(res.body)).toEqual([{ name: "scope_id", description: "This field is required to have a properly formatted project scope id." }]);
      }
      const unknown = await post({ scope_id: "p_0000000000", name: "x", attributes: { default_port: 22 } });
      expect(unknown.body).toEqual({ kind: "NotFound", message: "Resource not found." });
    });

  test(`a create's default_port: 0 and above 65535 in the release's words; negative, fractional or not a number is ${boundary ? "`attributes`" : "named"}`, async () => {
    const zero = await post({ name: "port-zero", attributes: { default_port: 0 } });
    expect(fields(zero.body)).toEqual([
      { name: "attributes.default_port", description: boundary ? r.ports.zeroOnCreate : "This must be a port number from 1 to 65535." },
    ]);
    const big = await post({ name: "port-big", attributes: { default_port: 65536 } });
    if (!boundary || r.ports.aboveMax) {
      expect(big.status).toBe(400);
      expect(fields(big.body)).toEqual([{ name: "attributes.default_port", description: r.ports.aboveMax ?? "This must be a port number from 1 to 65535." }]);
    } else expect(big.body.attributes).toEqual({ default_port: 65536 });
    for (const port of [-1, 22.5, "ssh", 2 ** 32]) {
      const res = await post({ name: "port-junk", attributes: { default_port: port } });
      expect(res.status).toBe(400);
      if (boundary) expect(fields(res.body)).toEqual([{ name: "attributes", description: "Attribute fields do not match the expected format." }]);
    }
    // protojson reads a uint32 from its digits in a string
    if (boundary) expect((await post({ name: "port-string", attributes: { default_port: "22" } })).body.attributes).toEqual({ default_port: 22 });
  });

  test(`a PATCH's default_port 0 ${!boundary || r.ports.vetsUpdate ? "is refused in the release's words" : "clears the port (0.4–0.7 never vet a PATCH's attributes)"}`, async () => {
    const t = await c.create({ name: "patch-port", attributes: { default_port: 22 } });
    const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, attributes: { default_port: 0 } });
    if (boundary && !r.ports.vetsUpdate) expect(res.body).toMatchObject({ attributes: {}, version: t.version + 1 });
    else
      expect(fields(res.body)).toEqual([
        { name: "attributes.default_port", description: boundary ? r.ports.zeroOnUpdate : "This must be a port number from 1 to 65535." },
      ]);
  });

  test("a PATCH that changes nothing keeps the version and the update time (the database's triggers move them only on a change)", async () => {
    const t = await c.create({ name: "no-op", description: "same", attributes: { default_port: 22 } });
    const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, name: "no-op", description: "same" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: t.version, updated_time: t.updated_time });
    // a stale version is still refused: the update's WHERE names it
    expect((await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version + 5, name: "no-op" })).status).not.toBe(200);
    const changed = await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, description: "other" });
    expect(changed.body.version).toBe(t.version + 1);
  });

  if (boundary)
    test('a PATCH clearing the name is "This field cannot be set to empty."', async () => {
      const t = await c.create({ name: "named", attributes: { default_port: 22 } });
      for (const name of [null, ""]) {
        const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, name });
        expect(fields(res.body)).toEqual([{ name: "name", description: "This field cannot be set to empty." }]);
      }
    });

  test(`a filter whose pattern RE2 cannot compile is ${boundary ? "taken and matches nothing (go-bexpr compiles no pattern when it parses)" : "a 400 naming the filter"}`, async () => {
    await c.create({ name: "pattern", attributes: { default_port: 22 } });
    const res = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=${encodeURIComponent('"/item/name" matches "(("')}`);
    if (!boundary) return expect(fields(res.body)?.map((f: { name: string }) => f.name)).toEqual(["filter"]);
    expect([res.status, res.body]).toEqual([200, r.emptyList]);
    const bad = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&filter=(((`);
    expect(bad.body.message).toBe("Improperly formatted identifier.");
    expect(fields(bad.body)[0].description).toMatch(
      /^This field could not be parsed\. handlers\.NewFilter: couldn't build filter: parameter violation: error #100: /,
    );
  });

  if (boundary)
    test("recursive is decoded as strconv.ParseBool: 1 is true; a value it refuses is the gateway's 500", async () => {
      expect((await c.call("GET", `/v1/targets?scope_id=o_1234567890&recursive=1`)).status).toBe(200);
      expect((await c.call("GET", `/v1/targets?scope_id=${OTHER_PROJECT}&recursive=F`)).status).toBe(200);
      const maybe = await c.call("GET", `/v1/targets?scope_id=${PROJECT}&recursive=maybe`);
      expect(maybe.body).toEqual({
        kind: "Internal",
        message: 'rpc error: code = InvalidArgument desc = parsing field "recursive": strconv.ParseBool: parsing "maybe": invalid syntax',
      });
    });

  if (boundary && !replacement(r, "workerFilter"))
    test('a worker filter that does not parse is "Unable to successfully parse filter expression."; one whose pattern RE2 refuses is taken', async () => {
      const res = await post({ name: "filter", worker_filter: '"dev" in', attributes: { default_port: 22 } });
      expect(fields(res.body)).toEqual([{ name: "worker_filter", description: "Unable to successfully parse filter expression." }]);
      const pattern = await post({ name: "filter-pattern", worker_filter: '"/name" matches "(("', attributes: { default_port: 22 } });
      expect(pattern.status).toBe(200);
    });
});

test("the release table's columns start where Boundary's source says", () => {
  const real = RELEASES.filter((x) => x.release !== "spec");
  const first = (holds: (x: (typeof real)[number]) => boolean) => real.find(holds)?.release;
  const last = (holds: (x: (typeof real)[number]) => boolean) => [...real].reverse().find(holds)?.release;
  // validateUpdateRequest's SubtypeFromId(req.GetId()) (v0.7.4); tcp.go Vet's words (0.9) and math.MaxUint16 (0.13)
  expect(first((x) => x.ports.vetsUpdate)).toBe("0.7");
  expect(first((x) => x.ports.zeroOnCreate === "This field cannot be set to zero.")).toBe("0.9");
  expect(first((x) => x.ports.aboveMax !== undefined)).toBe("0.13");
  // gorm v1 up to 0.6; migration 0/40's trigger up to v0.10.1 (44/03 replaces it in v0.10.2); the grants refactor of 0.19.3; tcp.VetCredentialSources from 0.10
  expect(last((x) => x.patchEchoesUnmasked)).toBe("0.6");
  expect(last((x) => x.hostSetsAnyProject)).toBe("0.9");
  expect(first((x) => x.listTokenScoped)).toBe("0.19");
  expect(first((x) => x.injectedOnTcp !== undefined)).toBe("0.10");
  // each holds on every later row
  for (const holds of [(x: Release) => x.ports.vetsUpdate, (x: Release) => x.listTokenScoped, (x: Release) => x.injectedOnTcp !== undefined])
    expect(real.slice(real.findIndex(holds)).every(holds)).toBe(true);
});
