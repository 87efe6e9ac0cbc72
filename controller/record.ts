/**
 * The stored Target, apart from the store that keeps it, so the modules the store uses (the
 * emulation profiles, pagination) can name it without importing the store.
 */
import type { TargetFieldsOnWire } from "../wire/target";
import type { InputField, ListField, TargetFields } from "../wire/target-fields";

/**
 * A Target as the store keeps it: the wire Target without the parts a view adds (scope summary,
 * association summaries, the caller's actions). Stored records are frozen: every change stores a
 * new record, which is what lets the view cache rendered JSON.
 */
export type TargetRecord = Omit<TargetFieldsOnWire, SummaryKey | "scope" | "authorized_actions"> & {
  created_time: string;
  updated_time: string;
} & AlwaysSet;

/** The lists' summaries under the spec's names (`host_sets`): a view adds them, the record holds only the ids. */
type SummaryKey = { [K in ListField]: TargetFields[K]["association"] extends { summaries: infer S extends string } ? S : never }[ListField];

/** A field's top-level wire name; never for a nested one (`attributes.default_port`). */
type TopWire<K extends InputField> = TargetFields[K]["wire"] extends `${string}.${string}` ? never : TargetFields[K]["wire"];
/**
 * The table's top-level fields a record always holds: the required ones (`name`) and those with a
 * default (`type`, the session limits, every id list under the spec's name: empty when none is attached).
 */
type AlwaysSet = {
  [K in InputField as TargetFields[K] extends { required: true } | { default: unknown } ? TopWire<K> : never]-?: NonNullable<
    TargetFieldsOnWire[TopWire<K> & keyof TargetFieldsOnWire]
  >;
};

/** A record's fields (not its version and update time) are those of another: a PATCH that changes nothing. */
export function sameRecord(a: TargetRecord, b: TargetRecord): boolean {
  const fields = (t: TargetRecord) => {
    const { version: _v, updated_time: _u, ...rest } = t;
    return JSON.stringify(rest, (_k, v: unknown) =>
      v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v,
    );
  };
  return fields(a) === fields(b);
}
