/**
 * The Pulumi CLI's `pulumi do` as it drives a provider (pkg/cmd/pulumi/do/ in pulumi/pulumi; see
 * shared/reference/pulumi-do-and-list.md), replayed over gRPC against the plugin: Configure only
 * (no CheckConfig) with every unset key as null, one URN for every stateless operation
 * (`…::boundary:index:Target::Target`), and each command's exact sequence of calls.
 */
import { engine, secret, type Engine } from "../../harness/engine";
import type { Host } from "../../harness/provider-host";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";

/** The URN every stateless operation uses: stack dev, project default, the type's member name. */
export const DO_URN = "urn:pulumi:dev::default::boundary:index:Target::Target";
/** The type `pulumi do boundary:index:Target …` names. */
export const TARGET_TYPE = "boundary:index:Target";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- decoded Structs, read field by field
type Obj = Record<string, any>;

/** One List call's stream, decoded: results, the last continuation token, whether it said Computed. */
export interface ListPage {
  results: { id: string; name: string }[];
  continuation: string | undefined;
  computed: boolean;
}

/** `pulumi do`'s commands, as the CLI sends them. */
export interface PulumiDo {
  engine: Engine;
  /** Configure as `configureProvider` sends it: each key given by a flag, every other key null (its variable the text "null"). */
  configure(flags?: { addr?: string; token?: string; apiGeneration?: string }): Promise<void>;
  /** `create`: Check (no seed, no autonaming, logical name Target) then Create with Check's inputs; throws on failures. */
  create(inputs: Obj): Promise<{ id: string; props: Obj }>;
  /** `read <id>`: Read with empty properties and inputs; undefined when not found (no id or no properties). */
  read(id: string): Promise<{ id: string; props: Obj; inputs: Obj } | undefined>;
  /** `patch <id>`: Read, the flags overlaid on its inputs, Check, Diff, then Update whatever Diff said. */
  patch(id: string, overlay: Obj): Promise<{ diff: Awaited<ReturnType<Engine["diff"]>>; props: Obj }>;
  /** `upsert <id>`: Read; not found: the create path; found: Check with the given inputs only, Diff, Update. */
  upsert(id: string, inputs: Obj): Promise<{ id: string; props: Obj }>;
  /** `delete <id>`: Read (not found: an error), then Delete with what Read returned. */
  delete(id: string): Promise<void>;
  /** One List call. */
  list(query: Obj, options?: { limit?: number; pageSize?: number; token?: string; type?: string }): Promise<ListPage>;
  /** `list --all`: limit 0, following tokens until an empty one; every page's size too. */
  listAll(query: Obj, options?: { pageSize?: number; between?: (page: number) => Promise<void> }): Promise<{ ids: string[]; names: string[]; pages: number[] }>;
  /** `list --count n`: limit n − results so far on every call, stop at n; the limits sent too. */
  listCount(query: Obj, n: number): Promise<{ ids: string[]; limits: number[] }>;
}

/** `pulumi do` against a started plugin process. */
export function pulumiDo(host: Host): PulumiDo {
  const e = engine(host, DO_URN);
  const proto = host.proto as typeof pb;
  const check = async (news: Obj, olds: Obj = {}) => {
    const c = await e.check(news, olds, { name: "Target" });
    if (c.failures.length > 0) throw new Error(`resource inputs failed validation: ${c.failures.map((f) => `- ${f.property}: ${f.reason}`).join(" ")}`);
    return c.inputs;
  };
  const read = async (id: string) => {
    const r = await e.read(id, {}, { inputs: {} });
    return r.id === "" || Object.keys(r.props).length === 0 ? undefined : r;
  };
  const create = async (inputs: Obj) => e.create(await check(inputs));
  const list = async (query: Obj, options: { limit?: number; pageSize?: number; token?: string; type?: string } = {}): Promise<ListPage> => {
    const r = new proto.ListRequest();
    r.setToken(options.type ?? TARGET_TYPE);
    r.setQuery(host.toStruct(query));
    r.setLimit(options.limit ?? 0);
    r.setPageSize(options.pageSize ?? 0);
    r.setContinuationToken(options.token ?? "");
    const page: ListPage = { results: [], continuation: undefined, computed: false };
    for (const m of await host.stream<pb.ListResponse>("list", r)) {
      if (m.hasResult()) page.results.push({ id: m.getResult()!.getId(), name: m.getResult()!.getName() });
      else if (m.hasContinuation()) page.continuation = m.getContinuation()!.getContinuationToken();
      else if (m.hasComputed()) page.computed = true;
    }
    return page;
  };
  return {
    engine: e,
    async configure(flags = {}) {
      const args: Obj = { addr: flags.addr ?? null, token: flags.token === undefined ? null : secret(flags.token), apiGeneration: flags.apiGeneration ?? null };
      const variables: Record<string, string> = {};
      for (const key of ["addr", "token", "apiGeneration"] as const) variables[`boundary:config:${key}`] = flags[key] ?? "null";
      await e.configure(args, variables);
    },
    create,
    read,
    async patch(id, overlay) {
      const r = await read(id);
      if (!r) throw new Error(`resource "${id}" was not found`);
      const news = await check({ ...r.inputs, ...overlay }, r.inputs);
      const diff = await e.diff(r.id, r.props, news, { oldInputs: r.inputs });
      return { diff, props: await e.update(r.id, r.props, news, { oldInputs: r.inputs }) };
    },
    async upsert(id, inputs) {
      const r = await read(id);
      if (!r) return create(inputs);
      const news = await check(inputs, r.inputs);
      await e.diff(r.id, r.props, news, { oldInputs: r.inputs });
      return { id: r.id, props: await e.update(r.id, r.props, news, { oldInputs: r.inputs }) };
    },
    async delete(id) {
      const r = await read(id);
      if (!r) throw new Error(`resource "${id}" was not found`);
      await e.delete(r.id, r.props);
    },
    list,
    async listAll(query, options = {}) {
      const out = { ids: [] as string[], names: [] as string[], pages: [] as number[] };
      for (let token = "", n = 0; ; n++) {
        const page = await list(query, { limit: 0, pageSize: options.pageSize, token });
        out.ids.push(...page.results.map((r) => r.id));
        out.names.push(...page.results.map((r) => r.name));
        out.pages.push(page.results.length);
        token = page.continuation ?? "";
        if (!token) return out;
        await options.between?.(n);
      }
    },
    async listCount(query, n) {
      const out = { ids: [] as string[], limits: [] as number[] };
      for (let token = ""; ;) {
        const limit = n - out.ids.length;
        out.limits.push(limit);
        const page = await list(query, { limit, token });
        out.ids.push(...page.results.map((r) => r.id));
        token = page.continuation ?? "";
        if (!token || out.ids.length >= n) {
          out.ids = out.ids.slice(0, n);
          return out;
        }
      }
    },
  };
}
