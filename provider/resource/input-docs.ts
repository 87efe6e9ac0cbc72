/**
 * GENERATED from the field table (wire/target-fields.ts) by scripts/generate/input-docs.ts; do not edit:
 * run `npm run generate` (test/wire/generated.test.ts fails while this file is stale).
 *
 * Each input's doc, as TSDoc on a property of its own: TargetArgs maps over this interface, so an
 * editor shows the field's doc on hover (a type computed from the table alone carries none).
 */

/** The Target's inputs, each with its doc; the values' types are TargetArgs'. */
export interface TargetInputDocs {
  /**
   * Project scope (`p_…`); changing it **replaces** the Target (created in the new project before the
   * old one is deleted)
   */
  scopeId: unknown;
  /**
   * Unique per project. Left out, the provider names the Target after the resource, `web-3f9a2c1`
   * (Pulumi's autonaming, honouring the stack's autonaming settings): stable across updates, fresh on a
   * replacement, so create-before-delete never meets the old name. A name you set is used verbatim: a
   * replacement that keeps it in its project deletes the old Target first (Diff says so); `pulumi up
   * --replace`, which asks no Diff, needs the `deleteBeforeReplace: true` option
   */
  name?: unknown;
  /**
   * Description.
   */
  description?: unknown;
  /**
   * `"tcp"` is the default; `"ssh"` (**Boundary 0.10+**) and `"rdp"` (**0.20+**) where the controller
   * offers them (HCP and Enterprise: an open-source controller answers "Unknown type provided.", passed
   * on naming the field); changing it **replaces** the Target
   */
  type?: unknown;
  /**
   * `hsst_…`, and on current controllers plugin host sets `hsplg_…` (`hs_…` before 0.10); a set (order
   * never causes a diff); reconciled with `:set-host-sets`, or `:set-host-sources` (`host_source_ids`)
   * on current controllers
   */
  hostSetIds?: unknown;
  /**
   * Brokered sources: `clvlt_…`, and on current controllers `clvllt_…` and static credentials
   * (`credup_…`, `credupd_…`, `credp_…`, `credspk_…`, `credjson_…`); a set; reconciled with
   * `:set-credential-libraries`, or `:set-credential-sources` on current controllers (one call carrying
   * both credential lists)
   */
  applicationCredentialLibraryIds?: unknown;
  /**
   * Boundary 0.10 and later. Credential sources the worker injects into the session (`clvlt_…`,
   * `clvsclt_…`, `clvllt_…`, `credup_…`, `credupd_…`, `credspk_…`); a set; changed in the same
   * `:set-credential-sources` as the brokered list, so neither ever clears the other. HCP and
   * Enterprise, on ssh and rdp Targets: an open-source controller refuses any on a tcp Target (its 500
   * is passed on)
   */
  injectedApplicationCredentialSourceIds?: unknown;
  /**
   * > 0; controller default 28800
   */
  sessionMaxSeconds?: unknown;
  /**
   * -1 (unlimited) or > 0
   */
  sessionConnectionLimit?: unknown;
  /**
   * Boundary filter expression, checked before any API call. Replaced by `egressWorkerFilter` in 0.12: a
   * current controller keeps and updates an existing one, but a new one is refused before any call,
   * pointing to `egressWorkerFilter`; excludes the two newer filters
   */
  workerFilter?: unknown;
  /**
   * Boundary 0.12 and later. Filter expression selecting the workers that reach the host
   */
  egressWorkerFilter?: unknown;
  /**
   * Boundary 0.12 and later. HCP and Enterprise: an open-source controller refuses any (its 400 is
   * passed on, naming the field)
   */
  ingressWorkerFilter?: unknown;
  /**
   * Boundary 0.12 and later. Host name or IP address (IPv6 without brackets), no port (`defaultPort`
   * carries it); excludes `hostSetIds` (checked before any call)
   */
  address?: unknown;
  /**
   * The tcp `attributes.default_port`, 1–65535; required by Boundary 0.9 and later
   */
  defaultPort?: unknown;
  /**
   * Boundary 0.13 and later. `attributes.default_client_port`, the local port `boundary connect` listens
   * on, 1–65535
   */
  defaultClientPort?: unknown;
}
