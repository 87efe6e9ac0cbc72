/**
 * The stored Target, apart from the store that keeps it, so the modules the store uses (the
 * emulation profiles, pagination) can name it without importing the store.
 */
import type { TargetFieldsOnWire } from "../wire/target";

/**
 * A Target as the store keeps it: the wire Target without the parts a view adds (scope summary,
 * association summaries, the caller's actions). Stored records are frozen: every change stores a
 * new record, which is what lets the view cache rendered JSON.
 */
export type TargetRecord = Omit<TargetFieldsOnWire, "scope" | "host_sets" | "application_credential_libraries" | "authorized_actions"> & {
  name: string;
  type: string;
  created_time: string;
  updated_time: string;
  host_set_ids: string[];
  application_credential_library_ids: string[];
  /** Current releases only; always empty on v0.4 ones. */
  injected_application_credential_source_ids: string[];
  // fields with a default in the table are always set
  session_max_seconds: number;
  session_connection_limit: number;
};
