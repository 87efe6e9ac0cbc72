/**
 * Pulumi's autonaming for a Target's `name`, as a pure decision. A program that sets no name gets
 * the resource's logical name plus a random suffix (`web-3f9a2c1`); the name then stays the same
 * across updates (the old inputs carry it), and a replacement gets a fresh one, because the engine
 * checks a replacement without old inputs. So Pulumi's default create-before-delete never meets
 * the unique name of the Target it replaces. A name the program sets is used verbatim.
 */
import { createHash, randomBytes } from "node:crypto";

/** The engine's autonaming settings for a resource (CheckRequest.autonaming). */
export interface AutonamingOptions {
  /** The name the engine proposes (from the stack's autonaming pattern). */
  proposedName: string;
  /** propose: use it when the program sets no name; enforce: the same, no other name allowed; disable: the program must name it. */
  mode: "propose" | "enforce" | "disable";
}

/** What the engine tells Check about naming. */
export interface NamingContext {
  /** The resource's logical name (`web` in `new Target("web", …)`). */
  logicalName?: string;
  /** The old inputs' name, when the resource exists and is not being replaced. */
  oldName?: string;
  autonaming?: AutonamingOptions;
  /** The engine's random seed: the same seed gives the same suffix (deterministic previews and tests). */
  randomSeed?: Uint8Array;
}

/** The name to use, or why there is none. */
export interface Naming {
  name?: string;
  failure?: string;
}

const SUFFIX_LENGTH = 7;

/** Decides the Target's name when the program gives none; an explicit name is returned unchanged. */
export function autoname(programName: string | undefined, ctx: NamingContext): Naming {
  if (programName !== undefined) return { name: programName };
  if (ctx.autonaming?.mode === "disable") return { failure: "name is required: automatic naming is disabled for this stack" };
  if (ctx.oldName) return { name: ctx.oldName };
  if (ctx.autonaming) return { name: ctx.autonaming.proposedName };
  if (!ctx.logicalName) return {};
  return { name: `${ctx.logicalName}-${suffix(ctx.randomSeed)}` };
}

/** Seven hex characters: derived from the engine's seed when there is one, else random. */
function suffix(seed: Uint8Array | undefined): string {
  const bytes = seed && seed.length > 0 ? createHash("sha256").update(seed).digest() : randomBytes(4);
  return bytes.toString("hex").slice(0, SUFFIX_LENGTH);
}

/**
 * A failure of a name autonaming made, said as such: the program never wrote that name, so the
 * reason alone ("name: …") would point at nothing in it. The fix is the resource's name, or a `name`.
 */
export function generatedNameFailure(reason: string, name: string, ctx: NamingContext): string {
  // the engine proposes names from the resource's name too, by the stack's autonaming pattern
  const from =
    [
      ctx.logicalName === undefined ? undefined : `from the resource's name ${JSON.stringify(ctx.logicalName)}`,
      ctx.autonaming ? "by the stack's autonaming settings" : undefined,
    ]
      .filter((p) => p !== undefined)
      .join(" ") || "by autonaming";
  return `${reason} (the name ${JSON.stringify(name)} was generated ${from}, as no name was set: rename the resource, or set \`name\`)`;
}
