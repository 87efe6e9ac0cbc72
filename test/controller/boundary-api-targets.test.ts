/**
 * Boundary's own API-level Target tests (internal/tests/api/targets/target_test.go at v0.21.3 and
 * v0.4.0), ported: each test names its Go test, runs against the real controller over HTTP for every
 * release of the matrix where the behaviour it tests exists (read from the release table), and
 * asserts what the Go test asserts. Boundary's tests make their host sets, credential libraries and
 * static credentials through other services; here they are the default fixtures' (the same kinds).
 */
import { NEWEST, isSpec, knows, release, routesNoun, summariesOf, type ReleaseKey } from "../../wire/releases";
import { ADMIN_TOKEN, PROJECT, useTestController } from "../helpers/controller";
import { MATRIX, facts } from "../helpers/releases";

const HOST_SETS = ["hsst_1234567890", "hsst_1234567891"] as const;
const LIBRARIES = ["clvlt_1234567890", "clvlt_1234567891"] as const;
const STATIC_CREDENTIAL = "credup_1234567890";
const STORES: Record<string, string> = { clvlt_1234567890: "csvlt_1234567890", clvlt_1234567891: "csvlt_1234567890", credup_1234567890: "csst_1234567890" };

/** The Boundary releases of this run (the spec's controller is no Boundary: Boundary's tests do not judge it). */
const BOUNDARY = MATRIX.filter((k) => !isSpec(release(k)));
/** The run's releases where `holds`, for a `describe.each`; a run with none of them (PB_RELEASES) skips the block (as the newest release). */
const where = (holds: (k: ReleaseKey) => boolean) => {
  const keys = BOUNDARY.filter(holds);
  return keys.length > 0 ? describe.each(keys) : describe.skip.each([NEWEST.release]);
};

