/**
 * Moving off Terraform as teams do it (issue 31): states written by every release of
 * terraform-provider-boundary (each release's `internal/provider/resource_target.go` at its tag
 * gives the attributes its state holds), a state older than the estate read with `--live`, what
 * stays in Terraform, and every failure of the command one line naming the fix. The built bin, a
 * real process, against the real controller.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pluginProgram } from "../../examples/offline/plugin-program";
import { applyTerraformState } from "../../examples/terraform/apply";
import { BoundaryClient } from "../../provider/client";
import { readTerraformState } from "../../provider/estate/terraform";
import { importEngine, runImport, stateText, work } from "../helpers/estate";
import { ADMIN_TOKEN, PROJECT, useTestController } from "../helpers/controller";
import { startFaultProxy } from "../helpers/fault-proxy";

jest.setTimeout(120_000);

/**
 * The attributes of a `boundary_target` instance in each release's state, by the releases that
 * wrote that shape (read at each tag): SDKv2 stores every attribute of the schema, unset ones as
 * their zero value (null for a list). Each shape's id lists under the names it had.
 */
const SHAPES: { releases: string; attributes: string[]; hosts: string; credentials?: string }[] = [
  {
    releases: "v0.1.0 to v1.0.0",
    attributes: ["default_port", "description", "host_set_ids", "name", "scope_id", "session_connection_limit", "session_max_seconds", "type"],
    hosts: "host_set_ids",
  },
  {
    releases: "v1.0.1 and v1.0.2",
    attributes: ["default_port", "description", "host_set_ids", "name", "scope_id", "session_connection_limit", "session_max_seconds", "type", "worker_filter"],
    hosts: "host_set_ids",
  },
  {
    releases: "v1.0.3 and v1.0.4",
    attributes: [
      ...["application_credential_library_ids", "default_port", "description", "host_set_ids", "name", "scope_id"],
      ...["session_connection_limit", "session_max_seconds", "type", "worker_filter"],
    ],
    hosts: "host_set_ids",
    credentials: "application_credential_library_ids",
  },
  {
    releases: "v1.0.5, a configuration on the deprecated names",
    attributes: [
      ...["application_credential_library_ids", "application_credential_source_ids", "default_port", "description", "host_set_ids", "host_source_ids"],
      ...["name", "scope_id", "session_connection_limit", "session_max_seconds", "type", "worker_filter"],
    ],
    hosts: "host_set_ids",
    credentials: "application_credential_library_ids",
  },
  {
    releases: "v1.0.5 to v1.0.11",
    attributes: [
      ...["application_credential_source_ids", "default_port", "description", "host_source_ids", "name", "scope_id"],
      ...["session_connection_limit", "session_max_seconds", "type", "worker_filter"],
    ],
    hosts: "host_source_ids",
    credentials: "application_credential_source_ids",
  },
  {
    releases: "v1.0.12, a configuration on the deprecated name",
    attributes: [
      ...["application_credential_source_ids", "brokered_credential_source_ids", "default_port", "description", "host_source_ids"],
      ...["injected_application_credential_source_ids", "name", "scope_id", "session_connection_limit", "session_max_seconds", "type", "worker_filter"],
    ],
    hosts: "host_source_ids",
    credentials: "application_credential_source_ids",
  },
  {
    releases: "v1.0.12 to v1.1.3",
    attributes: [
      ...["brokered_credential_source_ids", "default_port", "description", "host_source_ids", "injected_application_credential_source_ids"],
      ...["name", "scope_id", "session_connection_limit", "session_max_seconds", "type", "worker_filter"],
    ],
    hosts: "host_source_ids",
    credentials: "brokered_credential_source_ids",
  },
];

