/**
 * What a release answers for a request no route takes, as the release table says (`routing` under
 * `/v1/`, `outsideApi` elsewhere). It matters beyond fidelity: a client whose address has a wrong
 * base path (`http://host:9200/boundary`) asks paths no route takes, and only Boundary's NotFound
 * error body means "this Target is gone". No release answers such a path with that body, so
 * neither does this controller: real ones answer with their admin UI, an empty body or a gateway
 * error; the spec's controller with a plain-text 404 naming the path.
 */
import { RELEASES, type Release } from "../../wire/releases";
import { ControllerFault } from "../errors";

/** An answer that is not Boundary's error body (a page, plain text, or nothing): thrown by routing, replied as it is. */
export class NoRouteAnswer {
  /** The answer to send as it is. */
  constructor(readonly reply: { status: number; page?: { contentType: string; text: string }; headers?: Readonly<Record<string, string>> }) {}
}

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

/** The collections this controller serves; the rate limiter lets a path under a collection Boundary has through to the gateway. */
const COLLECTIONS = new Set(["targets"]);

/** How each `routing` answers under /v1/: no such path, an action the release does not route, a wrong method. */
export const NO_ROUTE: Record<
  Release["routing"],
  {
    noPath(method: string, pathname: string): ControllerFault | NoRouteAnswer;
    noAction(action: string): ControllerFault;
    notAllowed(method: string, template: string, allow: string): ControllerFault;
  }
> = {
  ours: {
    noPath: ourNoRoute,
    noAction: () => undefined as never,
    notAllowed: (method, template, allow) => new ControllerFault("MethodNotAllowed", `Method ${method} is not allowed on ${template}.`, [], { allow }),
  },
  // handlers/errors.go: the gateway's codes.Unimplemented is 405 with its message
  gateway: {
    noPath: gatewayNoPath,
    noAction: () => new ControllerFault("Unimplemented", "Method Not Allowed"),
    notAllowed: () => new ControllerFault("Unimplemented", "Method Not Allowed"),
  },
  // ratelimit/handler.go extractResourceAction: before authentication, what it cannot map to a resource and an action
  "rate-limiter": {
    noPath: (method, pathname) => (COLLECTIONS.has(pathname.split("/")[2] ?? "") ? gatewayNoPath() : bare("NotFound", `No route for ${method} ${pathname}.`)),
    noAction: (action) =>
      KNOWN_ACTIONS.has(action)
        ? bare("MethodNotAllowed", `${action} is not an action of this release.`)
        : bare("InvalidArgument", `Unknown action ${action}.`),
    notAllowed: (method, template, allow) => new ControllerFault("MethodNotAllowed", `Method ${method} is not allowed on ${template}.`, [], { allow }),
  },
};

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
