/**
 * Request bodies and list parameters read as each release's gateway reads them (grpc-gateway's
 * JSONPb: Go's encoding/json, then protojson with DiscardUnknown; a PATCH's keys as its update
 * mask; PopulateQueryParameters), each refusal Boundary's 500 "rpc error: code = InvalidArgument
 * desc = …" in protojson's own words (with the field's name from 0.19.3), and lenient where it is
 * lenient. Bodies and answers are the real servers' (boundary-v0.{4.0,15.5,21.3}-observed.md, with
 * the same 12-character project id, so the line:column positions are theirs). The spec's
 * controller keeps its 400s naming the body and its 1 MiB limit.
 */
import { PROJECT, useTestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";

describe.each(MATRIX)("--emulate %s", (mode) => {
  const { r, hosts, required } = facts(mode);
  const gateway = r.bodyDecoding === "gateway";
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });

  /** The gateway's refusal, as Boundary answers it. */
  const refusal = (text: string) => ({ kind: "Internal", message: `rpc error: code = InvalidArgument desc = ${text}` });
  /** protojson's words for a value of the wrong type. */
  const wrongType = (kind: string, field: string, raw: string) =>
    r.protojsonWords === "field" ? `invalid value for ${kind} field ${field}: ${raw}` : `invalid value for ${kind} type: ${raw}`;
  const ATTRIBUTES = '"attributes":{"default_port":22}';
  const post = (body: string) => c.call("POST", "/v1/targets", body);

  test("a create body that does not decode: protojson's error at its line:column, or Go's JSON error", async () => {
    const cases: [string, string][] = [
      [`{"type":"tcp","scope_id":"${PROJECT}","name":"dupkey-first","name":"dupkey-second",${ATTRIBUTES}}`, 'proto: (line 1:63): duplicate field "name"'],
      [`{"type":5,"scope_id":"${PROJECT}","name":"x3n",${ATTRIBUTES}}`, `proto: (line 1:9): ${wrongType("string", "type", "5")}`],
      [`{"type":"tcp","scope_id":"${PROJECT}","name":123,${ATTRIBUTES}}`, `proto: (line 1:48): ${wrongType("string", "value", "123")}`],
      [`{"type":"tcp","scope_id":"${PROJECT}","name":"x12","attributes":[]}`, "proto: syntax error (line 1:67): unexpected token ["],
      [
        `{"type":"tcp","scope_id":"${PROJECT}","name":"x26",${ATTRIBUTES},"session_max_seconds":-5}`,
        `proto: (line 1:109): ${wrongType("uint32", "value", "-5")}`,
      ],
      [
        `{"type":"tcp","scope_id":"${PROJECT}","name":"x27",${ATTRIBUTES},"session_max_seconds":"abc"}`,
        `proto: (line 1:109): ${wrongType("uint32", "value", '"abc"')}`,
      ],
      ["[]", "proto: syntax error (line 1:1): unexpected token ["],
      ["null", "proto: syntax error (line 1:1): unexpected token null"],
      ['"x"', 'proto: syntax error (line 1:1): unexpected token "x"'],
      ['{"type":"tcp",', "unexpected EOF"],
      ['{"type" "tcp"}', "invalid character '\"' after object key"],
      ["{'type':1}", "invalid character '\\'' looking for beginning of object key string"],
    ];
    for (const [body, text] of cases) {
      const res = await post(body);
      if (gateway) expect([body, res.status, res.body]).toEqual([body, 500, refusal(text)]);
      // the spec's controller reads JSON as JSON.parse does: a duplicate key's last value wins
      else if (text.includes("duplicate")) expect([body, res.status]).toEqual([body, 200]);
      else expect([body, res.status, res.body.kind]).toEqual([body, 400, "InvalidArgument"]);
    }
  });

  test("where the gateway is lenient, so is the release: null is absent, a quoted port a port, unknown keys dropped, trailing bytes ignored", async () => {
    const address = r.fields.includes("address") ? ',"address":null' : "";
    const res = await post(
      `{"type":"tcp","scope_id":"${PROJECT}","name":"lenient","description":null${address},"colour":"red","attributes":{"default_port":"22"}}`,
    );
    if (!gateway) {
      expect(res.status).toBe(400);
      expect(res.body.details.request_fields.map((f: { name: string }) => f.name)).toContain("colour");
      return;
    }
    expect(res.status).toBe(200);
    expect(res.body.attributes).toEqual({ default_port: 22 });
    expect(res.body).not.toHaveProperty("description");
    expect(res.body).not.toHaveProperty("colour");
    const trailing = await post(`{"type":"tcp","scope_id":"${PROJECT}","name":"x47",${ATTRIBUTES}} junk`);
    expect(trailing.status).toBe(200);
  });

  test("a port the attributes message cannot take is the attribute interceptor's 400 on attributes", async () => {
    for (const port of ['"ssh"', "-1", "22.5", "4294967296", "true"]) {
      const res = await post(`{"type":"tcp","scope_id":"${PROJECT}","name":"p${port.length}","attributes":{"default_port":${port}}}`);
      if (!gateway) expect([port, res.status]).toEqual([port, 400]);
      else
        expect([port, res.status, res.body.details.request_fields]).toEqual([
          port,
          400,
          [{ name: "attributes", description: "Attribute fields do not match the expected format." }],
        ]);
    }
  });

  test("a 2 MiB body is read (Boundary applies no size limit); the spec's controller refuses it with 413", async () => {
    const res = await post(JSON.stringify({ type: "tcp", scope_id: PROJECT, name: "huge", ...required, description: "x".repeat(2 * 1024 * 1024) }));
    expect(res.status).toBe(gateway ? 200 : 413);
  });

  test("a PATCH: an unknown key or update_mask in the body is refused by the update mask; a wrong type by protojson", async () => {
    const t = await c.create({ name: "patched" });
    const patch = (body: string) => c.call("PATCH", `/v1/targets/${t.id}`, body);
    const cases: [string, string][] = [
      [`{"foo":1,"version":${t.version}}`, 'could not find field "foo" in "controller.api.resources.targets.v1.Target"'],
      [`{"update_mask":"name","name":"bodymask","version":${t.version}}`, 'could not find field "update_mask" in "controller.api.resources.targets.v1.Target"'],
      ['{"name":"vstr","version":"x"}', `proto: (line 1:26): ${wrongType("uint32", "version", '"x"')}`],
      ['{"name":', "unexpected EOF"],
    ];
    for (const [body, text] of cases) {
      const res = await patch(body);
      if (gateway) expect([body, res.status, res.body]).toEqual([body, 500, refusal(text)]);
      else expect([body, res.status]).toEqual([body, 400]);
    }
    // a quoted version is a version; nothing above changed the Target
    const ok = await patch(`{"description":"d","version":"${t.version}"}`);
    expect([ok.status, ok.body.version]).toEqual(gateway ? [200, t.version + 1] : [400, undefined]);
  });

  test("an action's body: a list that is not an array, a number in the list", async () => {
    const t = await c.create({ name: "acted" });
    const act = (body: string) => c.call("POST", `/v1/targets/${t.id}:add-${hosts.noun}`, body);
    const notArray = await act(`{"${hosts.field}":"hsst_1234567890","version":${t.version}}`);
    const number = await act(`{"${hosts.field}":[5],"version":${t.version}}`);
    if (!gateway) {
      expect([notArray.status, number.status]).toEqual([400, 400]);
      return;
    }
    expect(notArray.body).toEqual(refusal(`proto: syntax error (line 1:${hosts.field.length + 5}): unexpected token "hsst_1234567890"`));
    expect(number.body).toEqual(refusal(`proto: (line 1:${hosts.field.length + 6}): ${wrongType("string", hosts.field, "5")}`));
  });

  test("list parameters: recursive is ParseBool, page_size ParseUint (0.15+), a parameter twice too many, an undecodable token ParseListToken's 500", async () => {
    const list = (query: string) => c.call("GET", `/v1/targets?scope_id=${PROJECT}&${query}`);
    if (!gateway) {
      expect((await list("recursive=maybe")).status).toBe(400);
      return;
    }
    expect((await list("recursive=maybe")).body).toEqual(refusal('parsing field "recursive": strconv.ParseBool: parsing "maybe": invalid syntax'));
    expect((await list("recursive=1")).status).toBe(200);
    expect((await list("recursive=true&recursive=false")).body).toEqual(refusal('too many values for field "recursive": true, false'));
    if (!r.pagination) {
      // ListTargetsRequest has no page_size or list_token before 0.15: ignored
      expect([(await list("page_size=-1")).status, (await list("list_token=garbage")).status]).toEqual([200, 200]);
      return;
    }
    expect((await list("page_size=-1")).body).toEqual(refusal('parsing field "page_size": strconv.ParseUint: parsing "-1": invalid syntax'));
    expect((await list("page_size=abc")).body).toEqual(refusal('parsing field "page_size": strconv.ParseUint: parsing "abc": invalid syntax'));
    expect((await list("page_size=99999999999")).body).toEqual(
      refusal('parsing field "page_size": strconv.ParseUint: parsing "99999999999": value out of range'),
    );
    expect((await list("page_size=0x1")).body.items).toHaveLength(1);
    expect((await list("list_token=garbage")).body).toEqual({
      kind: "Internal",
      message: "handlers.ParseListToken: unknown, unknown: error #0: proto: cannot parse invalid wire-format data",
    });
  });
});
