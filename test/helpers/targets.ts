/** What the Target suites send and read: a create body with the required fields, and the fields an error answer names. */
import { PROJECT } from "./controller";

/** The names of the request fields an error answer names, sorted; none when it names none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer, read field by field
export const fieldsOf = (body: any): string[] => (body.details?.request_fields ?? []).map((f: { name: string }) => f.name).sort();

/** A create body: the required fields (a default port, which 0.9+ require), then `fields`. */
export const createBody = (fields: object = {}) => ({ scope_id: PROJECT, name: "a", type: "tcp", attributes: { default_port: 22 }, ...fields });