/** A value of a set attribute for the shape: the Target's own where it has one, else the attribute's zero value. */
function attributesOf(shape: (typeof SHAPES)[number], own: Record<string, unknown>): Record<string, unknown> {
  const zero = (a: string) => (a.endsWith("_ids") ? null : /port|seconds|limit/.test(a) ? 0 : "");
  return Object.fromEntries(shape.attributes.map((a) => [a, own[a] ?? zero(a)]));
}

/** A state of format version 4 with `resources`. */

describe("every release's state shape: host sets and credential libraries come along, under whatever name the state holds them", () => {
  test.each(SHAPES)("$releases", (shape) => {
    const dir = work();
    const own = {
      id: "ttcp_1234567890",
      name: "web",
      type: "tcp",
      scope_id: PROJECT,
      default_port: 22,
      session_connection_limit: -1,
      session_max_seconds: 28800,
      [shape.hosts]: ["hsst_1234567891", "hsst_1234567890"],
      ...(shape.credentials ? { [shape.credentials]: ["clvlt_1234567890"] } : {}),
    };
    const file = path.join(dir, "s.tfstate");
    writeFileSync(
      file,
      stateText([
        { mode: "managed", type: "boundary_target", name: "web", instances: [{ schema_version: 0, attributes: { ...attributesOf(shape, own), id: own.id } }] },
      ]),
    );
    const found = readTerraformState(file);
    expect(found.unexpressed).toEqual([]);
    expect(found.targets[0]!.inputs).toEqual({
      scopeId: PROJECT,
      name: "web",
      type: "tcp",
      hostSetIds: ["hsst_1234567890", "hsst_1234567891"],
      ...(shape.credentials ? { applicationCredentialLibraryIds: ["clvlt_1234567890"] } : {}),
      sessionMaxSeconds: 28800,
      sessionConnectionLimit: -1,
      defaultPort: 22,
    });
  });
});