describe.each(BOUNDARY)("--emulate %s: Boundary's API tests", (mode) => {
  const m = facts(mode);
  const r = m.r;
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  const port = (n = 2) => ({ attributes: { default_port: n } });
  /**
   * An id in a path as the Go test's API client sends it: v0.4.0's leaves it to url.URL's escaping;
   * v0.21.3's (the alias era) url.PathEscape's it first, so its '%' is escaped again on the wire.
   */
  const goPath = (id: string) => (r.aliases ? encodeURIComponent(encodeURIComponent(id)) : encodeURIComponent(id));
  let n = 0;
  /** A create as Boundary's tests make it (names unique across the suite's tests, which share a controller). */
  const make = (name: string, fields: object = {}) =>
    c.call("POST", "/v1/targets", { scope_id: PROJECT, name: `${name}-${++n}`, type: "tcp", ...port(), ...fields });
  /** A second Target reached by an alias (0.16+), as Boundary's tests make one (aliastar.TestAlias): the Target and the alias's value. */
  const aliased = async () => {
    const t = (await make("aliased", { with_aliases: [{ value: `alias-${n + 1}.value`, scope_id: "global" }] })).body;
    return { t, alias: t.aliases[0].value as string };
  };

  // v0.4.0 TestHostSetASD (host-sets), v0.21.3 TestHostSetASD (host-sources, by id and by alias)
  test("TestHostSetASD: add, set and remove host sources by the release's newest action, by id and by alias", async () => {
    const ids = [(await make("foo")).body.id as string];
    if (r.aliases) ids.push((await aliased()).alias);
    for (const id of ids) {
      const { noun, field, answers } = m.hosts;
      const added = await c.act(id, `add-${noun}`, { version: 1, [field]: [HOST_SETS[0]] });
      expect(added.status).toBe(200);
      for (const name of answers) expect(added.body[name]).toEqual([HOST_SETS[0]]);
      const set = await c.act(id, `set-${noun}`, { version: added.body.version, [field]: [HOST_SETS[1]] });
      for (const name of answers) expect(set.body[name]).toEqual([HOST_SETS[1]]);
      const removed = await c.act(id, `remove-${noun}`, { version: set.body.version, [field]: [HOST_SETS[1]] });
      expect(removed.status).toBe(200);
      for (const name of answers) expect(removed.body).not.toHaveProperty(name);
    }
  });

  // v0.4.0 TestCredentialLibraryASD (credential-libraries); v0.21.3 TestCredentialSourcesASD (brokered sources, a static credential among them)
  test("TestCredentialLibraryASD / TestCredentialSourcesASD: add, set and remove credential sources, each answered with its store", async () => {
    const { noun, field, answers } = m.creds;
    const summaries = answers.map(summariesOf);
    const withStatic = r.lists.applicationCredentialLibraryIds!.prefixes.includes("credup_");
    const ids = [(await make("foo")).body.id as string];
    if (r.aliases) ids.push((await aliased()).alias);
    const sources = (list: readonly string[]) => list.map((id) => ({ id, credential_store_id: STORES[id] }));
    for (const id of ids) {
      const added = await c.act(id, `add-${noun}`, { version: 1, [field]: [LIBRARIES[0]] });
      expect(added.status).toBe(200);
      for (const [i, name] of answers.entries()) {
        expect(added.body[name]).toEqual([LIBRARIES[0]]);
        expect(added.body[summaries[i]!]).toEqual(sources([LIBRARIES[0]]));
      }
      const second = withStatic ? [LIBRARIES[1], STATIC_CREDENTIAL] : [LIBRARIES[1]];
      const set = await c.act(id, `set-${noun}`, { version: added.body.version, [field]: second });
      for (const [i, name] of answers.entries()) {
        expect([...set.body[name]].sort()).toEqual([...second].sort());
        expect(set.body[summaries[i]!]).toEqual(expect.arrayContaining(sources(second)));
      }
      const removed = await c.act(id, `remove-${noun}`, { version: set.body.version, [field]: [LIBRARIES[1]] });
      const left = second.slice(1);
      for (const name of answers) expect(removed.body[name] ?? []).toEqual(left);
      // v0.21.3: "Set empty credential sources"
      const emptied = await c.act(id, `set-${noun}`, { version: removed.body.version, [field]: [] });
      expect(emptied.status).toBe(200);
      for (const name of answers) expect(emptied.body).not.toHaveProperty(name);
    }
  });

  // v0.4.0 and v0.21.3 TestList (the unprivileged user's grants are not ported: the controller has no roles)
  test("TestList: an empty project lists nothing; ten Targets list by id, name and times; a filter by id and by default_port finds one", async () => {
    const scope = "p_0987654321";
    const list = (query = "") => c.call("GET", `/v1/targets?scope_id=${scope}${query}`);
    expect((await list()).body.items ?? []).toEqual([]);
    const made = [];
    for (let i = 0; i < 10; i++) {
      const body = {
        scope_id: scope,
        name: String(i),
        type: "tcp",
        attributes: { default_port: i + 1, ...(knows(r, "defaultClientPort") && i > 0 ? { default_client_port: i + 100 } : {}) },
      };
      made.push((await c.call("POST", "/v1/targets", body)).body);
      if (i === 0) expect(comparable((await list()).body.items)).toEqual(comparable(made));
    }
    expect(comparable((await list()).body.items)).toEqual(comparable(made));
    const byId = await list(`&filter=${encodeURIComponent(`"/item/id"==${JSON.stringify(made[3].id)}`)}`);
    expect(byId.body.items.map((t: { id: string }) => t.id)).toEqual([made[3].id]);
    const byPort = await list(`&filter=${encodeURIComponent(`"/item/attributes/default_port"==4`)}`);
    expect(byPort.body.items.map((t: { id: string }) => t.id)).toEqual([made[3].id]);
  });

  // v0.4.0 TestCrud; v0.21.3 TestCrud (by id and by alias)
  test("TestCrud: create at version 1, read, rename to version 2, delete; deleting again is 404", async () => {
    const foo = (await make("foo")).body;
    expect([foo.name, foo.version]).toEqual([`foo-${n}`, 1]);
    const cases = [{ id: foo.id as string, name: foo.name as string }];
    if (r.aliases) {
      const { t, alias } = await aliased();
      expect([t.name, t.version]).toEqual([`aliased-${n}`, 1]);
      cases.push({ id: alias, name: t.name });
    }
    for (const { id, name } of cases) {
      const read = (await c.call("GET", `/v1/targets/${id}`)).body;
      expect([read.name, read.version]).toEqual([name, 1]);
      const renamed = (await c.call("PATCH", `/v1/targets/${id}`, { version: read.version, name: "bar" })).body;
      expect([renamed.name, renamed.version]).toEqual(["bar", 2]);
      expect((await c.call("DELETE", `/v1/targets/${id}`)).status).toBe(204);
      // "deleting unknown target is not found", "deleting unknown alias is not found"
      expect((await c.call("DELETE", `/v1/targets/${id}`)).status).toBe(404);
    }
  });

  // v0.4.0 and v0.21.3 TestSet_Errors
  test("TestSet_Errors: a stale version is 404, a second name 4xx, an unknown id 404, a malformed one per release, a made-up token 401", async () => {
    const foo = (await make("foo")).body;
    expect((await c.call("PATCH", `/v1/targets/${foo.id}`, { version: 73, name: "anything" })).status).toBe(404);
    const again = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: foo.name, type: "tcp", ...port() });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
    expect((await c.call("GET", "/v1/targets/ttcp_doesntexis")).status).toBe(404);
    // v0.4.0: 400 (the id is validated); v0.21.3: 404 (a value without a Target prefix is an alias's, and none has it)
    expect((await c.call("GET", `/v1/targets/${goPath("invalid id")}`)).status).toBe(r.aliases ? 404 : 400);
    if (r.aliases) {
      // "A malformed id is processed as the id and not a different path to the api." (handlers.ValidateGetRequest's words at v0.21.3)
      const dotted = await c.call("GET", `/v1/targets/${goPath(`${foo.id}/../`)}`);
      expect([dotted.status, dotted.body]).toEqual([
        400,
        {
          kind: "InvalidArgument",
          message: "Error in provided request.",
          details: { request_fields: [{ name: "id", description: "Invalid formatted identifier." }] },
        },
      ]);
      // "Updating using WithAliases should fail."
      const withAliases = await c.call("PATCH", `/v1/targets/${foo.id}`, { version: 1, with_aliases: [{ value: "alias1", scope_id: "global" }] });
      expect(withAliases.status).toBe(400);
      // "reading by alias with no destination id should fail": an alias value nothing has
      expect((await c.call("GET", "/v1/targets/alias.value")).status).toBe(404);
    }
    if (r.requires.includes("defaultPort")) {
      const noPort = await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "no-port", type: "tcp" });
      expect(noPort.status).toBe(400);
    }
    expect((await c.call("GET", `/v1/targets/${foo.id}`, undefined, "at_1234567890_madeupinvalidtoken")).status).toBe(401);
    expect((await c.call("GET", `/v1/targets/${foo.id}`, undefined, ADMIN_TOKEN)).status).toBe(200);
  });
});

