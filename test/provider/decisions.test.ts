/**
 * The decisions behind "never silently do the wrong thing", as pure functions, without a server:
 * what a failed create proves, whether a found Target is ours, what may be sent again, which
 * changes a conflict retry replays, which fields `ignoreChanges` names, when a replacement must
 * delete first, a controller's defaults by release, the closest input to a misspelt key, and the
 * operation's waits and budgets.
 */
import {
  BoundaryApiError,
  CancelledError,
  DeadlineError,
  NotFoundError,
  Operation,
  SchemaValidationError,
  TimeoutError,
  TransportError,
  UnexpectedAnswerError,
} from "../../provider/client";
import { formatMs } from "../../provider/client/operation";
import { refusedUnprocessed, retryAfterMs, retryableAnswer } from "../../provider/client/retry";
import { closestInput } from "../../provider/resource/inputs";
import { nodeVersionProblem } from "../../provider/node-version";
import { callsFor, changes, diffTarget, ignoredFields, replayChanges, undecidedResets } from "../../provider/resource/plan";
import { createOutcome, creationWindow, isNameTaken, judgeCandidate } from "../../provider/resource/recovery";
import { releasesOf } from "../../provider/resource/generation";
import { RELEASES, RELEASE_KEYS, controllerDefault, release, routesNoun, type Release } from "../../wire/releases";
import { stateFromTarget, type TargetState } from "../../provider/resource/state";
import type { Target } from "../../wire/target";

const T0 = Date.parse("2026-11-23T12:00:00Z");
const target = (over: Partial<Target> = {}): Target =>
  ({
    id: "ttcp_1234567890",
    scope_id: "p_1234567890",
    name: "web",
    type: "tcp",
    version: 1,
    created_time: new Date(T0).toISOString(),
    session_max_seconds: 28800,
    session_connection_limit: 1,
    authorized_actions: ["read", "update", "set-host-sets", "set-credential-libraries"],
    ...over,
  }) as Target;
const state = (over: Partial<Target> = {}, managed: TargetState["__managed"] = ["scopeId", "name"]): TargetState => stateFromTarget(target(over), managed);

describe("what a failed create proves", () => {
  test.each<[string, unknown, string]>([
    ["a refused connection (nothing sent)", new TransportError("POST", "/v1/targets", "ECONNREFUSED", { maybeApplied: false }), "refused"],
    ["a reset after sending", new TransportError("POST", "/v1/targets", "ECONNRESET"), "unknown"],
    ["a timeout after sending", new TimeoutError("POST", "/v1/targets", "no answer"), "unknown"],
    ["the deadline before sending", new DeadlineError("POST", "/v1/targets", "not sent", { maybeApplied: false }), "refused"],
    ["Cancel while in flight", new CancelledError("POST", "/v1/targets", "cancelled"), "unknown"],
    ["Boundary's own error body (a taken name)", new BoundaryApiError("POST", "/v1/targets", 400, "InvalidArgument", "Error in provided request."), "refused"],
    ["Boundary's own 500 body", new BoundaryApiError("POST", "/v1/targets", 500, "Internal", "boom"), "refused"],
    ["a gateway's 502 page", new UnexpectedAnswerError("POST", "/v1/targets", "http://x/v1/targets", 502, "text/html", "<html>"), "unknown"],
    ["an empty 504", new BoundaryApiError("POST", "/v1/targets", 504, "Unknown", "HTTP 504"), "unknown"],
    ["a 429", new BoundaryApiError("POST", "/v1/targets", 429, "Unknown", "HTTP 429"), "refused"],
    [
      "Boundary's rate limiter's 503 (empty, Retry-After)",
      new BoundaryApiError("POST", "/v1/targets", 503, "Unknown", "HTTP 503", [], { "retry-after": "1" }),
      "refused",
    ],
    ["an empty 503 without Retry-After", new BoundaryApiError("POST", "/v1/targets", 503, "Unknown", "HTTP 503"), "unknown"],
    ["a 200 whose body breaks the contract", new SchemaValidationError("POST", "/v1/targets", [{ path: ["id"], message: "expected string" }]), "unknown"],
    ["a bug", new TypeError("x is undefined"), "foreign"],
  ])("%s: %s", (_what, err, outcome) => {
    expect(createOutcome(err)).toBe(outcome);
  });

  test("a taken name is told apart, in our controller's words and in real Boundary's", () => {
    expect(
      isNameTaken(
        new BoundaryApiError("POST", "/v1/targets", 400, "InvalidArgument", "Error in provided request.", [
          { name: "name", description: 'A target named "web" already exists in scope p_1.' },
        ]),
      ),
    ).toBe(true);
    expect(
      isNameTaken(
        new BoundaryApiError(
          "POST",
          "/v1/targets",
          400,
          "InvalidArgument",
          "Invalid request.  Request attempted to make second resource with the same field value that must be unique.",
        ),
      ),
    ).toBe(true);
    expect(
      isNameTaken(
        new BoundaryApiError("POST", "/v1/targets", 400, "InvalidArgument", "Error in provided request.", [
          { name: "name", description: "This field is required." },
        ]),
      ),
    ).toBe(false);
  });
});

