/**
 * The stored Target, apart from the store that keeps it, so the modules the store uses (the
 * emulation profiles, pagination) can name it without importing the store.
 */
import type { TargetFieldsOnWire } from "../wire/target";
import type { ListField, ListWire, TargetFields } from "../wire/target-fields";

/**
 * A Target as the store keeps it: the wire Target without the parts a view adds (scope summary,
 * association summaries, the caller's actions). Stored records are frozen: every change stores a
 * new record, which is what lets the view cache rendered JSON.
 */
export type TargetRecord = Omit<TargetFieldsOnWire, SummaryKey | "scope" | "authorized_actions"> & {
  name: string;
  type: string;
  created_time: string;
  updated_time: string;
} & {
  // every id list of the table, under the spec's name (`host_set_ids`): empty when none is attached
  [K in ListWire]: string[];
} & {
  // fields with a default in the table are always set
  session_max_seconds: number;
  session_connection_limit: number;
};

/** The lists' summaries under the spec's names (`host_sets`): a view adds them, the record holds only the ids. */
type SummaryKey = { [K in ListField]: TargetFields[K]["association"] extends { summaries: infer S extends string } ? S : never }[ListField];
