/**
 * The Target resource provider: check, diff, create, read, update, delete. It runs inside Pulumi's
 * dynamic-provider host (loaded by the thin proxy in `resource.ts`) and in tests. Decisions come
 * from `plan.ts`; this file only sequences API calls and turns their outcome into Pulumi state.
 *
 * Contract (as Pulumi's dynamic providers): create is all-or-recorded (a Target that exists is
 * never lost: a later failure is reported as a partial failure carrying its id and state); a failed
 * delete means the Target still exists; read answers an empty id when the Target is gone.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Target } from "../../wire/target";
import { BoundaryClient, NotFoundError, TransportError, VersionConflictError, type BoundaryClientOptions } from "../client";
import { PlanError, applyPlan } from "./apply";
import { INPUT_FIELDS, checkInputs, type TargetInputs } from "./inputs";
import { createRequest, diffTarget, planUpdate, sameValue, type Call } from "./plan";
import { inputsFromState, managedFields, stateFromTarget, type TargetState } from "./state";

/**
 * What the provider host turns into a partial failure (`ErrorResourceInitFailed`): the engine
 * records the resource with this id and these properties, and shows `reasons`.
 */
export class ResourceInitError extends Error {
  override readonly name = "ResourceInitError";
  constructor(
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[],
  ) {
    super(reasons.join("; "));
  }
}

function describe(call: Call): string {
  return call.op === "update" ? `updating ${call.mask.join(", ")}` : call.op === "set-host-sets" ? "setting host sets" : "setting credential libraries";
}

export class TargetProvider implements pulumi.dynamic.ResourceProvider {
  private options: BoundaryClientOptions;
  private clientInstance: BoundaryClient | undefined;
  /** Warnings reach the engine through the host's stderr; never pass a secret. */
  warn: (message: string) => void = (m) => process.stderr.write(`warning: ${m}\n`);

  constructor(options: BoundaryClientOptions = {}) {
    this.options = options;
  }