describe("a state older than the estate, on --emulate 0.21", () => {
  const c = useTestController({ emulation: "0.21" });

  test("without --live the state's values and how to check them; with --live the controller's, each difference named, a deleted Target left out; the adoption plans no change", async () => {
    const dir = work();
    // written by v1.0.5 on the deprecated names, with what stays in Terraform around the Targets
    const shape = SHAPES[3]!;
    const instance = (name: string, own: Record<string, unknown>) => ({
      schema_version: 0,
      attributes: attributesOf(shape, { name, type: "tcp", scope_id: PROJECT, session_connection_limit: -1, session_max_seconds: 28800, ...own }),
    });
    const withIds = (i: ReturnType<typeof instance>, id: string) => ({ ...i, attributes: { ...i.attributes, id } });
    const written = path.join(dir, "written.tfstate");
    writeFileSync(
      written,
      stateText([
        { mode: "managed", type: "boundary_host_catalog", name: "static", instances: [{ attributes: { id: "hcst_1234567890" } }] },
        {
          mode: "managed",
          type: "boundary_host_set",
          name: "web",
          instances: [{ attributes: { id: "hsst_1234567891" } }, { attributes: { id: "hsst_1234567890" } }],
        },
        {
          mode: "managed",
          type: "boundary_target",
          name: "web",
          instances: [
            withIds(
              instance("web", { default_port: 22, host_set_ids: ["hsst_1234567891"], application_credential_library_ids: ["clvlt_1234567891"] }),
              "ttcp_OLD0000001",
            ),
          ],
        },
        {
          mode: "managed",
          type: "boundary_target",
          name: "db",
          instances: [withIds(instance("db", { default_port: 5432, host_set_ids: ["hsst_1234567890"] }), "ttcp_OLD0000002")],
        },
        { mode: "managed", type: "boundary_target", name: "old", instances: [withIds(instance("old", { default_port: 80 }), "ttcp_OLD0000003")] },
      ]),
    );
    const client = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN });
    const state = path.join(dir, "terraform.tfstate");
    try {
      const text = await applyTerraformState(written, client);
      // a tainted instance, which Terraform would replace: named, never adopted
      const parsed = JSON.parse(text);
      parsed.resources.push({
        mode: "managed",
        type: "boundary_target",
        name: "broken",
        instances: [{ status: "tainted", ...withIds(instance("broken", {}), "ttcp_TAINTED001") }],
      });
      writeFileSync(state, JSON.stringify(parsed));
      // days later: someone changed web's port and credential library, and deleted old, by hand
      const byName = new Map(c.store.listTargets(PROJECT, false).map((t) => [t.name, t]));
      const web = await client.getTarget(byName.get("web")!.id);
      await client.updateTarget(web.id, web.version, ["attributes.default_port"], { attributes: { default_port: 2222 } });
      const now = await client.getTarget(web.id);
      await client.changeLists(now.id, now.version, "set", { applicationCredentialLibraryIds: ["clvlt_1234567890"] });
      await client.deleteTarget(byName.get("old")!.id);
      // and took db's host set off it
      const db = await client.getTarget(byName.get("db")!.id);
      await client.changeLists(db.id, db.version, "set", { hostSetIds: [] });
    } finally {
      await client.close();
    }
    const ids = new Map(c.store.listTargets(PROJECT, false).map((t) => [t.name, t.id]));

    const stale = await runImport(["--from-terraform", state, "--out", "targets.json"], {}, dir);
    expect(stale.code).toBe(0);
    expect(stale.stderr).toContain("3 Target(s) from");
    expect(stale.stderr).toContain("values: the state's, as Terraform last wrote them; a Target changed or deleted since is not seen: run again with --live");
    expect(stale.stderr).toContain("staying in Terraform: 1 boundary_host_catalog, 2 boundary_host_set (this command adopts Targets only");
    expect(stale.stderr).toContain("skipped boundary_target.broken (ttcp_TAINTED001, tainted): Terraform holds it as damaged");
    expect(stale.stderr).not.toContain("not expressible");

    const proxy = await startFaultProxy(c.apiUrl);
    let live;
    try {
      live = await runImport(
        ["--from-terraform", state, "--live", "--program", "ts", "--out", "targets.json"],
        { BOUNDARY_ADDR: proxy.url, BOUNDARY_TOKEN: ADMIN_TOKEN },
        dir,
      );
      expect(proxy.seen.every((s) => s.method === "GET")).toBe(true);
    } finally {
      await proxy.close();
    }
    expect([live.code, live.stdout]).toEqual([0, ""]);
    const lines = live.stderr.split("\n");
    // named as the state holds them (v1.0.5's deprecated name here), a value one side lacks as (none)
    expect(lines.filter((l) => l.startsWith("differs: "))).toEqual([
      "differs: boundary_target.web: application_credential_library_ids (applicationCredentialLibraryIds): " +
        'state ["clvlt_1234567891"], controller ["clvlt_1234567890"] (the controller\'s value written)',
      "differs: boundary_target.web: default_port (defaultPort): state 22, controller 2222 (the controller's value written)",
      'differs: boundary_target.db: host_set_ids (hostSetIds): state ["hsst_1234567890"], controller (none) (the controller\'s value written)',
    ]);
    expect(lines.find((l) => l.startsWith("skipped boundary_target.old"))).toMatch(
      /^skipped boundary_target.old \(ttcp_\w+\): the controller has no such Target \(deleted since the state was written\): left out; .*terraform state rm 'boundary_target.old'/,
    );
    expect(live.stderr).toContain("values: the controller's, read now (3 difference(s) from the state)");
    expect(live.stderr).toContain("2 Target(s) from");
    const file = JSON.parse(readFileSync(path.join(dir, "targets.json"), "utf8"));
    expect(file.resources.map((r: { name: string; id: string }) => [r.name, r.id])).toEqual([
      ["db", ids.get("db")],
      ["web", ids.get("web")],
    ]);
    const program = readFileSync(path.join(dir, "targets.ts"), "utf8");
    expect(program).toContain('hostSetIds: ["hsst_1234567891"]');
    expect(program).toContain('applicationCredentialLibraryIds: ["clvlt_1234567890"]');
    expect(program).toContain("defaultPort: 2222");

    const e = importEngine(dir, c.apiUrl);
    try {
      const preview = await e.preview(pluginProgram(path.join(dir, "targets.ts")));
      expect(preview.steps.map((s) => [s.name, s.op, s.failed]).sort()).toEqual([
        ["db", "import", undefined],
        ["web", "import", undefined],
      ]);
    } finally {
      await e.close();
    }
  });
});

