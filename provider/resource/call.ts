/**
 * One API call of a reconcile plan, as the plan decides it (`plan.ts`) and before it is rendered
 * on the wire, and how messages name it. A leaf: it knows the wire's types and nothing of the
 * client or the errors, which both name a call.
 */
import type { UpdateTargetRequest } from "../../wire/target";
import type { Association } from "../../wire/target-fields";
import type { ListField } from "../../wire/releases";

/** One API call of a plan. */
export type Call =
  | { op: "update"; mask: string[]; fields: Omit<UpdateTargetRequest, "version"> }
  | {
      op: "set";
      field: ListField;
      association: Association;
      ids: string[];
      /**
       * The other lists the same current action replaces, with the ids each must hold after it
       * (`:set-credential-sources` sets the brokered and the injected list: leaving one out would clear it).
       */
      siblings?: { field: ListField; ids: string[] }[];
    };

/** Says what a call does, for messages. */
export function describeCall(call: Call): string {
  return call.op === "update"
    ? `updating ${call.mask.join(", ")}`
    : `setting ${(call.association.action ?? call.association.current.action).replace("-", " ")}`;
}
