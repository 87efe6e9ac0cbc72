/**
 * The client paces itself by the quota of each request's action, as Boundary's rate limiter keeps
 * them (per resource and action): against `--emulate 0.21`'s real limiter with a small quota for
 * reads only, spent reads hold back the next read, never a create, a PATCH or an action.
 */
import { DeadlineError, Operation } from "../../provider/client";
import { quotaOf } from "../../provider/client/pacer";
import { PROJECT } from "../helpers/controller";
import { useClient } from "../helpers/provider";

// reads: 2 per token per minute; every other action keeps Boundary's defaults
const { c, client } = useClient({ emulation: "0.21", rateLimits: [{ action: "read", per: "auth-token", limit: 2, periodMs: 60_000 }] });

/** The client under an operation whose deadline a one-minute wait would pass: a paced request fails at once, unsent. */
const within5s = () => client.within(new Operation({ timeoutMs: 5000, source: "a 5 s test operation" }));

test("a spent read quota holds back reads only: a create, a PATCH and an action still go at once", async () => {
  const t = await client.createTarget({ scope_id: PROJECT, name: "paced-by-action", type: "tcp", attributes: { default_port: 22 } });
  expect((await client.getTarget(t.id)).id).toBe(t.id);
  expect((await client.getTarget(t.id)).id).toBe(t.id); // the read quota is spent: remaining=0 for a minute
  const before = c.store.size;

  // another action's quota is untouched: nothing waits for the read window
  const second = await within5s().createTarget({ scope_id: PROJECT, name: "paced-by-action-2", type: "tcp", attributes: { default_port: 22 } });
  expect(c.store.size).toBe(before + 1);
  const patched = await within5s().updateTarget(second.id, second.version, ["description"], { description: "not slowed" });
  expect(patched.description).toBe("not slowed");
  const set = await within5s().associate(second.id, "set", patched.version, [{ field: "hostSetIds", ids: ["hsst_1234567890"] }]);
  expect(set.version).toBe(patched.version + 1);

  // a read waits for its own window, which ends after this operation's deadline: refused before sending
  const err = await within5s()
    .getTarget(t.id)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(DeadlineError);
  expect((err as Error).message).toMatch(
    /rate limit for target:read is spent until its window resets in (59(\.\d)?|60) s \(RateLimit: limit=2, remaining=0, reset=\d+\)/,
  );
});

test("each request is paced by its resource and action, as the controller keys its quotas", () => {
  expect(quotaOf("GET", "/v1/targets?scope_id=p_1234567890")).toBe("target:list");
  expect(quotaOf("POST", "/v1/targets")).toBe("target:create");
  expect(quotaOf("GET", "/boundary/v1/targets/ttcp_1234567890")).toBe("target:read");
  expect(quotaOf("PATCH", "/v1/targets/ttcp_1234567890?update_mask=name")).toBe("target:update");
  expect(quotaOf("DELETE", "/v1/targets/ttcp_1234567890")).toBe("target:delete");
  expect(quotaOf("POST", "/v1/targets/ttcp_1234567890:set-host-sources")).toBe("target:set-host-sources");
  expect(quotaOf("POST", "/v1/targets/db%3Aprod:authorize-session")).toBe("target:authorize-session");
});
