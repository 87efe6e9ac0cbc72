// Two Boundary Targets on the local controller's seeded project, and one authorized session.
// Run it with `npm run demo` from the repository root, or with `pulumi up` in this folder
// (see the README: Configuration and Examples).
import * as pulumi from "@pulumi/pulumi";
import * as boundary from "pulumi-boundary";

const config = new pulumi.Config();
const projectId = config.get("projectId") ?? "p_1234567890";

const web = new boundary.Target("web", {
  scopeId: projectId,
  name: "web",
  description: "Web servers, over SSH",
  hostSetIds: ["hsst_1234567891"],
  defaultPort: 22,
  sessionConnectionLimit: -1,
});

const db = new boundary.Target("db", {
  scopeId: projectId,
  name: "db",
  description: "The database, with brokered credentials",
  hostSetIds: ["hsst_1234567890"],
  applicationCredentialLibraryIds: ["clvlt_1234567890"],
  defaultPort: 5432,
  sessionMaxSeconds: 3600,
});

// Each evaluation authorizes a real session (at every preview and up): fine for a demo, not for a lookup.
const session = boundary.authorizeSession({ targetId: db.id });

/** The web Target's id (`ttcp_…`), as Boundary assigned it. */
export const webId = web.id;
/** The database Target's id. */
export const dbId = db.id;
/** The database Target's `version`: it goes up by one with every change Boundary applies to it. */
export const dbVersion = db.version;
/** Where a client connects for the authorized session (`tcp://host:port`). */
export const dbEndpoint = session.endpoint;
/** The credentials brokered for the session: a secret, shown as [secret] by `pulumi stack output`. */
export const dbCredentials = session.credentials;