/** What Boundary's comparableSlice keeps of a Target: id, name, description and the times. */
function comparable(items: { id: string; name?: string; description?: string; created_time: string; updated_time: string }[] = []) {
  return items
    .map(({ id, name, description, created_time, updated_time }) => ({ id, name, description, created_time, updated_time }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

where((k) => knows(release(k), "address") && routesNoun(release(k), "host-sources"))("--emulate %s: Boundary's address tests (0.12+)", (mode) => {
  const r = release(mode);
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  // v0.21.3 uses "::1"; releases that split host and port (before 0.19.3) take an IPv6 address only in brackets
  const v6 = r.addressBrackets === "refused" ? "::1" : "127.0.0.1";
  const make = (name: string, fields: object = {}) =>
    c.call("POST", "/v1/targets", { scope_id: PROJECT, name, type: "tcp", attributes: { default_port: 22 }, ...fields });

  test("TestTarget_AddressMutualExclusiveRelationship: a Target with an address takes no host source until the address is cleared", async () => {
    const t = (await make("test-address", { address: v6 })).body;
    expect(t.address).toBe(v6);
    const refused = await c.act(t.id, "add-host-sources", { version: t.version, host_source_ids: [HOST_SETS[0]] });
    expect(refused.status).toBe(400);
    const cleared = (await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, address: null })).body;
    expect(cleared.address).toBe("");
    const added = (await c.act(t.id, "add-host-sources", { version: cleared.version, host_source_ids: [HOST_SETS[0]] })).body;
    expect([added.address, added.host_source_ids]).toEqual(["", [HOST_SETS[0]]]);
  });

  test("TestTarget_HostSourceMutualExclusiveRelationship: a Target with a host source takes no address until the source is removed", async () => {
    const t = (await make("test-host-source")).body;
    expect(t.address).toBe("");
    const added = (await c.act(t.id, "add-host-sources", { version: t.version, host_source_ids: [HOST_SETS[0]] })).body;
    expect([added.address, added.host_source_ids]).toEqual(["", [HOST_SETS[0]]]);
    expect((await c.call("PATCH", `/v1/targets/${t.id}`, { version: added.version, address: v6 })).status).toBe(400);
    const removed = (await c.act(t.id, "remove-host-sources", { version: added.version, host_source_ids: [HOST_SETS[0]] })).body;
    expect(removed).not.toHaveProperty("host_source_ids");
    const addressed = (await c.call("PATCH", `/v1/targets/${t.id}`, { version: removed.version, address: v6 })).body;
    expect(addressed.address).toBe(v6);
    expect(addressed).not.toHaveProperty("host_source_ids");
  });

  test("TestCreateTarget_DirectlyAttachedAddress: each address is stored (an IPv6 one in net.IP's form from 0.19.3), read back, and cleared", async () => {
    const cases: [string, string, string][] = [
      ["target-ipv4-address", "127.0.0.1", "127.0.0.1"],
      ["target-dns-address", "www.google.com", "www.google.com"],
    ];
    if (r.addressBrackets === "refused")
      cases.push(
        ["target-ipv6-address", "2001:BEEF:4860:0:0:0:0:8888", "2001:beef:4860::8888"],
        ["target-abbreviated-ipv6-address", "2001:BEEF:4860::8888", "2001:beef:4860::8888"],
      );
    for (const [name, address, stored] of cases) {
      const t = (await make(name, { address })).body;
      expect(t.address).toBe(stored);
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body.address).toBe(stored);
      expect((await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, address: null })).body.address).toBe("");
      expect((await c.call("GET", `/v1/targets/${t.id}`)).body.address).toBe("");
    }
  });

  test("TestCreateTarget_WhitespaceInAddress, TestUpdateTarget_WhitespaceInAddress: an address is stored trimmed", async () => {
    const t = (await make("foo", { address: " 127.0.0.1 " })).body;
    expect(t.address).toBe("127.0.0.1");
    const updated = (await c.call("PATCH", `/v1/targets/${t.id}`, { version: t.version, address: " 10.0.0.1 " })).body;
    expect(updated.address).toBe("10.0.0.1");
  });
});

