import { describe, expect, it } from "vitest";
import { ApiError, InvalidResponseError, IrvClient, NetworkError } from "../../../sdk/index.js";
import { GROUP, mockApi, noSleep, status } from "./mock-api.js";

const TOKEN = "s3cr3t-token-value";

describe("HttpTransport through IrvClient", () => {
  it("sends the bearer token and parses a group", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({
        path: `/iam/v2/groups/${GROUP.uid}`,
        method: "GET",
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      .reply(200, GROUP);
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    expect(await client.groups.get(GROUP.uid)).toEqual(GROUP);
  });

  it("ignores unknown response fields instead of failing", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "GET" })
      .reply(200, { ...GROUP, shinyNewField: { a: 1 } });
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    expect(await client.groups.get(GROUP.uid)).toEqual(GROUP);
  });

  it("regression (keys holding undefined broke the engine's property maps): what reads as absent is left out, not kept as a key", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "GET" })
      .reply(200, { ...GROUP, description: "" });
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    const g = await client.groups.get(GROUP.uid);
    expect("description" in g).toBe(false);
    expect(Object.values(g)).not.toContain(undefined);
  });

  it("names the JSON path of a response field with the wrong type", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "GET" })
      .reply(200, { ...GROUP, createTime: 1234, verified: "no" });
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    const err = await client.groups.get(GROUP.uid).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toContain("createTime:");
    expect(err.message).toContain("verified:");
  });

  it("retries a GET answered 503 and returns the later success", async () => {
    const { agent, origin, pool } = mockApi();
    const path = `/iam/v2/groups/${GROUP.uid}`;
    pool
      .intercept({ path, method: "GET" })
      .reply(503, status(14, "try later"), { headers: { "retry-after": "0" } });
    pool.intercept({ path, method: "GET" }).reply(429, status(8, "slow down"));
    pool.intercept({ path, method: "GET" }).reply(200, GROUP);
    const events: number[] = [];
    const client = new IrvClient({
      baseUrl: origin,
      token: TOKEN,
      dispatcher: agent,
      sleep: noSleep,
      onEvent: (e) => events.push(e.status ?? 0),
    });
    expect((await client.groups.get(GROUP.uid)).name).toBe("team-a");
    expect(events).toEqual([503, 429, 200]);
  });

  it("does not resend a POST answered 503 and reports the API error", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "POST" }).reply(503, status(14, "down"));
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent, sleep: noSleep });
    const err = await client.groups.create(GROUP.uid, { name: "x" }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.codeName).toBe("UNAVAILABLE");
  });

  it("finds the resource a lost create made instead of creating it twice", async () => {
    const { agent, origin, pool } = mockApi();
    const parent = GROUP.uid.split("/")[0];
    pool
      .intercept({ path: `/iam/v2/groups/${parent}`, method: "POST" })
      .replyWithError(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }));
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent, sleep: noSleep });
    let lookups = 0;
    const created = await client.groups.create(
      parent,
      { name: "team-a" },
      {
        findExisting: async () => {
          lookups++;
          return { ...GROUP, createTime: new Date().toISOString() };
        },
      },
    );
    expect(created.uid).toEqual(GROUP.uid);
    expect(lookups).toBe(1);
  });

  it("resends a create whose lookup finds nothing", async () => {
    const { agent, origin, pool } = mockApi();
    const parent = GROUP.uid.split("/")[0];
    pool.intercept({ path: `/iam/v2/groups/${parent}`, method: "POST" }).reply(503, status(14, "down"));
    pool.intercept({ path: `/iam/v2/groups/${parent}`, method: "POST" }).reply(200, GROUP);
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    const created = await client.groups.create(
      parent,
      { name: "team-a" },
      {
        findExisting: async () => undefined,
        retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 1, multiplier: 1 },
      },
    );
    expect(created.uid).toBe(GROUP.uid);
  });

  it("reports a refused connection as a NetworkError that was not sent", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: "/iam/v2/roles", method: "GET" })
      .replyWithError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))
      .times(6);
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent, sleep: noSleep });
    const err = await client.roles.list().catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.sent).toBe(false);
  });

  it("never puts the token in an error message, even when the server echoes it", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: "/iam/v2/roles", method: "GET" })
      .reply(401, status(16, `bad token Bearer ${TOKEN}`));
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    const err = await client.roles.list().catch((e) => e);
    expect(err.codeName).toBe("UNAUTHENTICATED");
    expect(String(err.message)).not.toContain(TOKEN);
    expect(JSON.stringify(err)).not.toContain(TOKEN);
    expect(String(err.stack)).not.toContain(TOKEN);
  });

  it("sends updateMask as a comma list and the body as JSON", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({
        path: `/iam/v2/groups/${GROUP.uid}?updateMask=name%2Cdescription`,
        method: "PATCH",
        body: JSON.stringify({ name: "b" }),
      })
      .reply(200, { ...GROUP, name: "b", description: undefined });
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    const g = await client.groups.update(GROUP.uid, { name: "b" }, { updateMask: ["name", "description"] });
    expect(g.name).toBe("b");
  });

  it("treats NOT_FOUND on delete as done when asked to", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "DELETE" }).reply(404, status(5, "gone"));
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    await expect(client.groups.delete(GROUP.uid, { ignoreNotFound: true })).resolves.toBeUndefined();
  });

  it("refuses to build a client without a base URL or credentials, naming the setting", () => {
    expect(() => new IrvClient({ baseUrl: "", token: "t" })).toThrow(/irv:baseUrl/);
    expect(() => new IrvClient({ baseUrl: "not a url", token: "t" })).toThrow(/not a URL/);
    expect(() => new IrvClient({ baseUrl: "http://x" })).toThrow(/irv:token/);
  });
});
