/** Code both sides share that is not the wire contract: the error root, field rules, filters, durations, waiting, nearest names. */
export { PulumiBoundaryError } from "./errors";
export { FilterSyntaxError, parseFilter, matches, type FilterExpr } from "./filter";
export { parseDuration } from "./duration";
export { sleep } from "./sleep";
export { nearestName } from "./nearest";
export * as rules from "./rules";
