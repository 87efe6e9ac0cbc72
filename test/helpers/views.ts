/**
 * Whole answers: a Target view as a release's TS toProto answers it, built from the release's
 * columns, and a body normalised where no test can know a value (ids, times, list tokens), so the
 * per-release suites compare entire bodies rather than fragments.
 */
import { defaultsIn, summariesOf, type Release } from "../../wire/releases";
import { PROJECT } from "./controller";
import { speech } from "./releases";

/** The default project as TS populateScope answers it. */
export const SCOPE = { id: PROJECT, type: "project", name: "Generated project scope", parent_scope_id: "o_1234567890" } as const;

/** A body with what no test can know replaced: Target ids by `<id>`, times by `<time>`, a list token by `<token>`. */
export function normalised(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(normalised);
  if (body === null || typeof body !== "object") return body;
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => {
      if (k === "id" && typeof v === "string" && v.startsWith("ttcp_")) return [k, "<id>"];
      if (k.endsWith("_time")) return [k, "<time>"];
      if (k === "list_token") return [k, "<token>"];
      return [k, normalised(v)];
    }),
  );
}

/** What a view holds beyond the release's constants: the Target's own values, and the host sets attached (in hcst_1234567890 unless `catalogs` says). */
export interface ViewOf {
  version: number;
  name: string;
  description?: string;
  attributes?: Record<string, unknown>;
  hosts?: readonly string[];
  catalogs?: Readonly<Record<string, string>>;
}

/**
 * A Target's view (normalised) as the release's TS toProto answers it: its fields, `scope`, the
 * `authorized_actions` of the `actions` column, `address: ""` where `addressAlways`, the connection
 * limit's default of the `defaults` column, and the host list under every name its `lists` column answers.
 */
export function targetView(r: Release, v: ViewOf): Record<string, unknown> {
  const host = speech(r, "hostSetIds")!;
  const hosts = v.hosts ?? [];
  const summary = (id: string) => ({ id, host_catalog_id: v.catalogs?.[id] ?? "hcst_1234567890" });
  const lists =
    hosts.length === 0
      ? {}
      : Object.fromEntries(
          host.answers.flatMap((name) => [
            [name, hosts],
            [summariesOf(name), hosts.map(summary)],
          ]),
        );
  return {
    id: "<id>",
    created_time: "<time>",
    updated_time: "<time>",
    version: v.version,
    scope_id: PROJECT,
    name: v.name,
    ...(v.description === undefined ? {} : { description: v.description }),
    type: "tcp",
    session_max_seconds: 28800,
    session_connection_limit: defaultsIn(r, "sessionConnectionLimit")[0],
    attributes: v.attributes ?? {},
    scope: SCOPE,
    authorized_actions: r.actions,
    ...(r.addressAlways ? { address: "" } : {}),
    ...lists,
  };
}
