/**
 * The controller's state and every rule about Targets, in rooms: the records and their versions
 * (`targets.ts`), the indexes over them (`indexes.ts`, on `sorted-ids.ts`), the rules of a body
 * (`validation.ts`), the add/set/remove actions (`associations.ts`), the aliases (`aliases.ts`),
 * and the seed they point at (`fixtures.ts`, the seed data a store starts from, read through
 * `referents.ts`).
 */
export { Store, type AssociationField, type StoreOptions } from "./targets";
export type { ReferentRecord, Referents, ScopeRecord } from "./referents";
export { maybeAlias } from "./aliases";
export { DEV_USER_ID, defaultFixtures, parseFixtures, type Fixtures } from "./fixtures";
export type { ListQuery } from "../rules/fields";
export { newId, type IdUse } from "../ids";
