/**
 * Seed data: the scopes, host sets, credential libraries and workers a Target can refer to. The API
 * here manages Targets only, so everything else comes from a fixtures file (or the default seed).
 */
import { z } from "zod";
import { hostAddressProblem } from "../../common/rules";
import { REFERENTS } from "../../wire/target-fields";
import { aliasValueProblem } from "./aliases";
import { ConfigError } from "../errors";

/** An id with one of these prefixes (`hsst`, `hsplg`) and 10 base62 characters. */
const id = (...prefixes: string[]) =>
  z
    .string()
    .regex(
      new RegExp(`^(${prefixes.join("|")})_[0-9A-Za-z]{10}$`),
      `must look like ${prefixes.map((p) => `${p}_`).join(" or ")} followed by 10 base62 characters`,
    );

const Scope = z
  .object({
    id: z.string().regex(/^(o|p)_[0-9A-Za-z]{10}$/, "must look like o_… or p_… with 10 base62 characters"),
    type: z.enum(["org", "project"]),
    name: z.string().optional(),
    description: z.string().optional(),
    parent_scope_id: z.string(),
  })
  .strict();

/** A host's address: an IP address or a host name (the banner prints it; see hostAddressProblem). */
const HostAddress = z.string().superRefine((address, ctx) => {
  const problem = hostAddressProblem(address);
  if (problem) ctx.addIssue({ code: "custom", message: `${JSON.stringify(address)} ${problem}` });
});

const Host = z.object({ id: id("hst", "hplg"), address: HostAddress }).strict();

/** A static host set (`hsst_`, in an `hcst_` catalog) or a plugin host set (`hsplg_`, `hcplg_`: current releases only). */
const HostSet = z.object({ id: id("hsst", "hsplg"), scope_id: id("p"), host_catalog_id: id("hcst", "hcplg"), hosts: z.array(Host) }).strict();

/** A credential source of the fixtures: its ids, its store's prefix, and the type it has unless given. */
const credentialSource = (ids: string[], store: string, type: string) =>
  z
    .object({
      id: id(...ids),
      scope_id: id("p"),
      credential_store_id: id(store),
      name: z.string().optional(),
      description: z.string().optional(),
      type: z.string().default(type),
      secret: z.record(z.string(), z.unknown()),
    })
    .strict();

/** A Vault credential library (`clvlt_`, in a `csvlt_` store). */
const CredentialLibrary = credentialSource(["clvlt"], "csvlt", "vault");

/**
 * A static credential (current releases only): username/password `credup_`, with domain `credupd_`,
 * password `credp_`, SSH private key `credspk_`, JSON `credjson_`, in a static store `csst_`.
 */
const Credential = credentialSource(["credup", "credupd", "credp", "credspk", "credjson"], "csst", "username_password");

/** A Target alias (Boundary 0.16+): a DNS name in the global scope, pointing to a Target id or nowhere yet. */
const Alias = z
  .object({
    id: id("alt"),
    value: z.string().superRefine((v, ctx) => {
      const problem = aliasValueProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: `${JSON.stringify(v)} ${problem}` });
    }),
    scope_id: z.literal("global").default("global"),
    destination_id: z
      .string()
      .regex(/^ttcp_[0-9A-Za-z]+$/, "must be a target id (ttcp_…)")
      .optional(),
    host_id: id("hst", "hplg").optional(),
  })
  .strict();

/** No control characters (C0, DEL, C1): a name is printed in the banner and the log. */
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const printable = z.string().regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, "must not hold control characters");

const Worker = z.object({ name: printable.min(1), tags: z.record(z.string(), z.array(z.string())).default({}) }).strict();

/** An account of an auth method: its login name and password, and the grant its tokens carry. */
const Account = z.object({ login_name: printable.min(1), password: z.string().min(1), grant: z.enum(["admin", "read-only"]) }).strict();

/** An auth method that logs in with a name and a password (`POST /v1/auth-methods/{id}:authenticate`): password (`ampw_`) or LDAP (`amldap_`, 0.13+). */
const AuthMethod = z.object({ id: id("ampw", "amldap"), scope_id: z.literal("global").default("global"), accounts: z.array(Account).min(1) }).strict();

