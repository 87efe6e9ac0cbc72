/**
 * `pulumi-boundary doctor --help`: the command's help, from the provider's config table (its
 * environment variables). Loaded only when asked (command.ts).
 */
import { PROVIDER_CONFIG } from "../config";

const env = (k: keyof typeof PROVIDER_CONFIG) => PROVIDER_CONFIG[k].env;

/** The command's help. */
export const DOCTOR_USAGE = `Usage: pulumi-boundary doctor [--scope <project id>] [--stack <name>]

Checks the first connection to a Boundary controller with the provider's settings, one line each,
and stops at the first blocking problem (exit 1). It never writes, but a login (no token given)
makes an auth token on the controller, as \`boundary authenticate\` does: the doctor does not revoke
it, and it stays valid until it expires (the controller's auth_token_time_to_live, 7 days by default).

  1. the settings (the address, and a token or a login)
  2. the address answers and is Boundary's API (TLS, no /v1 suffix, a proxy's path)
  3. the token, or the login with the auth method, works
  4. which release the provider learns, and how
  5. with --scope: that the credentials may list, create, read, update and delete Targets there,
     as Boundary reports them (the scope's authorized_collection_actions, a Target's authorized_actions)
  6. the rate limits the controller advertises
  and what it could not check.

Settings, as the provider reads them when the stack config does not set them:
  ${env("addr")}, and ${env("token")} or a login: ${env("authMethodId")},
  ${env("authMethodLoginName")} and ${env("authMethodPassword")}
  (also BOUNDARY_CACERT, BOUNDARY_TLS_INSECURE, BOUNDARY_CLIENT_TIMEOUT, ${env("apiGeneration")}).
  With --stack, a stack's own config first (boundary:addr, boundary:token, boundary:authMethod…),
  read with \`pulumi config --json --show-secrets\` in the project's folder; secrets are never printed.

  --scope <id>   the project whose Targets the stack manages
  --stack <name> read the provider's settings from this stack's config
  -h, --help     this help
`;
