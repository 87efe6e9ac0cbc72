/**
 * What a release answers for a request no route takes, as the release table says (`routing` under
 * `/v1/`, `outsideApi` elsewhere). It matters beyond fidelity: a client whose address has a wrong
 * base path (`http://host:9200/boundary`) asks paths no route takes, and only Boundary's NotFound
 * error body means "this Target is gone". No release answers such a path with that body, so
 * neither does this controller: real ones answer with their admin UI, an empty body or a gateway
 * error; the spec's controller with a plain-text 404 naming the path.
 */
import { RELEASES, type Release } from "../../wire/releases";
import { ControllerFault, NoRouteAnswer } from "../errors";

export { NoRouteAnswer } from "../errors";

/** Every action name any release has (Boundary's action map keeps the removed ones: it knows them, and refuses them as not the Target's). */
const KNOWN_ACTIONS = new Set(RELEASES.flatMap((r) => r.actions));
const bare = (kind: "MethodNotAllowed" | "InvalidArgument" | "NotFound", message: string) => new ControllerFault(kind, message, [], {}, true);

/** Ours: a 404 in plain text, saying where the API is. */
function ourNoRoute(method: string, pathname: string): NoRouteAnswer {
  const text = `No route for ${method} ${pathname}: this controller serves Boundary's Target API under /v1/ (is the address's path right?).\n`;
  return new NoRouteAnswer({ status: 404, page: { contentType: "text/plain; charset=utf-8", text } });
}

/**
 * The gateway's answer to a path it does not match: its routing NotFound is a gRPC status that
 * Boundary's error handler (handlers/errors.go backendErrorToApiError) maps to nothing else, so
 * its generic 500 with the status's text.
 */
const gatewayNoPath = () => new ControllerFault("Internal", "rpc error: code = NotFound desc = Not Found");
/** The gateway's answer to a method no pattern of the path takes: its routing Unimplemented, which Boundary answers 405. */
const gatewayNotAllowed = () => new ControllerFault("Unimplemented", "Method Not Allowed");

/** The collections this controller serves; the rate limiter lets a path under a collection Boundary has through to the gateway. */
const COLLECTIONS = new Set(["targets"]);

/** How each `routing` answers under /v1/: no such path, a wrong method. */
export const NO_ROUTE: Record<
  Release["routing"],
  {
    noPath(method: string, pathname: string): ControllerFault | NoRouteAnswer;
    notAllowed(method: string, template: string, allow: string): ControllerFault;
  }
> = {
  ours: {
    noPath: ourNoRoute,
    notAllowed: (method, template, allow) => new ControllerFault("MethodNotAllowed", `Method ${method} is not allowed on ${template}.`, [], { allow }),
  },
  // handlers/errors.go: the gateway's codes.Unimplemented is 405 with its message
  gateway: { noPath: gatewayNoPath, notAllowed: gatewayNotAllowed },
  // what the rate limiter lets through (see rateLimiterRefusal) reaches the gateway
  "rate-limiter": {
    noPath: (method, pathname) => (COLLECTIONS.has(pathname.split("/")[2] ?? "") ? gatewayNoPath() : bare("NotFound", `No route for ${method} ${pathname}.`)),
    notAllowed: gatewayNotAllowed,
  },
};

/** The actions Boundary's rate limiter maps for a Target in a release (its IdActions and CollectionActions). */
const limiterActions = (r: Release) => new Set([...r.actions, "create", "list"]);

/**
 * The rate limiter's refusal before the API (ratelimit/handler.go extractResourceAction, from
 * 0.14.3), with an empty body: an action no resource has is 400, one a Target lacks in this
 * release 405; without an action, a method other than GET/POST on the collection or
 * GET/PATCH/DELETE on an item is 405. Undefined when it lets the request through.
 */
export function rateLimiterRefusal(path: string, method: string, r: Release): ControllerFault | undefined {
  const m = /\/v1\/([\w-]+)((\/([^:]+))?(:([\w\-:]+)?)?)?/.exec(path);
  const id = m?.[4] ?? "";
  const action = m?.[6] ?? "";
  if (action) {
    if (!KNOWN_ACTIONS.has(action) && !limiterActions(r).has(action)) return bare("InvalidArgument", `Unknown action ${action}.`);
    return limiterActions(r).has(action) ? undefined : bare("MethodNotAllowed", `${action} is not an action of this release.`);
  }
  const allowed = id ? ["GET", "PATCH", "DELETE"] : ["GET", "POST"];
  return allowed.includes(method) ? undefined : bare("MethodNotAllowed", `Method ${method} is not allowed.`);
}

/** Stands in for the admin UI's index page (this controller has no UI; a client must not take it for the API). */
const UI_INDEX = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Boundary</title></head>
<body><p>This is where a Boundary controller serves its admin UI. The API is under /v1/.</p></body></html>
`;

/**
 * The answer to a path outside `/v1/`. Boundary's UI handler (handler_ui.go) answers only GET (any
 * other method 405, empty); a path whose text after its last dot is all letters and digits is a file
 * (the UI's files are not here: Go's FileServer 404 in plain text), any other its index page.
 */
export function outsideApi(r: Release, method: string, pathname: string): NoRouteAnswer {
  if (r.outsideApi === "ours") return ourNoRoute(method, pathname);
  if (method !== "GET") return new NoRouteAnswer({ status: 405 });
  const dot = pathname.lastIndexOf(".");
  const file = dot >= 0 && /^[0-9A-Za-z]*$/.test(pathname.slice(dot + 1)) && pathname !== "/";
  if (file) return new NoRouteAnswer({ status: 404, page: { contentType: "text/plain; charset=utf-8", text: "404 page not found\n" } });
  return new NoRouteAnswer({ status: 200, page: { contentType: "text/html; charset=utf-8", text: UI_INDEX } });
}