describe("whether a Target found after a lost answer is ours", () => {
  const asked = { scope_id: "p_1234567890", name: "web", type: "tcp", description: "mine", host_set_ids: ["hsst_1234567890"] } as never;

  test("the window runs from the lookup's Date minus the time since sending, to the Date's second", () => {
    expect(creationWindow(T0, 1000, 3500)).toEqual({ from: T0 - 2500, to: T0 + 1000 });
    expect(creationWindow(undefined, 1000, 3500)).toBeUndefined();
  });

  test("equal fields, version 1, made within the window: ours (a controller that ignored the lists on create too)", () => {
    const window = { from: T0 - 1000, to: T0 + 1000 };
    expect(judgeCandidate(target({ description: "mine", host_set_ids: ["hsst_1234567890"] }), asked, window)).toEqual({ ours: true });
    expect(judgeCandidate(target({ description: "mine" }), asked, window)).toEqual({ ours: true });
  });

  test("anything else is not ours, with every reason", () => {
    const window = { from: T0 + 5000, to: T0 + 9000 };
    const v = judgeCandidate(target({ description: "theirs", version: 3, host_set_ids: ["hsst_1234567891"] }), asked, window);
    expect(v).toEqual({
      ours: false,
      why: [
        'its description is "theirs", this create asked for "mine"',
        'its hostSetIds is ["hsst_1234567891"], this create asked for ["hsst_1234567890"]',
        "it has been changed since it was made (version 3)",
        "it was made at 2026-11-23T12:00:00.000Z on the controller's clock, 5 s or more before this create was sent",
      ],
    });
    expect(judgeCandidate(target({ description: "mine" }), asked, undefined)).toEqual({
      ours: false,
      why: ["the controller's answers carry no Date header, so when it was made cannot be told on the controller's clock"],
    });
  });
});

describe("what the transport may send again", () => {
  test("only what a rate limiter refused unprocessed, or what is idempotent", () => {
    expect(refusedUnprocessed(429, undefined, "")).toBe(true);
    expect(refusedUnprocessed(503, "1", "")).toBe(true);
    expect(refusedUnprocessed(503, "1", "<html>503</html>")).toBe(false);
    expect(refusedUnprocessed(503, undefined, "")).toBe(false);
    expect(retryableAnswer("POST", 503, undefined, "<html>")).toBe(false);
    expect(retryableAnswer("PATCH", 503, "2", "")).toBe(true);
    expect(retryableAnswer("GET", 503, undefined, "<html>")).toBe(true);
    expect(retryableAnswer("POST", 502, undefined, "")).toBe(false);
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(new Date(T0 + 5000).toUTCString(), T0)).toBe(5000);
  });
});

