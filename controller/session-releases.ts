/**
 * What authorize-session does differently per Boundary release, as data, each fact with the
 * releases it holds for (read in Boundary's source at each tag). These facts belong in the
 * release table (`wire/release-rows.ts`); until they move there they are looked up by the
 * release's minor.
 */
import { BoundaryError } from "./errors";
import type { Release } from "../wire/releases";
import type { SubjectKeyIdMethod } from "./certificate";
import type { LaterTokenField } from "./session-token";

/** authorize-session's facts for one release. */
export interface SessionRelease {
  /**
   * `SessionAuthorizationData` fields beyond v0.4's that the token carries: `default_client_port`
   * from 0.13.0, `endpoint_port` and `expiration` from 0.15.0.
   */
  tokenFields: readonly LaterTokenField[];
  /** The answer carries `connection_limit`, `endpoint_port` and `expiration` (0.15.0+). */
  answersLimits: boolean;
  /** The session certificate names the workers' addresses in its alternative names (0.8.0+). */
  certificateNamesWorkers: boolean;
  /** How Go made the certificate's subject key id: SHA-1, or truncated SHA-256 from Go 1.25 (0.19.5's toolchain). */
  subjectKeyId: SubjectKeyIdMethod;
  /** Workers are chosen before the host (up to 0.11); from 0.12.0 after it. */
  workersFirst: boolean;
  /**
   * The 404 when the Target has nothing to connect to: "…host sets." in 0.4, "…host sources." in
   * 0.5–0.6, "No endpoint found from available target host sources." in 0.7–0.11, and from 0.12.0
   * "No host sources or address found for given target.".
   */
  noHosts: string;
  /** The answer when no worker is left: `filtered` when the Target's filter removed them all. */
  noWorkers(filtered: boolean): BoundaryError;
}

/**
 * From 0.19.0 the server repository picks workers (`internal/server/repository_worker.go`): its
 * WorkerNotFoundForRequest error (#133, a state violation) is no API error, so the handlers answer
 * it as a 500 with the error's text (`handlers/errors.go`).
 */
function repositoryNoWorkers(filtered: boolean): BoundaryError {
  const select = "server.(Repository).SelectSessionWorkers";
  const cause = filtered
    ? "server.filterWorkers: No workers are available to handle this session, or all have been filtered."
    : "No workers are available to handle this session.";
  return new BoundaryError("Internal", `${select}: ${cause}: state violation: error #133`);
}

/** The minor number of a release (`spec` follows v0.4). */
const minor = (r: Release) => (r.release === "spec" ? 4 : Number(r.release.split(".")[1]));

const FILTERED = "No workers are available to handle this session, or all have been filtered.";

/** authorize-session's facts for a release (`target_service.go`, `internal/session`, `internal/server` at each tag). */
export function sessionRelease(r: Release): SessionRelease {
  const m = minor(r);
  return {
    tokenFields: m >= 15 ? ["endpoint_port", "expiration", "default_client_port"] : m >= 13 ? ["default_client_port"] : [],
    answersLimits: m >= 15,
    certificateNamesWorkers: m >= 8,
    // Go 1.25 (v0.19.5's toolchain) makes the subject key id from SHA-256
    subjectKeyId: m >= 19 ? "sha256-160" : "sha1",
    workersFirst: m < 12,
    noHosts:
      m >= 12
        ? "No host sources or address found for given target."
        : m >= 7
          ? "No endpoint found from available target host sources."
          : m >= 5
            ? "No hosts found from available target host sources."
            : "No hosts found from available target host sets.",
    noWorkers:
      m >= 19
        ? repositoryNoWorkers
        : (filtered) => new BoundaryError("FailedPrecondition", m >= 13 && !filtered ? "No workers are available to handle this session." : FILTERED),
  };
}
