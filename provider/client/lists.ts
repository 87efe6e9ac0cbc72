/**
 * The client's methods on a Target's id lists, derived from the field table (`wire/target-fields.ts`):
 * each current action (`host-sources`, `credential-sources`) gets an add, a set and a remove that
 * work on every release (`setHostSources`, …), and each v0.4 action (`host-sets`,
 * `credential-libraries`) its own three as named (`setHostSets`, …). A new list gets its methods
 * from its table entry. All of them are built on one `changeLists` (lists by the table's keys) and,
 * for v0.4's, the client's `v04Action`: the client extends `ListActions`.
 *
 * An action carrying one list takes its ids; one carrying several (`:set-credential-sources`) takes
 * them by the first word of each list's current wire name (`brokered`, `injected`), Boundary's own.
 */
import type { Target } from "../../wire/target";
import { INPUT_FIELDS, spec, type AssociationOp, type InputField, type ListField } from "../../wire/target-fields";
import type { ListIds } from "./api";
import { InternalError } from "../../common/errors";
import { BoundaryClientError } from "./errors";

type Fields = typeof import("../../wire/target-fields").TARGET_FIELDS;

/** The lists a Target action changes, by the field table's key: a list absent is left alone (see `changeLists`). */
export type ListChange = Partial<Record<ListField, readonly string[]>>;

/** A current action's noun (`host-sources`). */
type CurrentNoun = Fields[ListField]["association"]["current"]["action"];
/** A v0.4 action's noun (`host-sets`); lists v0.4 does not have have none. */
type V04Noun = { [F in ListField]: Fields[F]["association"] extends { action: infer A extends string } ? A : never }[ListField];
/** The lists a current action carries. */
type ListsOf<N extends CurrentNoun> = { [F in ListField]: Fields[F]["association"]["current"]["action"] extends N ? F : never }[ListField];
/** The key a list goes under in a several-list action's argument: the first word of its current wire name. */
type KeyOf<F extends ListField> = Fields[F]["association"]["current"]["wire"] extends `${infer K}_${string}` ? K : never;
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;
/** `host-sources` → `HostSources`. */
type Pascal<S extends string> = S extends `${infer H}-${infer T}` ? `${Capitalize<H>}${Pascal<T>}` : Capitalize<S>;

/** What a current action's methods take: the ids of its one list, or its lists by key (see the module comment). */
export type ListArgument<N extends CurrentNoun> = true extends IsUnion<ListsOf<N>> ? { [F in ListsOf<N> as KeyOf<F>]?: readonly string[] } : readonly string[];

/**
 * A Target's credential sources: brokered (v0.4's credential libraries, `clvlt_…`: the user
 * receives them) and injected (the worker injects them; current releases only).
 */
export type CredentialSources = ListArgument<"credential-sources">;

/** The named methods: for each current action, add/set/remove on every release; for each v0.4 action, add/set/remove as named. */
export type NamedListMethods = {
  [K in `${AssociationOp}${Pascal<CurrentNoun>}`]: (id: string, version: number, lists: ListArgument<NounOf<K>>) => Promise<Target>;
} & {
  [K in `${AssociationOp}${Pascal<V04Noun>}`]: (id: string, version: number, ids: readonly string[]) => Promise<Target>;
};
type NounOf<K extends string> = { [N in CurrentNoun]: K extends `${AssociationOp}${Pascal<N>}` ? N : never }[CurrentNoun];