/** `boundary dev`'s auth method: `admin`/`password` may do everything, `user`/`password` holds the read-only grant. */
export const DEV_AUTH_METHOD_ID = "ampw_1234567890";
const devAuthMethods = (): z.infer<typeof AuthMethod>[] => [
  {
    id: DEV_AUTH_METHOD_ID,
    scope_id: "global",
    accounts: [
      { login_name: "admin", password: "password", grant: "admin" },
      { login_name: "user", password: "password", grant: "read-only" },
    ],
  },
];

/** The fixture arrays this file gives a schema of its own; those of other kinds REFERENTS names take the generic one. */
const TYPED = {
  host_sets: z.array(HostSet).default([]),
  credential_libraries: z.array(CredentialLibrary).default([]),
  credentials: z.array(Credential).default([]),
};

/**
 * A resource of a kind an id list names (REFERENTS) that has no schema of its own here: an id, its
 * project, and the fields a Target's summary of it carries. A new list's resources can be seeded
 * without a change here.
 */
const referent = (kind: keyof typeof REFERENTS) => {
  const carries: Readonly<Record<string, { wire: string }>> = REFERENTS[kind].summary;
  return z
    .object({ id: z.string().regex(/^[a-z]+_[0-9A-Za-z]{10}$/, "must be an id: a prefix, _ and 10 base62 characters"), scope_id: id("p") })
    .extend(Object.fromEntries(Object.values(carries).map((c) => [c.wire, z.string().optional()])))
    .strict();
};
const GENERIC: Record<string, z.ZodDefault<z.ZodArray<ReturnType<typeof referent>>>> = Object.fromEntries(
  (Object.keys(REFERENTS) as (keyof typeof REFERENTS)[]).flatMap((kind) =>
    REFERENTS[kind].fixtures.filter((key) => !(key in TYPED)).map((key) => [key, z.array(referent(kind)).default([])]),
  ),
);

/** A fixtures file: scopes, the resources Targets name, workers and aliases. */
export const Fixtures = z
  .object({
    scopes: z.array(Scope),
    ...GENERIC,
    ...TYPED,
    workers: z.array(Worker).default([]),
    aliases: z.array(Alias).default([]),
    auth_methods: z.array(AuthMethod).default(devAuthMethods),
  })
  .strict();
/** A fixtures file, parsed (defaults filled). */
export type Fixtures = z.infer<typeof Fixtures>;
/** A seeded org or project. */
export type FixtureScope = z.infer<typeof Scope>;
/** A seeded host set and its hosts. */
export type FixtureHostSet = z.infer<typeof HostSet>;
/** A seeded Vault credential library and the secret it brokers. */
export type FixtureCredentialLibrary = z.infer<typeof CredentialLibrary>;
/** A seeded static credential and its secret. */
export type FixtureCredential = z.infer<typeof Credential>;
/** A seeded worker: its name and tags (what worker filters match). */
export type FixtureWorker = z.infer<typeof Worker>;
/** A seeded alias. */
export type FixtureAlias = z.infer<typeof Alias>;
/** A seeded auth method and its accounts. */
export type FixtureAuthMethod = z.infer<typeof AuthMethod>;

/** The id of the user every session is authorized for. */
export const DEV_USER_ID = "u_1234567890";

