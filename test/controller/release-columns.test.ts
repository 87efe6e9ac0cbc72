/**
 * The release table's audited columns as the controller answers them, on EVERY Boundary row (not
 * only the matrix): each expectation is computed from the row's column, so a column the controller
 * ignored, or a row that moved a change to the wrong release, fails on the row where the change
 * starts and on the one before it. The columns' changelogs, and the tags read, are
 * test/wire/release-columns.test.ts's.
 */
import { BOUNDARY_RELEASES, routesNoun, type Release } from "../../wire/releases";
import { DEV_AUTH_METHOD_ID } from "../../controller/store/fixtures";
import { PROJECT, useTestController } from "../helpers/controller";
import { facts } from "../helpers/releases";

const OTHER_PROJECTS_HOST_SET = "hsst_0987654321";
const PLUGIN_HOST = "h_1234567890";

describe.each(BOUNDARY_RELEASES.map((r) => [r.release, r] as [string, Release]))("--emulate %s", (mode, r) => {
  const m = facts(mode as Release["release"]);
  const c = useTestController({ emulation: r.release, rateLimits: "disabled" });

  test(`anonymousGlobalList: a recursive list from global with no token is ${r.anonymousGlobalList}`, async () => {
    const res = await c.call("GET", "/v1/targets?scope_id=global&recursive=true", undefined, null);
    expect([res.status, res.body]).toEqual(
      r.anonymousGlobalList === "Unauthenticated"
        ? [401, { kind: "Unauthenticated", message: "Unauthenticated, or invalid token." }]
        : [403, { kind: "PermissionDenied", message: "Forbidden." }],
    );
  });

  // only where the release routes credential-sources (0.5+): 0.4's credential-libraries words are emulate-0.4's
  if (routesNoun(r, "credential-sources"))
    test("emptyCredentialSources: an add and a remove with no id name the fields the release's validators name", async () => {
      const t = await c.create();
      for (const op of ["add", "remove"] as const) {
        const res = await c.act(t.id, `${op}-credential-sources`, { version: t.version, [m.creds.field]: [] });
        const named = [...r.emptyCredentialSources.fields[op]].sort().map((name) => ({ name, description: r.emptyCredentialSources.message }));
        expect([res.status, res.body]).toEqual([400, { kind: "InvalidArgument", message: "Errors in provided fields.", details: { request_fields: named } }]);
      }
    });

  test(`authorizeSession.hostIds: a plugin host's id (h_) is ${r.authorizeSession.hostIds.includes("h_") ? "well formed" : "refused as malformed"}`, async () => {
    const t = await c.create({ host_set_ids: ["hsst_1234567890"] });
    const res = await c.act(t.id, "authorize-session", { host_id: PLUGIN_HOST });
    const malformed = { name: "host_id", description: "Incorrectly formatted identifier." };
    if (r.authorizeSession.hostIds.includes("h_")) expect(res.body.details?.request_fields ?? []).not.toContainEqual(malformed);
    else
      expect([res.status, res.body]).toEqual([
        400,
        { kind: "InvalidArgument", message: "Errors in provided fields.", details: { request_fields: [malformed] } },
      ]);
  });

  test(`ports.vetsUpdate: a PATCH's default_port 0 is ${r.ports.vetsUpdate ? "refused in the release's words" : "the proto's zero value: it clears the port"}`, async () => {
    const t = await c.create({ attributes: { default_port: 22 } });
    const res = await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, attributes: { default_port: 0 } });
    if (r.ports.vetsUpdate)
      expect([res.status, res.body]).toEqual([
        400,
        {
          kind: "InvalidArgument",
          message: "Error in provided request.",
          details: { request_fields: [{ name: "attributes.default_port", description: r.ports.zeroOnUpdate }] },
        },
      ]);
    else expect([res.status, res.body.version, res.body.attributes?.default_port]).toEqual([200, t.version + 1, undefined]);
  });

  test(`hostSetsAnyProject: another project's host set is ${r.hostSetsAnyProject ? "taken (the trigger checks only the Target's project)" : "refused"}`, async () => {
    const t = await c.create();
    const res = await c.act(t.id, `add-${m.hosts.noun}`, { version: t.version, [m.hosts.field]: [OTHER_PROJECTS_HOST_SET] });
    if (r.hostSetsAnyProject) expect([res.status, res.body[m.hosts.answers[0]!]]).toEqual([200, [OTHER_PROJECTS_HOST_SET]]);
    else expect(res.status).not.toBe(200);
  });

  test(`authenticate.credentials: v0.4's deprecated credentials body is ${r.authenticate.credentials ? "read" : "discarded"}`, async () => {
    const res = await c.call(
      "POST",
      `/v1/auth-methods/${DEV_AUTH_METHOD_ID}:authenticate`,
      { credentials: { login_name: "admin", password: "password" } },
      null,
    );
    if (r.authenticate.credentials) expect([res.status, typeof res.body.attributes?.token]).toEqual([200, "string"]);
    else expect(res.status).not.toBe(200);
  });

  test("the project a Target is made in is the one the add checks (the fixtures' host set is the Target's project's)", async () => {
    const t = await c.create({ scope_id: PROJECT });
    expect((await c.act(t.id, `add-${m.hosts.noun}`, { version: t.version, [m.hosts.field]: ["hsst_1234567890"] })).status).toBe(200);
  });
});