/** `host-sources` → `HostSources`: a named method's noun (also what an ActionNotRoutedError tells to call). */
export function pascal(noun: string): string {
  return noun.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/** The client's v0.4 action, as `ListActions` declares it (protected there: the named methods call it). */
type V04Action = (id: string, op: AssociationOp, field: ListField, version: number, ids: readonly string[]) => Promise<Target>;

const OPS: readonly AssociationOp[] = ["add", "set", "remove"];
const LISTS = INPUT_FIELDS.filter((f: InputField): f is ListField => spec(f).association !== undefined);

/**
 * What the named methods are built on: `changeLists` (here) and the client's `associate` and
 * `v04Action`. The client extends it; its prototype carries the named methods (`listActionsBase`).
 */
export abstract class ListActions {
  /** An add/set/remove of `lists` through the action the controller routes (the client's). */
  abstract associate(id: string, op: AssociationOp, version: number, lists: readonly ListIds[]): Promise<Target>;
  /** A v0.4 action as named (the client's): its 405 says which method works on every release. */
  protected abstract v04Action(id: string, op: AssociationOp, field: ListField, version: number, ids: readonly string[]): Promise<Target>;

  /**
   * An add, set or remove on the Target's lists, named by the field table's keys, through the
   * action this controller routes on every release from 0.4 to the newest (`associate`): one call
   * changing every list given. A `set` through a current action replaces the lists it carries (a
   * `:set-credential-sources` both credential lists: one left out becomes empty); v0.4's actions
   * carry one list, and refuse another that holds ids (it needs a current controller).
   */
  changeLists(id: string, version: number, op: AssociationOp, lists: ListChange): Promise<Target> {
    const given = LISTS.filter((f) => lists[f] !== undefined).map((field) => ({ field, ids: lists[field]! }));
    if (given.length === 0) throw new BoundaryClientError(`${op} on target ${id}: no list given (one of ${LISTS.join(", ")})`);
    return this.associate(id, op, version, given);
  }

  // the named methods go on the prototype here, where v0.4's protected action may be called
  static {
    Object.assign(
      ListActions.prototype,
      namedMethods((self, ...args) => self.v04Action(...args)),
    );
  }
}

/** The named methods, made from the field table (see the module comment), v0.4's calling `v04`. */
function namedMethods(
  v04: (self: ListActions, ...args: Parameters<V04Action>) => Promise<Target>,
): Record<string, (this: ListActions, id: string, version: number, arg: never) => Promise<Target>> {
  const methods: Record<string, (this: ListActions, id: string, version: number, arg: never) => Promise<Target>> = {};
  for (const noun of new Set(LISTS.map((f) => spec(f).association!.current.action))) {
    const carried = LISTS.filter((f) => spec(f).association!.current.action === noun);
    const key = (f: ListField) => spec(f).association!.current.wire.split("_")[0]!;
    const byKey = (arg: unknown) => arg as Record<string, readonly string[]>;
    const asLists = (arg: unknown): ListChange =>
      carried.length === 1 ? { [carried[0]!]: arg as readonly string[] } : Object.fromEntries(carried.map((f) => [f, byKey(arg)[key(f)]]));
    for (const op of OPS)
      methods[`${op}${pascal(noun)}`] = function (id, version, arg) {
        return this.changeLists(id, version, op, asLists(arg));
      };
  }
  for (const field of LISTS) {
    const noun = spec(field).association!.action;
    if (!noun) continue;
    for (const op of OPS)
      methods[`${op}${pascal(noun)}`] = function (id, version, ids: readonly string[]) {
        return v04(this, id, op, field, version, ids);
      };
  }
  return methods;
}

/** Whether `base`'s prototype carries every named method (`NamedListMethods`): the names the type expects, as the table makes them. */
function carriesNamedMethods(base: abstract new () => ListActions): base is abstract new () => ListActions & NamedListMethods {
  const nouns = LISTS.flatMap((f) => [spec(f).association!.current.action, spec(f).association!.action ?? []].flat());
  return nouns.every((noun) => OPS.every((op) => typeof Reflect.get(base.prototype, `${op}${pascal(noun)}`) === "function"));
}

const withNames: abstract new () => ListActions = ListActions;
if (!carriesNamedMethods(withNames)) throw new InternalError("the client's named list methods were not made from the field table");
/** `ListActions` with its named methods typed: what the client extends. */
export const ListActionsWithNames = withNames;
