// regression (a refresh of 3,000 kept 3,000 timers armed): each request's wait for its token was
// bounded by an `AbortSignal.timeout`, which stays armed for the whole timeout (60 s) after the
// token came, with a weak reference the collector tends on every pass; the provider process's cost
// per read grew with the size of the refresh. A finished request now leaves no timer behind.
import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { IrvClient } from "../../../sdk/index.js";
import { GROUP, mockApi } from "./mock-api.js";

describe("a finished request", () => {
  it("leaves no timer armed behind it", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "GET" })
      .reply(200, GROUP)
      .times(20);
    const client = new IrvClient({ baseUrl: origin, token: "s3cr3t-token-value", dispatcher: agent });
    await client.groups.get(GROUP.uid); // the first request's one-off set-up is not counted

    const armed = new Set<number>();
    const hook = createHook({
      init: (id, type) => {
        if (type === "Timeout") armed.add(id);
      },
      destroy: (id) => {
        armed.delete(id);
      },
    }).enable();
    try {
      for (let i = 0; i < 19; i++) await client.groups.get(GROUP.uid);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      hook.disable();
    }
    expect(armed.size).toBe(0);
  });
});
