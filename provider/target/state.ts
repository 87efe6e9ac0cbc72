/**
 * The one mapper from the API's Target to the resource's Pulumi state, used by create, read,
 * update and import. The state holds the server's values of every field (so drift is visible) and
 * `__managed`: the inputs the program set at the last apply, because the provider host never passes
 * old inputs to diff/update/read and "removed from the program" must be told from "never set".
 */
import { TARGET_DEFAULTS, type Target } from "../../wire/target";
import { INPUT_FIELDS, type InputField, type TargetInputs } from "./inputs";

export interface TargetState {
  scopeId: string;
  name: string;
  description?: string;
  type: string;
  hostSetIds: string[];
  applicationCredentialLibraryIds: string[];
  sessionMaxSeconds: number;
  sessionConnectionLimit: number;
  workerFilter?: string;
  defaultPort?: number;
  version: number;
  createdTime?: string;
  updatedTime?: string;
  scope?: { id: string; type: string; name?: string; description?: string; parentScopeId?: string };
  hostSets: { id: string; hostCatalogId?: string }[];
  applicationCredentialLibraries: { id: string; credentialStoreId?: string }[];
  authorizedActions: string[];
  /** Input fields the program set at the last apply; the others are not managed. */
  __managed: InputField[];
}

/** Drops undefined values: Pulumi state must not hold them (the provider host would never answer). */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function stateFromTarget(t: Target, managed: readonly InputField[]): TargetState {
  return compact({
    scopeId: t.scope_id,
    name: t.name ?? "",
    description: t.description || undefined,
    type: t.type ?? "tcp",
    hostSetIds: [...(t.host_set_ids ?? [])].sort(),
    applicationCredentialLibraryIds: [...(t.application_credential_library_ids ?? [])].sort(),
    sessionMaxSeconds: t.session_max_seconds ?? TARGET_DEFAULTS.session_max_seconds,
    sessionConnectionLimit: t.session_connection_limit ?? TARGET_DEFAULTS.session_connection_limit,
    workerFilter: t.worker_filter || undefined,
    defaultPort: t.attributes?.default_port || undefined,
    version: t.version,
    createdTime: t.created_time,
    updatedTime: t.updated_time,
    scope: t.scope
      ? compact({ id: t.scope.id, type: t.scope.type, name: t.scope.name, description: t.scope.description, parentScopeId: t.scope.parent_scope_id })
      : undefined,
    hostSets: (t.host_sets ?? []).map((h) => compact({ id: h.id, hostCatalogId: h.host_catalog_id })),
    applicationCredentialLibraries: (t.application_credential_libraries ?? []).map((l) => compact({ id: l.id, credentialStoreId: l.credential_store_id })),
    authorizedActions: t.authorized_actions ?? [],
    __managed: [...managed],
  });
}

/** The input fields a program set (present and not undefined). */
export function managedFields(inputs: Partial<Record<string, unknown>>): InputField[] {
  return INPUT_FIELDS.filter((f) => inputs[f] !== undefined);
}

/**
 * The inputs as the controller now has them, for the fields the program manages: what `read`
 * returns as refreshed inputs, so a refresh followed by a preview shows drift field by field.
 * With `all`, every field (an import, where nothing is managed yet).
 */
export function inputsFromState(s: TargetState, all = false): Partial<TargetInputs> {
  const fields = all ? INPUT_FIELDS : s.__managed;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = s[f];
    if (v === undefined) continue;
    if (all && Array.isArray(v) && v.length === 0) continue;
    out[f] = v;
  }
  return out as Partial<TargetInputs>;
}