where((k) => release(k).authorizeSessionPath === "rest")("--emulate %s: a Target's name with slashes (0.13+)", (mode) => {
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  test("TestCreateTarget_SlashesInName: authorize-session by a name holding '/' routes to the Target", async () => {
    const t = (await c.call("POST", "/v1/targets", { scope_id: PROJECT, name: "foo/bar", type: "tcp", attributes: { default_port: 2 }, address: "127.0.0.1" }))
      .body;
    // api/targets/custom.go AuthorizeSession: the name is the path's id, and the body carries name and scope_id
    const session = await c.act("foo/bar", "authorize-session", { name: "foo/bar", scope_id: PROJECT });
    expect([session.status, session.body.target_id]).toEqual([200, t.id]);
  });
});

where((k) => release(k).pagination)("--emulate %s: Boundary's list-token tests (0.15+)", (mode) => {
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  type Page = { items?: { id: string }[]; list_token: string; response_type: string };
  /** Every page of a list, as the Go API client's List follows them (a page's list_token asks for the next until one is complete). */
  const all = async (query: string): Promise<{ ids: string[]; token: string; pages: number }> => {
    const ids: string[] = [];
    let pages = 0;
    for (let page: Page | undefined; ;) {
      const res = await c.call("GET", `/v1/targets?${query}${page ? `&list_token=${page.list_token}` : ""}`);
      expect(res.status).toBe(200);
      page = res.body as Page;
      pages++;
      ids.push(...(page.items ?? []).map((t) => t.id));
      if (page.response_type === "complete") return { ids, token: page.list_token, pages };
    }
  };

  test("TestListWithListToken: a recursive list from the project and from global; a refresh with its token answers nothing new", async () => {
    for (const name of ["token-1", "token-2"])
      expect((await c.call("POST", "/v1/targets", { scope_id: PROJECT, name, type: "tcp", attributes: { default_port: 2 } })).status).toBe(200);
    // Boundary's test controller makes 2 Targets of its own in global's tree; the default fixtures make none
    for (const scope of [PROJECT, "global"]) {
      const first = await all(`scope_id=${scope}&recursive=true`);
      expect(first.ids).toHaveLength(2);
      const refresh = await c.call("GET", `/v1/targets?scope_id=${scope}&recursive=true&list_token=${first.token}`);
      expect([refresh.status, refresh.body.items ?? []]).toEqual([200, []]);
    }
  });

  test("TestListWithPageSize: pages of 2 from global hold every Target; a refresh with the last token answers nothing new", async () => {
    // the Go test lists 4 Targets (its 2 and the test controller's 2): here the 2 above and 2 more, so pages of 2 are 2 pages
    for (const name of ["page-1", "page-2"]) await c.call("POST", "/v1/targets", { scope_id: PROJECT, name, type: "tcp", attributes: { default_port: 2 } });
    const listed = await all("scope_id=global&recursive=true&page_size=2");
    expect([listed.ids.length, listed.pages]).toEqual([4, 2]);
    const made = (await c.call("GET", `/v1/targets?scope_id=global&recursive=true`)).body.items.map((t: { id: string }) => t.id);
    expect([...listed.ids].sort()).toEqual([...made].sort());
    const refresh = await c.call("GET", `/v1/targets?scope_id=global&recursive=true&list_token=${listed.token}`);
    expect([refresh.status, refresh.body.items ?? []]).toEqual([200, []]);
  });
});
