/** Starts a real controller on loopback port 0 and talks to it over HTTP. */
import { defaultFixtures, startController, type ControllerOptions, type RunningController } from "../../controller";

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
  /** Creates a target with sensible defaults and returns the response body. */
  create(fields?: Record<string, unknown>): Promise<any>;
}

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
  const create = async (fields: Record<string, unknown> = {}) => {
    const res = await call("POST", "/v1/targets", { scope_id: PROJECT, name: `target-${++counter}`, type: "tcp", ...fields });
    if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body;
  };
  return { ...c, call, create };
}
