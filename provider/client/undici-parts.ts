/**
 * The three parts of undici the transport uses: `Pool`, `buildConnector` and the `request` API,
 * loaded from their own modules. undici's index loads everything it has (fetch, WebSocket,
 * EventSource, the caches, the mocks, the proxy agents: 109 modules, 1.3 MB of source), about 140
 * ms of CPU in a fresh process, once per `pulumi up` in Pulumi's dynamic-provider host; these parts
 * take about 30. They are the same classes and function the index exports (the index only gathers
 * them; `test/provider/undici-parts.test.ts` holds that). undici's files are not a public API: if a
 * release moves them, the index is loaded as before, so a newer undici costs time, never a failure.
 */
import type * as undici from "undici";

/** What the transport needs of undici. */
export interface UndiciParts {
  Pool: typeof undici.Pool;
  buildConnector: typeof undici.buildConnector;
  /** `Dispatcher.prototype.request`, called with the dispatcher as `this`. */
  request: (this: undici.Dispatcher, options: undici.Dispatcher.RequestOptions) => Promise<undici.Dispatcher.ResponseData>;
  /** Where they came from: undici's own modules, or (a release that moved them) its index. */
  from: "modules" | "index";
}

/* eslint-disable @typescript-eslint/no-require-imports -- loaded by path, with the index as the fallback */
/** The parts from their modules, or undefined when a release moved or reshaped them. */
function fromModules(): UndiciParts | undefined {
  try {
    const Pool = require("undici/lib/dispatcher/pool") as unknown;
    const buildConnector = require("undici/lib/core/connect") as unknown;
    const request = require("undici/lib/api/api-request") as unknown;
    const ok =
      typeof Pool === "function" &&
      typeof (Pool.prototype as { compose?: unknown }).compose === "function" &&
      typeof buildConnector === "function" &&
      typeof request === "function";
    return ok ? ({ Pool, buildConnector, request, from: "modules" } as UndiciParts) : undefined;
  } catch {
    return undefined;
  }
}

/** The parts from undici's index, as every earlier version loaded them. */
function fromIndex(): UndiciParts {
  const u = require("undici") as typeof undici;
  return { Pool: u.Pool, buildConnector: u.buildConnector, request: u.Dispatcher.prototype.request as UndiciParts["request"], from: "index" };
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** undici's parts for the transport (see the module comment). */
export const UNDICI: UndiciParts = fromModules() ?? fromIndex();
