/**
 * Paths no route takes, answered as each release does (the release table's `routing` and
 * `outsideApi`; read in v0.4.0's and v0.21.3's handler.go, handler_ui.go, handlers/errors.go and
 * ratelimit/handler.go, and grpc-gateway's routing). A wrong base path
 * (`http://host:9200/boundary/v1/targets/…`) is outside `/v1/`: the admin UI answers (a GET its
 * index page, any other method an empty 405); the spec's controller a plain-text 404. Under
 * `/v1/`, a path the gateway does not match is its routing NotFound made a 500, and from 0.14.3 an
 * unknown collection is the rate limiter's empty 404. None of them is Boundary's NotFound error
 * body: only that means "this Target is gone".
 */
import { PROJECT, startTestController, type TestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";

const GO_NOT_FOUND = "404 page not found\n";
const GATEWAY_500 = { kind: "Internal", message: "rpc error: code = NotFound desc = Not Found" };

describe.each(MATRIX)("--emulate %s", (mode) => {
  const r = facts(mode).r;
  let c: TestController;
  let id: string;
  beforeAll(async () => {
    c = await startTestController({ emulation: mode, rateLimits: "disabled" });
    id = (await c.create({ name: "there" })).id;
  });
  afterAll(() => c.shutdown());

  /** What an answer is, for comparing: status, content type, and the body (JSON parsed, else text). */
  const answer = async (method: string, path: string) => {
    const res = await c.call(method, path, method === "GET" || method === "DELETE" ? undefined : {});
    return { status: res.status, type: res.headers.get("content-type") ?? "", body: res.body ?? res.text };
  };

  test("a wrong base path: the UI (a GET its index page, a DELETE an empty 405), or the spec's plain-text 404", async () => {
    const read = await answer("GET", `/boundary/v1/targets/${id}`);
    const del = await answer("DELETE", `/boundary/v1/targets/${id}`);
    if (r.outsideApi === "ui") {
      expect([read.status, read.type]).toEqual([200, "text/html; charset=utf-8"]);
      expect(read.body).toMatch(/^<!DOCTYPE html>/);
      expect([del.status, del.type, del.body]).toEqual([405, "", ""]);
      // a file the UI does not have: Go's FileServer
      expect(await answer("GET", "/assets/app.js")).toEqual({ status: 404, type: "text/plain; charset=utf-8", body: GO_NOT_FOUND });
    } else {
      for (const [a, method] of [
        [read, "GET"],
        [del, "DELETE"],
      ] as const) {
        expect([a.status, a.type]).toEqual([404, "text/plain; charset=utf-8"]);
        expect(a.body).toBe(
          `No route for ${method} /boundary/v1/targets/${id}: this controller serves Boundary's Target API under /v1/ (is the address's path right?).\n`,
        );
      }
    }
    // the Target is there all along
    expect((await c.call("GET", `/v1/targets/${id}`)).status).toBe(200);
  });

  test("under /v1/: the gateway's 500 for a path it does not match; the rate limiter's empty 404 for an unknown collection; the spec's plain-text 404", async () => {
    const collection = await answer("GET", "/v1/frobs");
    const deeper = await answer("GET", `/v1/targets/${id}/more`);
    const doubled = await answer("DELETE", `/v1/v1/targets/${id}`);
    if (r.routing === "gateway") {
      for (const a of [collection, deeper, doubled]) expect([a.status, a.body]).toEqual([500, GATEWAY_500]);
    } else if (r.routing === "rate-limiter") {
      expect([collection.status, collection.body, doubled.status, doubled.body]).toEqual([404, "", 404, ""]);
      expect([deeper.status, deeper.body]).toEqual([500, GATEWAY_500]);
    } else {
      for (const a of [collection, deeper, doubled]) expect([a.status, a.type]).toEqual([404, "text/plain; charset=utf-8"]);
    }
  });

  test("no path outside the routes is answered with Boundary's NotFound body", async () => {
    for (const [method, path] of [
      ["GET", `/boundary/v1/targets/${id}`],
      ["DELETE", `/boundary/v1/targets/${id}`],
      ["GET", "/"],
      ["GET", "/v1/frobs"],
      ["PATCH", `/v1/v1/targets/${id}`],
      ["GET", `/api/v1/targets?scope_id=${PROJECT}`],
    ] as const) {
      const a = await answer(method, path);
      expect(a.status === 404 && typeof a.body === "object" && (a.body as { kind?: string }).kind === "NotFound").toBe(false);
    }
  });
});
