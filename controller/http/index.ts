/** The controller's HTTP edge: the API request chain, its routes, and the ops listener. */
export { apiChain, type ChainDeps } from "./chain";
export { routesFor, type Route, type Context, type Reply } from "./routes";
export { match } from "./match";
export { Authenticator, authorize, type Principal } from "./auth";
export { Metrics, opsHandler, type HealthState } from "./ops";
