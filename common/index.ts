/** Code both sides share that is not the wire contract: the error root, field rules, filters, durations, waiting. */
export { PulumiBoundaryError } from "./errors";
export { FilterSyntaxError, parseFilter, matches, type FilterExpr } from "./filter";
export { parseDuration } from "./duration";
export { sleep } from "./sleep";
export * as rules from "./rules";
