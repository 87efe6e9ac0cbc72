/**
 * The per-release suites' core cases, driven for EVERY Boundary row of the release table (not only
 * the four observed releases), each answer asserted whole: status and the entire body, normalised
 * only where a value cannot be known (ids, times, a list token). The expected body is built from the
 * row's columns, each read at the row's tag:
 *
 * - a view (TS toProto): the fields the Target has, `scope` (TS populateScope), `authorized_actions`
 *   (TS IdActions: the `actions` column), `address: ""` from 0.12 (`addressAlways`), each name the
 *   host list is answered under with its summaries (`lists`), the connection limit's default (`defaults`);
 * - a list (TP ListTargetsResponse): `items` without the lists (`listItemsCarryLists`), and from 0.15
 *   (`pagination`) response_type, sort_by, sort_dir, list_token and est_item_count;
 * - a stale PATCH: TS updateInRepo's `NotFoundErrorf("Target %q not found or incorrect version provided.")`
 *   (v0.4.0 to v0.21.3); a Target gone: handlers/errors.go's NotFound "Resource not found.".
 */
import { BOUNDARY_RELEASES, type Release } from "../../wire/releases";
import { PROJECT, useTestController } from "../helpers/controller";
import { speech } from "../helpers/releases";
import { normalised, targetView } from "../helpers/views";

const HOST_SET = "hsst_1234567890";

/** The view of a Target made with name, description and port 22, at `version`, with `hosts` attached. */
const view = (r: Release, version: number, hosts: readonly string[] = []) =>
  targetView(r, { version, name: "whole", description: "answered whole", attributes: { default_port: 22 }, hosts });

describe.each(BOUNDARY_RELEASES.map((r) => [r.release, r] as [string, Release]))("--emulate %s: whole answers", (_mode, r) => {
  const c = useTestController({ emulation: r.release, rateLimits: "disabled" });
  const host = speech(r, "hostSetIds")!;

  test("create, read, list, rename, a stale rename, the host list's newest set action, delete, and a read of the deleted Target", async () => {
    const created = await c.call("POST", "/v1/targets", {
      scope_id: PROJECT,
      name: "whole",
      description: "answered whole",
      type: "tcp",
      attributes: { default_port: 22 },
    });
    expect([created.status, normalised(created.body)]).toEqual([200, view(r, 1)]);
    const id: string = created.body.id;

    const read = await c.call("GET", `/v1/targets/${id}`);
    expect([read.status, read.body]).toEqual([200, created.body]);

    const listed = await c.call("GET", `/v1/targets?scope_id=${PROJECT}`);
    const paged = r.pagination ? { response_type: "complete", sort_by: "created_time", sort_dir: "desc", list_token: "<token>", est_item_count: 1 } : {};
    expect([listed.status, normalised(listed.body)]).toEqual([200, { items: [view(r, 1)], ...paged }]);

    const renamed = await c.call("PATCH", `/v1/targets/${id}`, { version: 1, description: "renamed" });
    expect([renamed.status, normalised(renamed.body)]).toEqual([200, { ...view(r, 2), description: "renamed" }]);

    const stale = await c.call("PATCH", `/v1/targets/${id}`, { version: 1, description: "stale" });
    expect([stale.status, stale.body]).toEqual([404, { kind: "NotFound", message: `Target "${id}" not found or incorrect version provided.` }]);

    const set = await c.act(id, `set-${host.noun}`, { version: 2, [host.field]: [HOST_SET] });
    expect([set.status, normalised(set.body)]).toEqual([200, { ...view(r, 3, [HOST_SET]), description: "renamed" }]);

    const deleted = await c.call("DELETE", `/v1/targets/${id}`);
    expect([deleted.status, deleted.text]).toEqual([204, ""]);
    const gone = await c.call("GET", `/v1/targets/${id}`);
    expect([gone.status, gone.body]).toEqual([404, { kind: "NotFound", message: "Resource not found." }]);
  });
});
