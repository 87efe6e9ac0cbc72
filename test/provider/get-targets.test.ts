/**
 * getTargets never reports an empty list that is really unknown. Boundary's list items carry no id
 * lists (its list query does not load them: every release from 0.4 to 0.21), so a listed Target's
 * `hostSetIds`, credential lists and their summaries are left out; `readLists: true` reads each
 * Target to report them. The spec's controller, whose list items carry the lists, reports them as
 * listed. `getTargetsOn` is what both routes run (the program's function and the plugin's invoke).
 */
import { BoundaryClient } from "../../provider/client";
import { GetTargetsArgsSchema, getTargetsOn } from "../../provider/functions";
import { ADMIN_TOKEN, PROJECT, startTestController } from "../helpers/controller";
import { countCalls } from "../helpers/metrics";

const LISTS = ["hostSetIds", "hostSets", "applicationCredentialLibraryIds", "applicationCredentialLibraries", "injectedApplicationCredentialSourceIds"];

test.each(["0.21", "0.4"] as const)("--emulate %s: listed Targets leave their lists out; readLists reads each to report them", async (mode) => {
  const c = await startTestController({ emulation: mode, rateLimits: "disabled" });
  const client = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN });
  try {
    const t = await c.create({ name: "with-hosts", host_set_ids: ["hsst_1234567890"] });
    await c.create({ name: "bare" });
    const listed = await getTargetsOn(client, { scopeId: PROJECT });
    expect(listed.map((x) => x.name).sort()).toEqual(["bare", "with-hosts"]);
    for (const x of listed) for (const key of LISTS) expect(x).not.toHaveProperty(key);

    const { result: read, calls } = await countCalls(c.opsUrl, () => getTargetsOn(client, { scopeId: PROJECT, readLists: true }));
    expect(calls).toEqual({ "GET /v1/targets": 1, "GET /v1/targets/{id}": 2 });
    expect(read.find((x) => x.id === t.id)).toMatchObject({ hostSetIds: ["hsst_1234567890"], hostSets: [{ id: "hsst_1234567890" }] });
    expect(read.find((x) => x.name === "bare")).toMatchObject({ hostSetIds: [], applicationCredentialLibraryIds: [] });
  } finally {
    await client.close();
    await c.shutdown();
  }
});

test("the spec's controller, whose list items carry the lists, has them reported as listed", async () => {
  const c = await startTestController({ emulation: "spec" });
  const client = new BoundaryClient({ addr: c.apiUrl, token: ADMIN_TOKEN });
  try {
    await c.create({ name: "with-hosts", host_set_ids: ["hsst_1234567890"] });
    const [listed] = await getTargetsOn(client, { scopeId: PROJECT });
    expect(listed).toMatchObject({ name: "with-hosts", hostSetIds: ["hsst_1234567890"] });
  } finally {
    await client.close();
    await c.shutdown();
  }
});

test("getTargets' schema says why the lists are left out, and how to have them", () => {
  expect(GetTargetsArgsSchema.shape.readLists.description).toMatch(/list answers do not carry them, and an empty list would be a guess/);
});
