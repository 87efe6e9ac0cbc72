/**
 * `pulumi-boundary import --help`: the command's help, from the provider's config table (its keys
 * and environment variables) and the release table. Loaded only when asked (command.ts).
 */
import { PACKAGE, PROVIDER_CONFIG } from "../config";
import { OLDEST } from "../../wire/releases";

const config = (k: keyof typeof PROVIDER_CONFIG) => `${PACKAGE}:${k}`;

/** The command's help. */
export const IMPORT_USAGE = `Usage: pulumi-boundary import (--scope <id> [--recursive] [--filter <expr>] | --from-terraform <file> [--live]) [options]

Writes Pulumi's bulk-import file for Boundary Targets made outside Pulumi; then
\`pulumi import --file targets.json\` adopts them (plugin route) and writes the program.
It only reads: nothing on the controller is created, changed or deleted.

From a live scope (every release from ${OLDEST.release} to the newest; pages and rate limits as the provider):
  --scope <id>            a project (p_…); global or an org (o_…) with --recursive
  --recursive             every project below the scope (Targets live in projects)
  --filter <expr>         Boundary's filter, e.g. '"/item/name" matches "^web"'
  Address and token as the provider's: ${PROVIDER_CONFIG.addr.env} and ${PROVIDER_CONFIG.token.env} (also BOUNDARY_CACERT,
  BOUNDARY_TLS_INSECURE, BOUNDARY_CLIENT_TIMEOUT, BOUNDARY_RATE_LIMIT). A stack's settings are its
  config keys ${config("addr")} and ${config("token")}:
    export ${PROVIDER_CONFIG.addr.env}=$(pulumi config get ${config("addr")}) ${PROVIDER_CONFIG.token.env}=$(pulumi config get ${config("token")})
  Or, without a token, it logs in as the provider does: ${PROVIDER_CONFIG.authMethodId.env},
  ${PROVIDER_CONFIG.authMethodLoginName.env} and ${PROVIDER_CONFIG.authMethodPassword.env}.

From Terraform (terraform-provider-boundary):
  --from-terraform <file> a state file, format version 4 (\`terraform state pull > terraform.tfstate\`):
                          every boundary_target instance, count and for_each keys included,
                          in the state of every terraform-provider-boundary release
  --live                  also read each Target from the controller (address and token as for --scope)
                          and write its values: each attribute where the state differs is named on
                          stderr, and a Target the controller no longer has is named and left out
  An attribute this provider has no input for is reported on stderr by name, and left as it is.
  The state's other boundary_* resources (host catalogs, credential stores, aliases, …) stay in
  Terraform: the summary counts them by type.

Output:
  --format json           the bulk-import file (the default and only format)
  --out <file>            write it to <file> (default: standard output)
  --program ts            also write a TypeScript program declaring each Target with its inputs and
                          the \`import\` option, on the plugin route: \`pulumi package add <path to
                          pulumi-boundary>\` generates its package, pulumi-boundary-sdk (the dynamic
                          route's resources cannot be imported). \`pulumi up\` adopts them; the next
                          preview shows no changes. With --scope, each Target is read once more.
  --program-out <file>    where the program goes (default: targets.ts)
  -h, --help              this help

Names: a Terraform instance is named after its address (module.net.boundary_target.web["eu"] →
net-web-eu); a Target of a scope listing by its name, prefixed with its project's name (or id)
when the listing can span projects (--recursive, or an org or global scope), since Boundary's names
are unique per project only. Two Targets that would still share a name both get their id appended.
The output is sorted by name: the same estate gives the same file.
A summary goes to stderr: how many Targets, from which projects, what was skipped and why.
`;