  /** Stack config `boundary:addr` / `boundary:token` (secret); unset keys fall back to BOUNDARY_ADDR / BOUNDARY_TOKEN. */
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    const addr = req.config.get("boundary:addr");
    const token = req.config.get("boundary:token");
    this.options = { ...this.options, addr: addr || this.options.addr, token: token || this.options.token };
    // a client made before configure would talk to the wrong controller: close it, make a new one
    await this.clientInstance?.close();
    this.clientInstance = undefined;
  }

  /** The API client, made at the first call so the environment is read at call time. */
  get client(): BoundaryClient {
    return (this.clientInstance ??= new BoundaryClient(this.options));
  }

  async check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
    return checkInputs(news);
  }

  async diff(_id: string, olds: TargetState, news: TargetInputs): Promise<pulumi.dynamic.DiffResult> {
    const d = diffTarget(olds, news);
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
  }

  async create(inputs: TargetInputs & { __provider?: string }): Promise<pulumi.dynamic.CreateResult> {
    const managed = managedFields(inputs);
    const started = Date.now();
    let created: Target;
    try {
      created = await this.client.createTarget(createRequest(inputs));
    } catch (err) {
      // The connection failed: the controller may have created the Target before the answer was
      // lost. Names are unique per project, so look for it rather than leave an orphan behind.
      if (!(err instanceof TransportError)) throw err;
      const found = await this.findJustCreated(inputs, started);
      if (!found) throw err;
      this.warn(`creating target ${JSON.stringify(inputs.name)}: ${err.message}; it was created as ${found.id} and is recorded in the stack.`);
      created = found;
    }
    let state = stateFromTarget(created, managed);
    // Lists the POST did not apply (real Boundary v0.4 ignores them on create) are set now.
    try {
      const last = await applyPlan(this.client, created.id, created.version, planUpdate(state, inputs));
      if (last) state = stateFromTarget(last, managed);
    } catch (err) {
      if (!(err instanceof PlanError)) throw err;
      if (err.last) state = stateFromTarget(err.last, managed);
      throw new ResourceInitError(created.id, { ...state, __provider: inputs.__provider }, [
        `target ${created.id} was created, but ${describe(err.failedCall)} failed: ${err.message}. ` +
          "It is recorded in the stack; the next `pulumi up` finishes it, `pulumi destroy` removes it.",
      ]);
    }
    return { id: created.id, outs: state };
  }

  /** A Target with this name in this project, created since `since` (minus clock skew), or undefined. */
  private async findJustCreated(inputs: TargetInputs, since: number): Promise<Target | undefined> {
    const SKEW_MS = 5 * 60_000;
    const [match] = (await this.client.listTargets({ scopeId: inputs.scopeId, filter: `"/item/name" == ${JSON.stringify(inputs.name)}` })).filter(
      (t) => t.name === inputs.name && t.created_time !== undefined && Date.parse(t.created_time) >= since - SKEW_MS,
    );
    return match;
  }

  async read(id: string, props: Partial<TargetState> & { __provider?: string }): Promise<pulumi.dynamic.ReadResult> {
    let target;
    try {
      target = await this.client.getTarget(id);
    } catch (err) {
      if (err instanceof NotFoundError) return { id: "" };
      throw err;
    }
    // With no state of ours (an import), every field the controller shows becomes an input.
    const imported = !Array.isArray(props?.__managed);
    const state = stateFromTarget(target, []);
    state.__managed = imported ? managedFields(inputsFromState(state, true)) : props.__managed!;
    return { id: target.id, props: state, inputs: inputsFromState(state) };
  }

  async update(id: string, olds: TargetState, news: TargetInputs & { __provider?: string }): Promise<pulumi.dynamic.UpdateResult> {
    const managed = managedFields(news);
    let last;
    try {
      last = await applyPlan(this.client, id, olds.version, planUpdate(olds, news));
    } catch (err) {
      if (!(err instanceof PlanError && err.cause instanceof VersionConflictError)) throw this.partial(id, err, managed, news);
      last = await this.retryFromFresh(id, err.last ? stateFromTarget(err.last, olds.__managed) : olds, news, managed);
    }
    return { outs: last ? stateFromTarget(last, managed) : { ...olds, __managed: managed } };
  }

  async delete(id: string): Promise<void> {
    try {
      await this.client.deleteTarget(id);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }

  /**
   * The Target changed outside Pulumi since it was last read (its version moved). Re-read it, say
   * which fields changed, and retry once from the fresh version. The new plan touches only fields
   * the program sets, so outside changes to other fields are kept.
   */
  private async retryFromFresh(id: string, known: TargetState, news: TargetInputs & { __provider?: string }, managed: TargetState["__managed"]) {
    const current = await this.client.getTarget(id);
    const fresh = stateFromTarget(current, known.__managed);
    const outside = INPUT_FIELDS.filter((f) => !sameValue(known[f], fresh[f]));
    this.warn(
      `target ${id} was changed outside Pulumi (version ${known.version} → ${fresh.version}` +
        `${outside.length ? `; changed: ${outside.join(", ")}` : ""}); retrying once from the current version.`,
    );
    try {
      return (await applyPlan(this.client, id, fresh.version, planUpdate(fresh, news))) ?? current;
    } catch (err) {
      throw this.partial(id, err, managed, news);
    }
  }

  /** A failure after some calls succeeded is recorded as what the controller now holds. */
  private partial(id: string, err: unknown, managed: TargetState["__managed"], news: { __provider?: string }): unknown {
    if (!(err instanceof PlanError)) return err;
    if (!err.last) return err.cause;
    const state = stateFromTarget(err.last, managed);
    return new ResourceInitError(id, { ...state, __provider: news.__provider }, [`updating target ${id}: ${describe(err.failedCall)} failed: ${err.message}`]);
  }
}
