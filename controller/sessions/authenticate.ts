/**
 * `POST /v1/auth-methods/{id}:authenticate` as each release judges and answers it (handlers/authmethods:
 * validateAuthenticateRequest, then the subtype's validateAuthenticate…Request, then the auth method's
 * lookup, then the login; convertToAuthenticateResponse). The release's facts are the table's
 * `authenticate` column. Knows no HTTP: the route only hands the body over.
 */
import type { Release } from "../../wire/releases";
import type { RequestField } from "../../wire/target";
import { ControllerFault, invalidFields, notFound } from "../errors";
import type { AuthTokens, IssuedToken } from "./auth-tokens";

/** Boundary's words for every 400 of the authenticate action. */
const INVALID = "Invalid fields provided in request.";
const REQUIRED = "This is a required field.";

/** The auth method subtypes Boundary knows by prefix: name-and-password ones, and OIDC (a browser's). */
const SUBTYPES = ["ampw", "amldap", "amoidc"] as const;

const text = (v: unknown): string => (typeof v === "string" ? v : "");
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Judges an authenticate request and logs in: the issued token's answer, or the release's error
 * (400 naming the fields, 404 for an auth method not seeded, 401 "Unable to authenticate.").
 */
export function authenticate(release: Release, tokens: AuthTokens, authMethodId: string, body: unknown): Record<string, unknown> {
  const facts = release.authenticate;
  const prefix = authMethodId.slice(0, authMethodId.indexOf("_"));
  // an LDAP id before 0.13 is a prefix the release does not know
  const known = prefix === "amoidc" || (SUBTYPES.includes(prefix as never) && facts.methods.includes(prefix as "ampw" | "amldap"));
  if (!authMethodId.trim()) throw invalidFields([{ name: "auth_method_id", description: REQUIRED }], INVALID);
  if (!known) throw invalidFields([{ name: "auth_method_id", description: "Unknown auth method type." }], INVALID);
  const req = isObject(body) ? body : {};
  let attrs = req.attributes;
  // 0.4–0.6: the deprecated `credentials` stands in for absent attributes (reserved, so discarded, from 0.7)
  if (attrs === undefined && facts.credentials) attrs = req.credentials;
  const command = text(req.command) || "login";
  const tokenType = (facts.type ? text(req.type) : "") || text(req.token_type);
  const bad: RequestField[] = [];
  if (prefix === "amoidc") {
    // OIDC logs in through a browser: start, then callback; a name and password are no command of it
    if (!["start", "callback", "token"].includes(command)) bad.push({ name: "command", description: "Invalid command for this auth method type." });
  } else if (!isObject(attrs)) bad.push({ name: "attributes", description: REQUIRED });
  else {
    if (!text(attrs.login_name)) bad.push({ name: "attributes.login_name", description: REQUIRED });
    if (!text(attrs.password)) bad.push({ name: "attributes.password", description: REQUIRED });
    if (command !== "login") bad.push({ name: "command", description: "Invalid command for this auth method type." });
    const t = tokenType.trim().toLowerCase();
    if (t !== "" && t !== "token" && t !== "cookie") bad.push({ name: "token_type", description: 'The only accepted types are "token" and "cookie".' });
  }
  if (bad.length > 0) throw invalidFields(bad, INVALID);
  if (!tokens.has(authMethodId)) throw notFound();
  if (prefix === "amoidc" || !isObject(attrs)) throw notFound();
  const issued = tokens.login(authMethodId, text(attrs.login_name), text(attrs.password));
  if (!issued) throw new ControllerFault("Unauthenticated", "Unable to authenticate.");
  return { command, attributes: tokenView(issued), ...(facts.type && tokenType ? { type: tokenType } : {}) };
}

/** An auth token as the API renders it (api/authtokens AuthToken). */
export function tokenView(t: IssuedToken): Record<string, unknown> {
  const time = (ms: number) => new Date(ms).toISOString();
  return {
    id: t.id,
    scope_id: "global",
    scope: { id: "global", type: "global", name: "global", description: "Global Scope" },
    token: t.token,
    user_id: t.userId,
    auth_method_id: t.authMethodId,
    account_id: t.accountId,
    created_time: time(t.created),
    updated_time: time(t.created),
    approximate_last_used_time: time(t.created),
    expiration_time: time(t.expires),
    // authtokens IdActions as each grant holds them
    authorized_actions: t.grant === "admin" ? ["no-op", "read", "read:self", "delete", "delete:self"] : ["read:self", "delete:self"],
  };
}