describe("the plan", () => {
  const program = { scopeId: "p_1234567890", name: "web", description: "new", hostSetIds: ["hsst_1234567890"], sessionMaxSeconds: 28800 };
  const managed: TargetState["__managed"] = ["scopeId", "name", "description", "hostSetIds", "sessionMaxSeconds"];

  test("a conflict retry replays only the planned changes, from what the fresh read holds", () => {
    const planned = changes(state({ description: "old", host_set_ids: ["hsst_1234567890"] }, managed), program);
    expect(planned.map((c) => c.field)).toEqual(["description"]);
    // meanwhile someone attached a host set and changed the session length
    const fresh = state({ description: "old", host_set_ids: ["hsst_1234567890", "hsst_1234567891"], session_max_seconds: 60, version: 4 }, managed);
    expect(callsFor(fresh, replayChanges(fresh, planned))).toEqual([{ op: "update", mask: ["description"], fields: { description: "new" } }]);
    // a planned change the Target already holds is not made again
    expect(replayChanges(state({ description: "new" }, managed), planned)).toEqual([]);
  });

  test("a list sharing its action with another carries the other as the fresh read holds it", () => {
    const base = state(
      { application_credential_library_ids: ["clvlt_1234567890"], injected_application_credential_source_ids: ["credup_1234567890"] } as never,
      ["scopeId", "name", "applicationCredentialLibraryIds"],
    );
    const planned = changes(base, { scopeId: "p_1234567890", name: "web", applicationCredentialLibraryIds: ["clvlt_1234567891"] });
    const [call] = callsFor(base, planned);
    expect(call).toMatchObject({
      op: "set",
      field: "applicationCredentialLibraryIds",
      ids: ["clvlt_1234567891"],
      siblings: [{ field: "injectedApplicationCredentialSourceIds", ids: ["credup_1234567890"] }],
    });
  });

  test("ignoreChanges names top-level inputs, in any of the engine's path forms", () => {
    for (const path of ["hostSetIds", "hostSetIds[0]", "hostSetIds[*]", '["hostSetIds"]']) expect(ignoredFields([path])("hostSetIds")).toBe(true);
    expect(ignoredFields(["hostSetIds"])("description")).toBe(false);
    expect(ignoredFields(["*"])("description")).toBe(true);
    const s = state({ description: "old", host_set_ids: ["hsst_1234567891"] }, managed);
    expect(changes(s, program, { ignoreChanges: ["hostSetIds"] }).map((c) => c.field)).toEqual(["description"]);
  });

  test("deleteBeforeReplace: when the program's name stays in its project, not for autonaming or another project", () => {
    const s = state({}, ["scopeId", "name"]);
    const replaced = { scopeId: "p_1234567890", name: "web", type: "ssh" as const };
    expect(diffTarget(s, replaced)).toMatchObject({ replaces: ["type"], deleteBeforeReplace: true });
    expect(diffTarget(s, replaced, { autonamed: true }).deleteBeforeReplace).toBe(false);
    expect(diffTarget(s, { ...replaced, scopeId: "p_0987654321" }).deleteBeforeReplace).toBe(false);
    expect(diffTarget(s, { ...replaced, name: "web-2" }).deleteBeforeReplace).toBe(false);
    expect(diffTarget(s, { scopeId: "p_1234567890", name: "web" }).deleteBeforeReplace).toBe(false); // no change at all
  });
});

describe("the controller's default, by what is known of its release", () => {
  const keys = (rs: readonly Release[]) => rs.map((r) => r.release);
  /** The releases a Target's recorded actions allow, as the core narrows them. */
  const fromActions = (actions: string[]) => releasesOf({ authorizedActions: actions });
  /** The releases left after the host-set probe: its route gone means 0.11 or later, there means before. */
  const afterProbe = (rs: readonly Release[], gone: boolean) => rs.filter((r) => routesNoun(r, "host-sets") !== gone);

  test("the recorded actions narrow the releases, only by the actions they name", () => {
    expect(keys(fromActions(["read", "set-host-sets", "set-credential-libraries"]))).toEqual(["spec", "0.4", "0.5", "0.6", "0.7", "0.8"]);
    expect(keys(fromActions(["read", "set-host-sources", "set-credential-sources"]))).toEqual(RELEASE_KEYS.slice(RELEASE_KEYS.indexOf("0.7")));
    expect(keys(fromActions(["read", "set-host-sets", "set-host-sources"]))).toEqual(["0.7", "0.8", "0.9", "0.10"]);
    expect(keys(fromActions(["read"]))).toEqual(RELEASE_KEYS);
    expect(keys(afterProbe(fromActions(["read", "set-host-sources"]), true))).toEqual(RELEASE_KEYS.slice(RELEASE_KEYS.indexOf("0.11")));
  });

  test("no recorded action rules out no release, and leaves the answer kept for the Targets' actions in place", () => {
    const among = RELEASES.slice(2);
    expect(releasesOf(undefined, among)).toBe(among);
    expect(releasesOf({ authorizedActions: [] }, among)).toBe(among);
    const recorded = ["read", "set-host-sources"];
    const narrowed = releasesOf({ authorizedActions: recorded }, among);
    expect(keys(narrowed)).toEqual(keys(among).filter((k) => keys(fromActions(recorded)).includes(k)));
    // a step without state (check) between two with it (diff, update): the second finds the first's answer
    releasesOf(undefined, among);
    expect(releasesOf({ authorizedActions: [...recorded] }, among)).toBe(narrowed);
  });

  test("session_connection_limit: 1 before 0.9.1, -1 from then, unknown when the releases hold both", () => {
    expect(controllerDefault("sessionConnectionLimit", fromActions(["set-host-sets", "set-credential-libraries"]))).toEqual({ known: true, value: 1 });
    expect(controllerDefault("sessionConnectionLimit", afterProbe(RELEASES, true))).toEqual({ known: true, value: -1 });
    expect(controllerDefault("sessionConnectionLimit", afterProbe(fromActions(["set-host-sources"]), false))).toEqual({ known: false, candidates: [1, -1] });
    // 0.9 is 0.9.1 (-1) or 0.9.0 (1): a client cannot tell the patch
    expect(controllerDefault("sessionConnectionLimit", [release("0.9")])).toEqual({ known: false, candidates: [-1, 1] });
    expect(controllerDefault("sessionConnectionLimit", [release("0.10")])).toEqual({ known: true, value: -1 });
    expect(controllerDefault("sessionMaxSeconds")).toEqual({ known: true, value: 28800 });
  });

  test("a removed field at a default the releases do not decide is still a reset (the controller applies its own), and worth one probe", () => {
    const s = state({ session_connection_limit: 1, authorized_actions: ["read", "set-host-sources"] }, ["scopeId", "name", "sessionConnectionLimit"]);
    const news = { scopeId: "p_1234567890", name: "web" };
    const releases = releasesOf(s);
    expect(undecidedResets(s, news, { releases })).toEqual(["sessionConnectionLimit"]);
    expect(changes(s, news, { releases })).toMatchObject([{ field: "sessionConnectionLimit", kind: "delete", unknown: true }]);
    expect(changes(s, news, { releases: afterProbe(releases, false) })).toHaveLength(1);
    expect(
      changes(state({ session_connection_limit: 1 }, ["scopeId", "name", "sessionConnectionLimit"]), news, {
        releases: fromActions(["set-host-sets", "set-credential-libraries"]),
      }),
    ).toEqual([]);
  });
});