describe("every release's state shape end to end, on --emulate 0.21", () => {
  const c = useTestController({ emulation: "0.21" });

  test("one Target per shape: --live names each list under the shape's attribute, and the adoption plans no change", async () => {
    const dir = work();
    const written = path.join(dir, "written.tfstate");
    const name = (i: number) => `shape${i}`;
    const resources = SHAPES.map((shape, i) => ({
      mode: "managed",
      type: "boundary_target",
      name: name(i),
      instances: [
        {
          schema_version: 0,
          attributes: {
            ...attributesOf(shape, {
              ...{ name: name(i), type: "tcp", scope_id: PROJECT, default_port: 22, session_connection_limit: -1, session_max_seconds: 28800 },
              [shape.hosts]: ["hsst_1234567891"],
              ...(shape.credentials ? { [shape.credentials]: ["clvlt_1234567891"] } : {}),
            }),
            id: `ttcp_SHAPE0000${i}`,
          },
        },
      ],
    }));
    writeFileSync(written, stateText(resources));
    const state = path.join(dir, "terraform.tfstate");
    const client = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN });
    try {
      writeFileSync(state, await applyTerraformState(written, client));
      // since: every Target's host set, and credential library where the shape has them, changed by hand
      for (const t of c.store.listTargets(PROJECT, false)) {
        // one action per kind of list, as Boundary has them (host sources, credential sources)
        const now = await client.changeLists(t.id, (await client.getTarget(t.id)).version, "set", { hostSetIds: ["hsst_1234567890"] });
        if (SHAPES[Number(t.name!.slice("shape".length))]!.credentials !== undefined) {
          await client.changeLists(now.id, now.version, "set", { applicationCredentialLibraryIds: ["clvlt_1234567890"] });
        }
      }
    } finally {
      await client.close();
    }
    const r = await runImport(
      ["--from-terraform", state, "--live", "--program", "ts", "--out", "targets.json"],
      { BOUNDARY_ADDR: c.apiUrl, BOUNDARY_TOKEN: ADMIN_TOKEN },
      dir,
    );
    expect([r.code, r.stdout]).toEqual([0, ""]);
    expect(r.stderr).not.toContain("not expressible");
    const note = "(the controller's value written)";
    expect(
      r.stderr
        .split("\n")
        .filter((l) => l.startsWith("differs: "))
        .sort(),
    ).toEqual(
      SHAPES.flatMap((shape, i) => [
        `differs: boundary_target.${name(i)}: ${shape.hosts} (hostSetIds): state ["hsst_1234567891"], controller ["hsst_1234567890"] ${note}`,
        ...(shape.credentials
          ? [
              `differs: boundary_target.${name(i)}: ${shape.credentials} (applicationCredentialLibraryIds): ` +
                `state ["clvlt_1234567891"], controller ["clvlt_1234567890"] ${note}`,
            ]
          : []),
      ]).sort(),
    );
    expect(r.stderr).toContain(`${SHAPES.length} Target(s) from`);

    const e = importEngine(dir, c.apiUrl);
    try {
      const preview = await e.preview(pluginProgram(path.join(dir, "targets.ts")));
      expect(preview.steps.map((s) => [s.name, s.op, s.failed]).sort()).toEqual(SHAPES.map((_, i) => [name(i), "import", undefined]).sort());
    } finally {
      await e.close();
    }
  });
});
