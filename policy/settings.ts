/**
 * A policy's settings: declared once, each with its JSON-schema type, bounds, default and doc. The
 * config schema the pack announces (and the engine checks the pack's config against, filling in the
 * defaults) and the values a policy reads both come from the declaration.
 */
import type { PolicyConfigSchema } from "@pulumi/policy/policy";
import { MAX_INT32 } from "../common/rules";
import { PolicySettingError } from "./errors";

/** One whole-number setting of a policy: its bounds, its default and what it means. */
export interface IntegerSetting {
  minimum: number;
  default: number;
  description: string;
}

/** A policy's settings by name. */
export type Settings = Readonly<Record<string, IntegerSetting>>;

/** The settings' values, by name. */
export type Values<S extends Settings> = { readonly [K in keyof S]: number };

/** The config schema the pack announces for `settings` (the engine adds `enforcementLevel` itself). */
export function configSchema(settings: Settings): PolicyConfigSchema {
  const properties: PolicyConfigSchema["properties"] = {};
  for (const [name, s] of Object.entries(settings)) {
    properties[name] = { type: "integer", minimum: s.minimum, maximum: MAX_INT32, default: s.default, description: s.description };
  }
  return { properties };
}

/**
 * The settings' values from what the pack was configured with: each missing one at its default (a
 * pack configured by the engine has them all; a team's own pack may configure none). A value outside
 * its schema is refused, naming the policy, the setting and the rule.
 */
export function settingValues<S extends Settings>(policy: string, settings: S, config: Record<string, unknown>): Values<S> {
  const values: Record<string, number> = {};
  for (const [name, s] of Object.entries(settings)) {
    const v = config[name];
    if (v === undefined || v === null) values[name] = s.default;
    else if (typeof v === "number" && Number.isInteger(v) && v >= s.minimum && v <= MAX_INT32) values[name] = v;
    else
      throw new PolicySettingError(
        `${policy}: the setting ${name} is ${JSON.stringify(v)}: it must be a whole number from ${s.minimum} to ${MAX_INT32} (default ${s.default}); ` +
          `fix it in the policy pack's config`,
      );
  }
  return values as Values<S>;
}
