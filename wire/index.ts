/** The Target API's wire contract: the field table and the zod schemas derived from it. */
export * from "./target-fields";
export * from "./target";