test("a misspelt key's closest input, and none when nothing is close", () => {
  expect(closestInput("hostSetId")).toBe("hostSetIds");
  expect(closestInput("host_set_ids")).toBe("hostSetIds");
  expect(closestInput("descripton")).toBe("description");
  expect(closestInput("colour")).toBeUndefined();
});

describe("the operation's waits", () => {
  const req = { method: "GET", path: "/v1/targets/ttcp_1" };

  test("a wait past the deadline fails at once, naming why; nothing was sent", async () => {
    const op = new Operation({ timeoutMs: 1000, source: "customTimeouts read 1s" });
    const started = Date.now();
    const err = await op.wait(3_600_000, req, () => "the window resets in 60 min").catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(50);
    expect(err).toBeInstanceOf(DeadlineError);
    expect(err).toMatchObject({
      maybeApplied: false,
      message: "GET /v1/targets/ttcp_1: not sent: the window resets in 60 min, which is after this operation's deadline (customTimeouts read 1s)",
    });
  });

  test("Cancel ends a wait at once, and any later request fails before it is sent", async () => {
    const cancel = new AbortController();
    const op = new Operation({ signal: cancel.signal });
    const waiting = op.wait(60_000, req, () => "pacing").catch((e: unknown) => e);
    cancel.abort();
    expect(await waiting).toBeInstanceOf(CancelledError);
    expect(() => op.ensureActive(req)).toThrow("cancelled before it was sent");
  });

  test("a step run reserving time leaves it for finding out what happened; after a Cancel only the grace", () => {
    const op = new Operation({ timeoutMs: 3000 });
    expect(op.deadline - op.reserving(1000).deadline).toBeCloseTo(750, -1);
    expect(op.afterwards(1000).remaining()).toBeGreaterThan(2900);
    expect(op.afterwards(1000, 500).remaining()).toBeLessThanOrEqual(500);
    const cancel = new AbortController();
    const cancelled = new Operation({ timeoutMs: 60_000, signal: cancel.signal });
    cancel.abort();
    expect(cancelled.afterwards(1000).remaining()).toBeLessThanOrEqual(1000);
    expect(cancelled.afterwards(1000).cancelled).toBe(false);
  });

  test("durations in messages", () => {
    expect([formatMs(400), formatMs(1500), formatMs(3_600_000), formatMs(4e9)]).toEqual(["400 ms", "1.5 s", "60 min", "46 days"]);
  });
});

test("the Node.js check", () => {
  expect(nodeVersionProblem("20.20.2")).toBe("pulumi-boundary needs Node.js 22 or later; this is Node.js 20.20.2.");
  expect(nodeVersionProblem("22.0.0")).toBeUndefined();
});

test("only Boundary's own NotFound body is a NotFoundError", () => {
  expect(new UnexpectedAnswerError("GET", "/v1/targets/x", "http://h/boundary/v1/targets/x", 404, "text/plain", "404 page not found")).not.toBeInstanceOf(
    NotFoundError,
  );
});
