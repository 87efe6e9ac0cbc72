/**
 * What authorize-session does differently per Boundary release, as data: one row per emulation,
 * each fact with the releases it holds for (read in Boundary's source at each tag). These rows
 * belong in the release table; until it exists they are keyed by the profile's `emulation`.
 */
import { BoundaryError } from "./errors";
import type { Emulation } from "./emulation";
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
  /** How Go made the certificate's subject key id: SHA-1 up to 0.19.x, truncated SHA-256 from 0.20.0 (Go 1.25). */
  subjectKeyId: SubjectKeyIdMethod;
  /** Workers are chosen before the host (up to 0.18.x); from 0.19.0 after it, in the server repository. */
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

/** Up to 0.18.x the handler answers 400 FailedPrecondition itself, whether there were workers or not. */
const handlerNoWorkers = () => new BoundaryError("FailedPrecondition", "No workers are available to handle this session, or all have been filtered.");

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

/** v0.4.0 (`internal/servers/controller/handlers/targets/target_service.go`, `internal/session`). */
const V04: SessionRelease = {
  tokenFields: [],
  answersLimits: false,
  certificateNamesWorkers: false,
  subjectKeyId: "sha1",
  workersFirst: true,
  noHosts: "No hosts found from available target host sets.",
  noWorkers: handlerNoWorkers,
};

/** v0.21.3 (`internal/daemon/controller/handlers/targets/target_service.go`, `internal/session`, `internal/server`). */
const V021: SessionRelease = {
  tokenFields: ["endpoint_port", "expiration", "default_client_port"],
  answersLimits: true,
  certificateNamesWorkers: true,
  subjectKeyId: "sha256-160",
  workersFirst: false,
  noHosts: "No host sources or address found for given target.",
  noWorkers: repositoryNoWorkers,
};

/** authorize-session's facts per emulation; the spec's controller follows v0.4. */
export const SESSION_RELEASES: Readonly<Record<Emulation, SessionRelease>> = { spec: V04, "0.4": V04, "0.21": V021 };