/** The default seed (documented in docs/controller.md; the examples rely on these ids). */
export function defaultFixtures(): Fixtures {
  return {
    scopes: [
      { id: "o_1234567890", type: "org", name: "Generated org scope", parent_scope_id: "global" },
      { id: "p_1234567890", type: "project", name: "Generated project scope", parent_scope_id: "o_1234567890" },
      { id: "p_0987654321", type: "project", name: "Second project scope", parent_scope_id: "o_1234567890" },
    ],
    host_sets: [
      {
        id: "hsst_1234567890",
        scope_id: "p_1234567890",
        host_catalog_id: "hcst_1234567890",
        hosts: [{ id: "hst_1234567890", address: "127.0.0.1" }],
      },
      {
        id: "hsst_1234567891",
        scope_id: "p_1234567890",
        host_catalog_id: "hcst_1234567890",
        hosts: [
          { id: "hst_1234567891", address: "127.0.0.2" },
          { id: "hst_1234567892", address: "127.0.0.3" },
        ],
      },
      {
        id: "hsplg_1234567890",
        scope_id: "p_1234567890",
        host_catalog_id: "hcplg_1234567890",
        hosts: [{ id: "hplg_1234567890", address: "127.0.0.5" }],
      },
      {
        id: "hsst_0987654321",
        scope_id: "p_0987654321",
        host_catalog_id: "hcst_0987654321",
        hosts: [{ id: "hst_0987654321", address: "127.0.0.4" }],
      },
    ],
    credential_libraries: [
      {
        id: "clvlt_1234567890",
        scope_id: "p_1234567890",
        credential_store_id: "csvlt_1234567890",
        name: "dev database",
        description: "Generated credential library",
        type: "vault",
        secret: { username: "dev", password: "dev-password" },
      },
      {
        id: "clvlt_1234567891",
        scope_id: "p_1234567890",
        credential_store_id: "csvlt_1234567890",
        name: "dev ssh",
        description: "Second generated credential library",
        type: "vault",
        secret: { username: "ops", private_key: "dev-private-key" },
      },
    ],
    credentials: [
      {
        id: "credup_1234567890",
        scope_id: "p_1234567890",
        credential_store_id: "csst_1234567890",
        name: "dev static login",
        description: "Generated static credential (current releases only)",
        type: "username_password",
        secret: { username: "static", password: "static-password" },
      },
    ],
    workers: [{ name: "dev-worker", tags: { type: ["dev"] } }],
    aliases: [],
    auth_methods: devAuthMethods(),
  };
}

/**
 * Parses a fixtures document and checks what zod cannot: unique ids, parents that exist, host sets
 * and libraries in projects. Throws an Error whose message names the path and the rule.
 */
export function parseFixtures(input: unknown): Fixtures {
  const parsed = Fixtures.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`fixtures: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const f = parsed.data;
  const seen = new Set<string>();
  const unique = (what: string, value: string) => {
    if (seen.has(value)) throw new ConfigError(`fixtures: ${what} ${value}: duplicate id`);
    seen.add(value);
  };
  const scopes = new Map(f.scopes.map((s) => [s.id, s]));
  f.scopes.forEach((s, i) => {
    unique(`scopes.${i}.id`, s.id);
    const wantParent = s.type === "org" ? "global" : "an org scope";
    const parent = scopes.get(s.parent_scope_id);
    const ok = s.type === "org" ? s.parent_scope_id === "global" : parent?.type === "org";
    if (!ok) throw new ConfigError(`fixtures: scopes.${i}.parent_scope_id: ${s.parent_scope_id} must be ${wantParent}`);
    if (!s.id.startsWith(s.type === "org" ? "o_" : "p_")) {
      throw new ConfigError(`fixtures: scopes.${i}.id: a ${s.type} id starts with ${s.type === "org" ? "o_" : "p_"}`);
    }
  });
  const inProject = (path: string, scopeId: string) => {
    if (scopes.get(scopeId)?.type !== "project") throw new ConfigError(`fixtures: ${path}: ${scopeId} is not a project scope of the fixtures`);
  };
  f.host_sets.forEach((h, i) => {
    unique(`host_sets.${i}.id`, h.id);
    inProject(`host_sets.${i}.scope_id`, h.scope_id);
    h.hosts.forEach((host, j) => unique(`host_sets.${i}.hosts.${j}.id`, host.id));
  });
  f.credential_libraries.forEach((c, i) => {
    unique(`credential_libraries.${i}.id`, c.id);
    inProject(`credential_libraries.${i}.scope_id`, c.scope_id);
  });
  f.credentials.forEach((c, i) => {
    unique(`credentials.${i}.id`, c.id);
    inProject(`credentials.${i}.scope_id`, c.scope_id);
  });
  f.auth_methods.forEach((m, i) => {
    unique(`auth_methods.${i}.id`, m.id);
    const names = new Set<string>();
    m.accounts.forEach((a, j) => {
      if (names.has(a.login_name)) throw new ConfigError(`fixtures: auth_methods.${i}.accounts.${j}.login_name: ${a.login_name} appears twice`);
      names.add(a.login_name);
    });
  });
  f.aliases.forEach((a, i) => {
    unique(`aliases.${i}.id`, a.id);
    unique(`aliases.${i}.value`, `alias ${a.value.toLowerCase()}`);
  });
  return f;
}
