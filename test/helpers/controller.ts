/** Starts a real controller on loopback port 0 and talks to it over HTTP. */
import { defaultFixtures, startController, type ControllerOptions, type RunningController } from "../../controller";
import { INPUT_FIELDS, spec } from "../../wire/target-fields";

export const ADMIN_TOKEN = "at_1234567890_s1AdminTokenForTestsOnly";
export const READ_ONLY_TOKEN = "at_0987654321_s1ReadOnlyTokenForTests";
export const PROJECT = "p_1234567890";
export const OTHER_PROJECT = "p_0987654321";

export interface Response {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestController extends RunningController {
  call(method: string, path: string, body?: unknown, token?: string | null): Promise<Response>;
  /**
   * Creates a target with sensible defaults and returns the response body. In a mode whose create
   * ignores lists (as real Boundary does), `host_set_ids` and `application_credential_library_ids`
   * are attached afterwards by the mode's set actions, so the Target holds them in every mode (its
   * version then counts those changes); `--emulate 0.21` gets a default port unless one is given.
   */
  create(fields?: Record<string, unknown>): Promise<any>;
}

/** The v0.4 lists, with the action and field current releases (`--emulate 0.21`) use instead, from the field table. */
const LISTS = INPUT_FIELDS.flatMap((f) => {
  const a = spec(f).association;
  return a?.action ? [{ field: spec(f).wire, action: a.action, current: { action: a.current.action, field: a.current.wire } }] : [];
});

let counter = 0;

export async function startTestController(options: Partial<ControllerOptions> = {}): Promise<TestController> {
  const c = await startController({
    api: { host: "127.0.0.1", port: 0 },
    ops: { host: "127.0.0.1", port: 0 },
    token: ADMIN_TOKEN,
    readOnlyToken: READ_ONLY_TOKEN,
    gracefulShutdownWaitMs: 0,
    fixtures: defaultFixtures(),
    ...options,
  });
  const call = async (method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN): Promise<Response> => {
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const res = await fetch(c.apiUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  const mode = options.emulation ?? "spec";
  const appliesLists = mode === "spec" && !options.ignoreCreateAssociations;
  const create = async (fields: Record<string, unknown> = {}) => {
    const body: Record<string, unknown> = { scope_id: PROJECT, name: `target-${++counter}`, type: "tcp", ...fields };
    if (mode === "0.21") body.attributes = { default_port: 22, ...(body.attributes as object | undefined) };
    const later = appliesLists ? [] : LISTS.filter((l) => Array.isArray(body[l.field]) && (body[l.field] as unknown[]).length > 0);
    for (const l of later) delete body[l.field];
    const res = await call("POST", "/v1/targets", body);
    if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
    let t = res.body;
    for (const l of later) {
      const [action, field] = mode === "0.21" ? [l.current.action, l.current.field] : [l.action, l.field];
      const set = await call("POST", `/v1/targets/${t.id}:set-${action}`, { version: t.version, [field]: fields[l.field] });
      if (set.status !== 200) throw new Error(`create failed: ${set.status} ${set.text}`);
      t = set.body;
    }
    return t;
  };
  return { ...c, call, create };
}
