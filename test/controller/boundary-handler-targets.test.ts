/**
 * Boundary's handler tests for Targets (internal/…/handlers/targets/target_service_test.go at v0.4.0,
 * handlers/targets/tcp/target_service_test.go at v0.21.3), the ones whose cases reach the API
 * unchanged, ported to HTTP against the real controller for every Boundary release of the matrix.
 * The handler tests call the service directly; over HTTP (0.16+) the alias interceptor comes first,
 * but it takes a value for an alias only when it holds no "_" (internal/alias/interceptor.go
 * maybeAlias at v0.21.3), and every id these cases send has one: the handler answers, as in Go.
 * Each answer is asserted whole, in the words of handlers/errors.go and handlers/validate.go.
 */
import { isSpec, release, type Release } from "../../wire/releases";
import { PROJECT, useTestController } from "../helpers/controller";
import { MATRIX } from "../helpers/releases";
import { normalised, targetView } from "../helpers/views";

const BOUNDARY = MATRIX.map(release).filter((r) => !isSpec(r));
const NOT_FOUND = { kind: "NotFound", message: "Resource not found." };
/** handlers.ValidateGetRequest's and ValidateDeleteRequest's answer to an id that is not a Target's (handlers/validate.go, v0.4.0 to v0.21.3). */
const badId = (description: string) => [
  400,
  { kind: "InvalidArgument", message: "Error in provided request.", details: { request_fields: [{ name: "id", description }] } },
];

describe.each(BOUNDARY.map((r) => [r.release, r] as [string, Release]))("--emulate %s: Boundary's handler tests over HTTP", (_mode, r) => {
  const c = useTestController({ emulation: r.release, rateLimits: "disabled" });
  let n = 0;
  const make = async () => {
    const res = await c.call("POST", "/v1/targets", {
      scope_id: PROJECT,
      name: `default-${++n}`,
      description: "default",
      type: "tcp",
      attributes: { default_port: 2 },
    });
    expect(res.status).toBe(200);
    return res.body;
  };

  test("TestGet: an existing Target whole; a non-existing one NotFound; a wrong prefix and a space in the id are malformed", async () => {
    const t = await make();
    const got = await c.call("GET", `/v1/targets/${t.id}`);
    expect([got.status, normalised(got.body)]).toEqual([
      200,
      targetView(r, { version: 1, name: t.name, description: "default", attributes: { default_port: 2 } }),
    ]);
    expect(await answer(c.call("GET", "/v1/targets/ttcp_DoesntExis"))).toEqual([404, NOT_FOUND]);
    expect(await answer(c.call("GET", "/v1/targets/j_1234567890"))).toEqual(badId("Invalid formatted identifier."));
    expect(await answer(c.call("GET", `/v1/targets/${encodeURIComponent("ttcp_1 23456789")}`))).toEqual(badId("Invalid formatted identifier."));
  });

  test("TestDelete: an existing Target is deleted (204); a non-existing one is NotFound; a badly formatted id is malformed", async () => {
    const t = await make();
    const deleted = await c.call("DELETE", `/v1/targets/${t.id}`);
    expect([deleted.status, deleted.text]).toEqual([204, ""]);
    expect(await answer(c.call("DELETE", "/v1/targets/ttcp_doesntexis"))).toEqual([404, NOT_FOUND]);
    expect(await answer(c.call("DELETE", "/v1/targets/ttcp_bad_format"))).toEqual(badId("Incorrectly formatted identifier."));
  });

  test("TestDelete_twice: the second delete of a Target is NotFound", async () => {
    const t = await make();
    expect((await c.call("DELETE", `/v1/targets/${t.id}`)).status).toBe(204);
    expect(await answer(c.call("DELETE", `/v1/targets/${t.id}`))).toEqual([404, NOT_FOUND]);
  });

  test("TestUpdate_BadVersion: a PATCH at version 72 is NotFound in updateInRepo's words, and changes nothing", async () => {
    const t = await make();
    const res = await c.call("PATCH", `/v1/targets/${t.id}?update_mask=description`, { version: 72, description: "updated" });
    expect([res.status, res.body]).toEqual([404, { kind: "NotFound", message: `Target "${t.id}" not found or incorrect version provided.` }]);
    expect(normalised((await c.call("GET", `/v1/targets/${t.id}`)).body)).toEqual(
      targetView(r, { version: 1, name: t.name, description: "default", attributes: { default_port: 2 } }),
    );
  });
});

/** An answer's status and body. */
async function answer(res: Promise<{ status: number; body: unknown }>): Promise<[number, unknown]> {
  const { status, body } = await res;
  return [status, body];
}
