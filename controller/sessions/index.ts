/**
 * authorize-session's room: the sessions the controller has authorized (`sessions.ts`), the
 * certificate each carries (`certificate.ts`), the token Boundary's client decodes
 * (`session-token.ts`, in `base58.ts`) and the heap that forgets them at expiry (`expiry-heap.ts`).
 */
export { DEFAULT_MAX_SESSIONS, DEV_WORKER_ADDRESS, Sessions, type Session } from "./sessions";
