/** Starts a real controller on loopback port 0 and talks to it over HTTP. */
import { defaultFixtures, startController, type ControllerOptions, type RunningController } from "../../controller";
import { release, requires, type ListField } from "../../wire/releases";
import { speech } from "./releases";
import { useForSuite } from "./suite";

/** The token every test controller accepts for every action (its `token` option). */
export const ADMIN_TOKEN = "at_1234567890_s1AdminTokenForTestsOnly";
/** A token the test controller accepts for listing and reading only (its `readOnlyToken` option); any other action is refused. */
export const READ_ONLY_TOKEN = "at_0987654321_s1ReadOnlyTokenForTests";
/** The project scope the default fixtures seed, where `create` puts a Target unless told otherwise. */
export const PROJECT = "p_1234567890";
/** The default fixtures' second project scope. */
export const OTHER_PROJECT = "p_0987654321";

/** An answer as a test reads it: status, headers, the body parsed as JSON (undefined when it is not JSON) and as text. */
export interface Response {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the answer's JSON field by field and asserts on it
  body: any;
  text: string;
}

/** A running controller with the defaults tests use, and two shortcuts: a raw API call and a Target's creation. */
export interface TestController extends RunningController {
  /** Sends `body` (JSON unless a string) with `token` (ADMIN_TOKEN by default; null: no authorization header). */
  call(method: string, path: string, body?: unknown, token?: string | null): Promise<Response>;
  /**
   * Creates a target with sensible defaults and returns the response body. In a release whose
   * create ignores lists (every real one), `host_set_ids` and `application_credential_library_ids`
   * are attached afterwards by the release's newest set action, so the Target holds them in every
   * release (its version then counts those changes); a release that requires a default port gets
   * one unless one is given.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Target as the API answered it, read field by field
  create(fields?: Record<string, unknown>): Promise<any>;
  /** Posts `body` to the Target's action (`:set-host-sources`, `:authorize-session`, …), as `call` does. */
  act(id: string, action: string, body: object, token?: string | null): Promise<Response>;
}

/** The lists a test's create may name, by the spec's names. */
const LISTS: readonly { field: string; list: ListField }[] = [
  { field: "host_set_ids", list: "hostSetIds" },
  { field: "application_credential_library_ids", list: "applicationCredentialLibraryIds" },
];

let counter = 0;

/**
 * Starts a controller on loopback port 0 with the default fixtures, ADMIN_TOKEN and READ_ONLY_TOKEN, and no
 * graceful-shutdown wait; `options` override any of these (e.g. `emulation`).
 */
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
  const act = (id: string, action: string, body: object, token?: string | null) => call("POST", `/v1/targets/${id}:${action}`, body, token);
  return { ...c, call, create, act };
}

/**
 * A controller for the enclosing `describe` (or the file): started by `startTestController(options)` in
 * `beforeAll`, shut down in `afterAll`. The handle forwards to it, so a suite declares it in one line;
 * reading it before `beforeAll` has run (outside a test) throws.
 */
export function useTestController(options: Partial<ControllerOptions> = {}): TestController {
  return useForSuite(
    "test controller",
    () => startTestController(options),
    (c) => c.shutdown(),
  );
}
