/**
 * Large paginated lists (`--emulate 0.21`) decoded strictly, item by item: a page is written in
 * chunks of about 64 KiB, and each item must come out exactly as the Target reads, whatever chunk
 * boundary it ends on; the page's own fields appear once, after the items.
 */
import { z } from "zod";
import { PROJECT, startTestController, type TestController } from "../helpers/controller";

let c: TestController;
beforeAll(async () => {
  c = await startTestController({ emulation: "0.21", rateLimits: "disabled" });
  for (let i = 0; i < 2100; i++)
    c.store.createTarget({ scope_id: PROJECT, name: `paged-${i}`, type: "tcp", description: `target ${i}`, attributes: { default_port: 22 } });
});
afterAll(() => c.shutdown());

/** A page as v0.21.3 answers it: these keys and no other. */
const Page = z.strictObject({
  items: z.array(z.record(z.string(), z.unknown())),
  response_type: z.enum(["delta", "complete"]),
  sort_by: z.literal("created_time"),
  sort_dir: z.literal("desc"),
  list_token: z.string().min(1),
  est_item_count: z.literal(2100),
});

/** List items carry no association ids or summaries (Boundary's list query does not load them). */
const ASSOCIATIONS = [
  "host_source_ids",
  "host_sources",
  "brokered_credential_source_ids",
  "brokered_credential_sources",
  "injected_application_credential_source_ids",
  "injected_application_credential_sources",
];

test("a 2,100-Target paginated listing: every item of every page decodes strictly as the Target it is", async () => {
  const items: Record<string, unknown>[] = [];
  let token: string | undefined;
  const types: string[] = [];
  do {
    const res = await c.call("GET", `/v1/targets?${new URLSearchParams({ scope_id: PROJECT, ...(token ? { list_token: token } : {}) })}`);
    expect(res.status).toBe(200);
    const page = Page.parse(res.body);
    // pages of 1,000 span many chunks of about 64 KiB, the last page of 100 more than one
    expect(res.text.length).toBeGreaterThan((page.items.length === 1000 ? 8 : 0.9) * 64 * 1024);
    items.push(...page.items);
    types.push(page.response_type);
    token = page.response_type === "delta" ? page.list_token : undefined;
  } while (token);
  expect(types).toEqual(["delta", "delta", "complete"]);
  expect(new Set(items.map((t) => t.id)).size).toBe(2100);
  // each item exactly as the Target reads (an exact key check), less the associations lists omit
  const targets = new Map(c.store.listTargets(PROJECT, false).map((t) => [t.id, t]));
  for (const item of items) {
    const id = item.id as string;
    expect(targets.has(id)).toBe(true);
    const read = await c.call("GET", `/v1/targets/${id}`);
    const expected = Object.fromEntries(Object.entries(read.body).filter(([k]) => !ASSOCIATIONS.includes(k)));
    expect(Object.keys(item).sort()).toEqual(Object.keys(expected).sort());
    expect(item).toEqual(expected);
  }
});
