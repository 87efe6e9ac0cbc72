/** What the Target suites send and read: a create body with the required fields, and the fields an error answer names. */
import type { Emulation } from "../../controller";
import { PROJECT, useTestController } from "./controller";
import { facts } from "./releases";

/** The names of the request fields an error answer names, sorted; none when it names none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field
export const fieldsOf = (body: any): string[] => (body.details?.request_fields ?? []).map((f: { name: string }) => f.name).sort();

/** A create body: the required fields (a default port, which 0.9+ require), then `fields`. */
export const createBody = (fields: object = {}) => ({ scope_id: PROJECT, name: "a", type: "tcp", attributes: { default_port: 22 }, ...fields });

/**
 * One release's Target suite: its facts, whether it names a body's unknown keys (the spec's
 * controller) or discards them (Boundary), a controller of that release for the suite, and a
 * create with a default port (current releases require one), then `fields`.
 */
export function useTargetSuite(mode: Emulation) {
  const m = facts(mode);
  const c = useTestController({ emulation: mode, rateLimits: "disabled" });
  return {
    m,
    r: m.r,
    namesUnknownKeys: m.r.unknownKeys === "named",
    c,
    create: (fields: Record<string, unknown> = {}) => c.create({ attributes: { default_port: 22 }, ...fields }),
  };
}
