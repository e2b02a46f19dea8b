import { describe, expect, it } from "vitest";
import { IrvClient } from "../../../sdk/index.js";
import { EXCHANGE, GROUP, mockApi, mockExchange, status } from "./mock-api.js";

const ORG = GROUP.uid.split("/")[0] ?? "";
const fresh = () => ({ ...GROUP, createTime: new Date().toISOString() });

describe("one retry loop", () => {
  it("regression (the create path had a second retry loop with its own sleep): an unknown create outcome waits through the injected sleep and random", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: `/iam/v2/groups/${ORG}`, method: "POST" }).reply(503, status(14, "down"));
    pool.intercept({ path: `/iam/v2/groups/${ORG}`, method: "POST" }).reply(200, fresh());
    const waits: number[] = [];
    const client = new IrvClient({
      baseUrl: origin,
      token: "static-token-value",
      dispatcher: agent,
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0.5,
    });
    let lookups = 0;
    const created = await client.groups.create(
      ORG,
      { name: "team-a" },
      {
        findExisting: async () => {
          lookups++;
          return undefined;
        },
      },
    );
    expect(created.uid).toBe(GROUP.uid);
    expect(lookups).toBe(1);
    // Full jitter over the first ceiling (200 ms) with random() = 0.5.
    expect(waits).toEqual([100]);
  });

  it("regression (token-service failures were judged as request failures): a POST whose token exchange met a 503 is retried, as nothing was sent", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(503, status(14, "sts restarting"));
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(200, { token: "api-token-value" });
    pool
      .intercept({
        path: `/iam/v2/groups/${ORG}`,
        method: "POST",
        headers: { authorization: "Bearer api-token-value" },
      })
      .reply(200, fresh());
    const auth = mockExchange({ agent, origin });
    const client = new IrvClient({ baseUrl: origin, auth, dispatcher: agent, sleep: async () => {} });
    expect((await client.groups.create(ORG, { name: "team-a" })).uid).toBe(GROUP.uid);
  });

  it("does not retry a token service that refused the workload token", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(403, status(7, "subject does not match"));
    const auth = mockExchange({ agent, origin });
    const client = new IrvClient({ baseUrl: origin, auth, dispatcher: agent, sleep: async () => {} });
    await expect(client.roles.list()).rejects.toThrow(
      /^getting an API token failed: .*PERMISSION_DENIED \(7\): subject does not match$/,
    );
  });

  it("gives each caller sharing a failed token exchange its own error, worded once", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: EXCHANGE, method: "GET" }).reply(403, status(7, "subject does not match"));
    const auth = mockExchange({ agent, origin });
    const client = new IrvClient({ baseUrl: origin, auth, dispatcher: agent });
    const errors = await Promise.all(
      [client.roles.list(), client.roles.list()].map((p) => p.catch((e) => e)),
    );
    expect(errors[0]).not.toBe(errors[1]);
    for (const e of errors) {
      expect(e.codeName).toBe("PERMISSION_DENIED");
      expect(e.message.match(/getting an API token failed/g)).toHaveLength(1);
    }
  });
});
