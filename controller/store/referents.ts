/**
 * The seeded resources Targets point at: scopes, host sets, credential sources and workers. The
 * API never changes them; the store checks ids against them, and the view and authorize-session
 * read them through `Referents`, never through the maps behind it.
 */
import { REFERENTS, type ListKind } from "../../wire/target-fields";
import type { FixtureCredential, FixtureCredentialLibrary, FixtureHostSet, FixtureScope, FixtureWorker, Fixtures } from "./fixtures";

/** A seeded resource an id list may name: its project, and the fields a Target's summary of it carries. */
export type ReferentRecord = { id: string; scope_id: string } & Readonly<Record<string, unknown>>;

/** A scope: a seeded one, or `global`. */
export type ScopeRecord = FixtureScope | { id: "global"; type: "global"; name: string; description: string; parent_scope_id?: undefined };

/** What the view and the sessions read of the seed: each lookup by id answers undefined for an id the seed lacks. */
export interface Referents {
  /** The scope with this id (`global` included). */
  scope(id: string): ScopeRecord | undefined;
  /** Every scope, `global` first. */
  allScopes(): Iterable<ScopeRecord>;
  /** The host set with this id, with its hosts. */
  hostSet(id: string): FixtureHostSet | undefined;
  /** The credential source with this id: a credential library, or a static credential (current releases only take these). */
  credentialSource(id: string): FixtureCredentialLibrary | FixtureCredential | undefined;
  /** The resource of this kind (REFERENTS) an id list names: what attaching checks ids against. */
  referent(kind: ListKind, id: string): ReferentRecord | undefined;
  /** Where a referent was created among those of its kind (the fixtures' order: the seed creates them so), or Infinity for one the seed lacks. */
  createdAt(kind: ListKind, id: string): number;
  /** The workers a session may use. */
  readonly workers: readonly FixtureWorker[];
}

/** The fixtures' seed, indexed by id. */
export class Seed implements Referents {
  private readonly scopes = new Map<string, ScopeRecord>();
  private readonly hostSets = new Map<string, FixtureHostSet>();
  private readonly credentialSources = new Map<string, FixtureCredentialLibrary | FixtureCredential>();
  private readonly byKind: Record<ListKind, Map<string, ReferentRecord>>;
  /** The workers a session may use (the fixtures' array: a test may empty it). */
  readonly workers: FixtureWorker[];

  /** Indexes the fixtures' scopes (after `global`), host sets, credential sources, the arrays REFERENTS names, and the workers. */
  constructor(fixtures: Fixtures) {
    this.scopes.set("global", { id: "global", type: "global", name: "Global", description: "Global Scope" });
    for (const s of fixtures.scopes) this.scopes.set(s.id, s);
    for (const h of fixtures.host_sets) this.hostSets.set(h.id, h);
    for (const c of [...fixtures.credential_libraries, ...fixtures.credentials]) this.credentialSources.set(c.id, c);
    const seeded: Readonly<Record<string, readonly object[] | undefined>> = fixtures;
    this.byKind = Object.fromEntries(
      Object.entries(REFERENTS).map(([kind, r]) => [
        kind,
        new Map(r.fixtures.flatMap((key) => (seeded[key] ?? []).filter(isReferent)).map((item) => [item.id, item])),
      ]),
    ) as Record<ListKind, Map<string, ReferentRecord>>;
    this.workers = fixtures.workers;
  }

  /** See `Referents.scope`. */
  scope(id: string): ScopeRecord | undefined {
    return this.scopes.get(id);
  }

  /** See `Referents.allScopes`. */
  allScopes(): Iterable<ScopeRecord> {
    return this.scopes.values();
  }

  /** See `Referents.hostSet`. */
  hostSet(id: string): FixtureHostSet | undefined {
    return this.hostSets.get(id);
  }

  /** See `Referents.credentialSource`. */
  credentialSource(id: string): FixtureCredentialLibrary | FixtureCredential | undefined {
    return this.credentialSources.get(id);
  }

  /** See `Referents.referent`. */
  referent(kind: ListKind, id: string): ReferentRecord | undefined {
    return this.byKind[kind].get(id);
  }

  /** See `Referents.createdAt`. */
  createdAt(kind: ListKind, id: string): number {
    const at = [...this.byKind[kind].keys()].indexOf(id);
    return at < 0 ? Infinity : at;
  }
}

/** A fixture item an id list may name: it has an id and a project. */
function isReferent(item: object): item is ReferentRecord {
  return "id" in item && typeof item.id === "string" && "scope_id" in item && typeof item.scope_id === "string";
}
