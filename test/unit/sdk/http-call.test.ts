import { describe, expect, it } from "vitest";
import { ApiError, IrvClient } from "../../../sdk/index.js";
import { GROUP, mockApi } from "./mock-api.js";

const TOKEN = "s3cr3t-token-value";

describe("only a 2xx is success", () => {
  it("regression (a 302 from an SSO proxy counted as a successful delete): a redirect is an error with its status, not followed", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "DELETE" })
      .reply(302, "", { headers: { location: "https://sso.example.com/login" } });
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    const err = await client.groups.delete(GROUP.uid).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.httpStatus).toBe(302);
    expect(err.message).toMatch(
      /HTTP 302: a redirect to https:\/\/sso\.example\.com\/login, which is not followed/,
    );
    // The mock refuses any request it has no interceptor for: nothing went to the login page.
    agent.assertNoPendingInterceptors();
  });

  it("regression (a redirected list read as an empty page): a 3xx answering a list is an error, not zero items", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: "/iam/v2/groups?name=team-a", method: "GET" })
      .reply(307, { groups: [] }, { headers: { location: "/elsewhere" } });
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    await expect(client.groups.list({ name: "team-a" })).rejects.toMatchObject({ httpStatus: 307 });
  });

  it("does not believe a non-2xx answer whose body claims code 0 (OK)", async () => {
    const { agent, origin, pool } = mockApi();
    pool
      .intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "DELETE" })
      .reply(418, { code: 0, message: "fine", details: [] });
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    await expect(client.groups.delete(GROUP.uid)).rejects.toMatchObject({
      httpStatus: 418,
      codeName: "UNKNOWN",
    });
  });

  it("accepts any 2xx, such as a 204 without a body for a delete", async () => {
    const { agent, origin, pool } = mockApi();
    pool.intercept({ path: `/iam/v2/groups/${GROUP.uid}`, method: "DELETE" }).reply(204, "");
    const client = new IrvClient({ baseUrl: origin, token: TOKEN, dispatcher: agent });
    await expect(client.groups.delete(GROUP.uid)).resolves.toBeUndefined();
  });
});
