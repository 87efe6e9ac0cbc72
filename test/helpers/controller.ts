/** Starts a real controller on loopback port 0 and talks to it over HTTP. */
import { defaultFixtures, startController, type ControllerOptions, type RunningController } from "../../controller";
import { release, requires, type ListField } from "../../wire/releases";
import { speech } from "./releases";

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
   * Creates a target with sensible defaults and returns the response body. In a release whose
   * create ignores lists (every real one), `host_set_ids` and `application_credential_library_ids`
   * are attached afterwards by the release's newest set action, so the Target holds them in every
   * release (its version then counts those changes); a release that requires a default port gets
   * one unless one is given.
   */
  create(fields?: Record<string, unknown>): Promise<any>;
}

/** The lists a test's create may name, by the spec's names. */
const LISTS: readonly { field: string; list: ListField }[] = [
  { field: "host_set_ids", list: "hostSetIds" },
  { field: "application_credential_library_ids", list: "applicationCredentialLibraryIds" },
];

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
  const r = release(options.emulation ?? "spec");
  const appliesLists = r.createAppliesLists && !options.ignoreCreateAssociations;
  const create = async (fields: Record<string, unknown> = {}) => {
    const body: Record<string, unknown> = { scope_id: PROJECT, name: `target-${++counter}`, type: "tcp", ...fields };
    if (requires(r, "defaultPort")) body.attributes = { default_port: 22, ...(body.attributes as object | undefined) };
    const later = appliesLists ? [] : LISTS.filter((l) => Array.isArray(body[l.field]) && (body[l.field] as unknown[]).length > 0);
    for (const l of later) delete body[l.field];
    const res = await call("POST", "/v1/targets", body);
    if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
    let t = res.body;
    for (const l of later) {
      const { noun, field } = speech(r, l.list)!;
      const set = await call("POST", `/v1/targets/${t.id}:set-${noun}`, { version: t.version, [field]: fields[l.field] });
      if (set.status !== 200) throw new Error(`create failed: ${set.status} ${set.text}`);
      t = set.body;
    }
    return t;
  };
  return { ...c, call, create };
}
