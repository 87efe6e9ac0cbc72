/**
 * docs/policies.md's table says what the pack does: every policy by name, with its default level and
 * each setting with its default, as the policies themselves declare them; the README links the page.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { targetPolicies } from "pulumi-boundary/policy";

const read = (file: string) => readFileSync(path.join(__dirname, "..", "..", file), "utf8");

test("the policies page's table lists every policy with its default level and settings' defaults", () => {
  const rows = read("docs/policies.md")
    .split("\n")
    .filter((l) => l.startsWith("| `boundary-target-"));
  expect(rows).toHaveLength(targetPolicies.length);
  for (const p of targetPolicies) {
    const row = rows.find((r) => r.startsWith(`| \`${p.name}\` | ${p.enforcementLevel} |`));
    expect(row).toBeDefined();
    const settings = Object.entries(p.configSchema?.properties ?? {});
    for (const [name, schema] of settings) expect(row).toContain(`\`${name}\` (${String(schema.default)})`);
    if (settings.length === 0) expect(row!.trimEnd().endsWith("| — |")).toBe(true);
  }
  expect(read("README.md")).toContain("(docs/policies.md)");
});
